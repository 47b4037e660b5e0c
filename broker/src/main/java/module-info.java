/** The copy-and-forward SOAP broker: routes, forwarding, audit copies. */
module dev.ferry.broker {
  requires transitive dev.ferry.server;
  requires transitive dev.ferry.client;
  requires org.eclipse.jetty.client;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.util;
  requires org.yaml.snakeyaml;
  requires java.net.http;

  exports dev.ferry.broker;
}
