package dev.ferry.jaxws.internal;

import dev.ferry.client.SoapClient;
import dev.ferry.security.TlsSettings;
import dev.ferry.soap.SoapCodec;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SOAP clients ports call through: one per codec, connect timeout, TLS settings and
 * OpenTelemetry (null: the global one as registered when the client is made), made on
 * first use and shared by every port that asks for the same (a client holds a connection pool
 * and event loops, too much to make per port or per call). The timeouts come from a request
 * context's properties, CXF's and Metro's names alike, in milliseconds: the connect timeout is
 * the client's, the receive timeout each call's own; {@code SoapClient}'s timeouts are of
 * progress, so a large transfer that keeps moving is never cut.
 */
final class Clients {
  /** Connect timeout properties, first found wins. */
  static final String[] CONNECT = {"jakarta.xml.ws.client.connectionTimeout",
      "javax.xml.ws.client.connectionTimeout", "com.sun.xml.ws.connect.timeout"};
  /** Receive (progress) timeout properties, first found wins. */
  static final String[] RECEIVE = {"jakarta.xml.ws.client.receiveTimeout",
      "javax.xml.ws.client.receiveTimeout", "com.sun.xml.ws.request.timeout"};
  private static final long NO_LIMIT_MILLIS = 24L * 3600 * 1000;
  private static final SoapCodec DEFAULT_CODEC = SoapCodec.create();
  private static final Map<Key, SoapClient> CLIENTS = new ConcurrentHashMap<>();

  private record Key(SoapCodec codec, long connectMillis, TlsSettings tls, OpenTelemetry otel) {}

  private Clients() {}

  /** The client for the settings in {@code context}. */
  static SoapClient of(Map<String, Object> context) {
    SoapCodec codec = context.get(EndpointImpl.CODEC) instanceof SoapCodec c ? c
        : DEFAULT_CODEC;
    TlsSettings tls = context.get(EndpointImpl.TLS) instanceof TlsSettings t ? t : null;
    OpenTelemetry otel = context.get(EndpointImpl.OPEN_TELEMETRY) instanceof OpenTelemetry o ? o
        : null;
    Key key = new Key(codec, millis(context, CONNECT, 10_000), tls, otel);
    return CLIENTS.computeIfAbsent(key, k -> {
      SoapClient.Builder b = SoapClient.builder().codec(k.codec())
          .connectTimeout(Duration.ofMillis(k.connectMillis())).openTelemetry(k.otel());
      return (k.tls() == null ? b : b.tls(k.tls())).build();
    });
  }

  /** The receive timeout of a call with {@code context}. */
  static Duration receiveTimeout(Map<String, Object> context) {
    return Duration.ofMillis(millis(context, RECEIVE, 60_000));
  }

  static SoapCodec codec(Map<String, Object> context) {
    return context.get(EndpointImpl.CODEC) instanceof SoapCodec c ? c : DEFAULT_CODEC;
  }

  private static long millis(Map<String, Object> context, String[] names, long otherwise) {
    for (String n : names) {
      Object v = context.get(n);
      long ms = v instanceof Number num ? num.longValue()
          : v instanceof String s && !s.isBlank() ? Long.parseLong(s.strip()) : -1;
      if (ms >= 0) {
        return ms == 0 ? NO_LIMIT_MILLIS : ms; // 0 is no limit, as JAX-WS runtimes read it
      }
    }
    return otherwise;
  }
}
