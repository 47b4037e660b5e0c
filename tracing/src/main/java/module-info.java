/**
 * Spans of SOAP calls and W3C trace context, through the OpenTelemetry API only: the server,
 * client and broker use it; a user brings the SDK or the Java agent.
 */
module dev.ferry.tracing {
  requires transitive dev.ferry.soap;
  requires transitive io.opentelemetry.api;
  requires transitive io.opentelemetry.context;

  exports dev.ferry.tracing;
  exports dev.ferry.tracing.internal to dev.ferry.server, dev.ferry.client, dev.ferry.broker;
}
