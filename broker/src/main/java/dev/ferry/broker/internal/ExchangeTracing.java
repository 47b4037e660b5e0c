package dev.ferry.broker.internal;

import dev.ferry.client.internal.NettyHeaders;
import dev.ferry.tracing.internal.SoapSpans;
import io.netty.handler.codec.http.HttpHeaders;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import java.net.URI;
import java.util.List;

/**
 * The broker's spans: a server span per exchange, whose parent is the context the caller sent
 * (W3C {@code traceparent}, {@code tracestate}, {@code baggage}), and a client span per backend
 * attempt as its child, whose context goes to the backend in place of the caller's. Off when the
 * OpenTelemetry in use traces nothing (the API's no-op, as when no SDK or agent is there): then
 * no span or context is made at all, and the caller's trace headers go to the backend as they
 * came, so the trace still crosses the broker whole, one hop shorter.
 */
public final class ExchangeTracing {
  /** The trace context and baggage headers passed through as they came when tracing is off. */
  private static final List<String> TRACE_HEADERS = List.of("traceparent", "tracestate",
      "baggage");
  private final SoapSpans spans; // null: off

  private ExchangeTracing(SoapSpans spans) {
    this.spans = spans;
  }

  /**
   * The spans of a broker tracing through {@code otel}, or if it is null through the global
   * one as registered now; off if that traces nothing.
   */
  public static ExchangeTracing of(OpenTelemetry otel) {
    OpenTelemetry o = otel != null ? otel : GlobalOpenTelemetry.getOrNoop();
    boolean off = o.getTracerProvider() == TracerProvider.noop();
    return new ExchangeTracing(off ? null : SoapSpans.of(o, "dev.ferry.broker"));
  }

  /** Whether spans are made. */
  public boolean on() {
    return spans != null;
  }

  /**
   * Starts the server span of a request with {@code headers} (a child of the context they
   * carry); returns its context, or null when tracing is off.
   */
  public Context startServer(HttpHeaders headers, String path, String scheme,
      String clientAddress) {
    if (spans == null) {
      return null;
    }
    return spans.startServer(headers, NettyHeaders.INSTANCE, "POST " + path, path, scheme,
        clientAddress);
  }

  /**
   * Starts the client span of one attempt to {@code member}, a child of {@code server} (the
   * exchange's span); returns its context, or null when tracing is off or the exchange has no
   * span.
   */
  public Context startClient(Context server, URI member, String service, String operation) {
    if (spans == null || server == null) {
      return null;
    }
    return spans.startClient(server, member, service, operation);
  }

  /**
   * Writes the trace context a backend request carries: {@code attempt}'s, or when there is
   * none, the caller's headers ({@code from}) as they came.
   */
  public void writeTo(HttpHeaders to, Context attempt, HttpHeaders from) {
    if (attempt != null) {
      spans.inject(attempt, to, NettyHeaders.INSTANCE);
      return;
    }
    for (String name : TRACE_HEADERS) {
      String value = from.get(name);
      if (value != null) {
        to.set(name, value);
      }
    }
  }

  /** The span of {@code context}. */
  public static Span span(Context context) {
    return Span.fromContext(context);
  }
}
