/** The copy-and-forward SOAP broker: routes, forwarding, audit copies. */
module dev.ferry.broker {
  requires transitive dev.ferry.client;
  requires transitive dev.ferry.tracing;
  requires transitive dev.ferry.logging;
  requires transitive micrometer.core;
  requires transitive micrometer.registry.prometheus;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.http;
  requires io.netty.common;
  requires io.netty.handler;
  requires io.netty.transport;
  requires org.yaml.snakeyaml;
  requires java.logging;

  exports dev.ferry.broker;
}
