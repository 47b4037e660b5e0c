/** The ferry command line. */
module dev.ferry.cli {
  requires dev.ferry.mime;
  requires dev.ferry.xop;
  requires dev.ferry.client;
  requires dev.ferry.broker;
  requires dev.ferry.sample;
  requires dev.ferry.ldap.server;
  requires dev.ferry.logging;
  requires org.yaml.snakeyaml;
  requires java.logging;
  requires io.netty.common;
  requires java.net.http; // its tests call the commands' servers with the JDK's client
  requires java.desktop;
  requires jdk.unsupported; // sun.misc.Signal: SIGHUP reloads the broker's routes
  requires java.management; // the JIT's compile time: when the demo's timings have settled
  requires org.knowm.xchart;
  requires info.picocli;
  requires io.opentelemetry.sdk;
  requires io.opentelemetry.sdk.autoconfigure;

  opens dev.ferry.cli to info.picocli;
}
