/** The SOAP client: soap and xop over one HTTP client, nothing else. */
module dev.ferry.client {
  requires transitive dev.ferry.soap;
  requires transitive dev.ferry.security;
  requires transitive dev.ferry.tracing;
  requires transitive dev.ferry.logging;
  requires io.netty.buffer;
  requires io.netty.codec;
  requires io.netty.codec.http;
  requires io.netty.common;
  requires io.netty.handler;
  requires io.netty.transport;
  requires io.netty.transport.classes.epoll;

  exports dev.ferry.client;
  exports dev.ferry.client.internal to dev.ferry.broker;
}
