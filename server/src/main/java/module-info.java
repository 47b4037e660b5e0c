/** The SOAP server: an embedded Jetty 12 on virtual threads, a Servlet 6 servlet, dispatch. */
module dev.ferry.server {
  requires transitive dev.ferry.soap;
  requires transitive dev.ferry.security;
  requires transitive dev.ferry.tracing;
  requires transitive dev.ferry.logging;
  requires transitive jakarta.servlet;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.server;
  requires org.eclipse.jetty.util;
  requires org.eclipse.jetty.ee11.servlet;
  requires transitive micrometer.core;
  requires transitive micrometer.registry.prometheus;

  exports dev.ferry.server;
}
