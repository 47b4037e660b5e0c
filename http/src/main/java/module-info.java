/** SOAP over HTTP: an embedded server and a servlet, a client, and a copy-and-forward broker. */
module dev.ferry.http {
  requires transitive dev.ferry.soap;
  requires transitive jakarta.servlet;
  requires java.net.http;
  requires org.eclipse.jetty.client;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.util;
  requires org.eclipse.jetty.ee11.servlet;
  requires transitive micrometer.core;
  requires transitive micrometer.registry.prometheus;
  requires org.yaml.snakeyaml;

  exports dev.ferry.http;
}
