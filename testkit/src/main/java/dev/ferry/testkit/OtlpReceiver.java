package dev.ferry.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.baggage.propagation.W3CBaggagePropagator;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP receiver of traces on loopback, as a collector would be: it takes the export
 * requests an exporter posts to {@code /v1/traces} (protobuf, plain or gzip), decodes them with
 * the protocol's own classes, and keeps the spans for a test to check. {@link #sdk} makes an
 * OpenTelemetry SDK that exports to it through the OTLP exporter and a batching processor, with
 * W3C trace context and baggage as propagators.
 */
public final class OtlpReceiver implements AutoCloseable {
  private final HttpServer server;
  private final List<ReceivedSpan> spans = new ArrayList<>();
  private int requests;

  /** One span as it arrived: ids in lower-case hex, the parent's empty for a root. */
  public record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name,
      String kind, String service, String scope, Map<String, Object> attributes,
      boolean error) {
    /** The attribute {@code key}, or null. */
    public Object attribute(String key) {
      return attributes.get(key);
    }

    @Override
    public String toString() {
      return service + " " + kind + " " + name + " " + spanId + "<-" + parentSpanId + " "
          + attributes;
    }
  }

  private OtlpReceiver(HttpServer server) {
    this.server = server;
    server.createContext("/v1/traces", this::export);
  }

  /** Starts a receiver on a free port of loopback. */
  public static OtlpReceiver start() throws IOException {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
        16);
    OtlpReceiver r = new OtlpReceiver(s);
    s.start();
    return r;
  }

  /** The base address, as {@code OTEL_EXPORTER_OTLP_ENDPOINT} takes it. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The traces' address, as an OTLP/HTTP span exporter takes it. */
  public URI tracesEndpoint() {
    return endpoint().resolve("/v1/traces");
  }

  /**
   * An SDK whose spans go to this receiver (a batching processor that exports every 100 ms)
   * under {@code serviceName}. Close it to flush what is left.
   */
  public OpenTelemetrySdk sdk(String serviceName) {
    OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder()
        .setEndpoint(tracesEndpoint().toString()).build();
    SdkTracerProvider tracers = SdkTracerProvider.builder()
        .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
            io.opentelemetry.api.common.AttributeKey.stringKey("service.name"), serviceName))))
        .addSpanProcessor(BatchSpanProcessor.builder(exporter)
            .setScheduleDelay(Duration.ofMillis(100)).build())
        .build();
    return OpenTelemetrySdk.builder().setTracerProvider(tracers)
        .setPropagators(ContextPropagators.create(TextMapPropagator.composite(
            W3CTraceContextPropagator.getInstance(), W3CBaggagePropagator.getInstance())))
        .build();
  }

  /** Every span received so far, in the order received. */
  public synchronized List<ReceivedSpan> spans() {
    return List.copyOf(spans);
  }

  /** The export requests received so far. */
  public synchronized int requests() {
    return requests;
  }

  /**
   * Waits until the spans received satisfy {@code done}, polling, for up to {@code timeout};
   * returns them.
   *
   * @throws AssertionError naming what arrived, if they do not in time
   */
  public List<ReceivedSpan> await(Predicate<List<ReceivedSpan>> done, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      List<ReceivedSpan> now = spans();
      if (done.test(now)) {
        return now;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the spans expected did not arrive in " + timeout + "; got "
            + now);
      }
      Thread.sleep(20);
    }
  }

  /** Waits for at least {@code count} spans (see {@link #await}). */
  public List<ReceivedSpan> awaitSpans(int count, Duration timeout) throws InterruptedException {
    return await(s -> s.size() >= count, timeout);
  }

  private void export(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      InputStream body = exchange.getRequestBody();
      if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
        body = new GZIPInputStream(body);
      }
      ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
      keep(request);
      byte[] reply = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
      exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, reply.length == 0 ? -1 : reply.length);
      exchange.getResponseBody().write(reply);
    }
  }

  private synchronized void keep(ExportTraceServiceRequest request) {
    requests++;
    for (ResourceSpans rs : request.getResourceSpansList()) {
      Object service = attributes(rs.getResource().getAttributesList()).get("service.name");
      for (ScopeSpans ss : rs.getScopeSpansList()) {
        for (Span s : ss.getSpansList()) {
          spans.add(new ReceivedSpan(hex(s.getTraceId().toByteArray()),
              hex(s.getSpanId().toByteArray()), hex(s.getParentSpanId().toByteArray()),
              s.getName(), s.getKind().name().replace("SPAN_KIND_", ""), String.valueOf(service),
              ss.getScope().getName(), attributes(s.getAttributesList()),
              s.getStatus().getCode() == Status.StatusCode.STATUS_CODE_ERROR));
        }
      }
    }
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static Map<String, Object> attributes(List<KeyValue> list) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (KeyValue kv : list) {
      m.put(kv.getKey(), value(kv.getValue()));
    }
    return m;
  }

  private static Object value(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue();
      case INT_VALUE -> v.getIntValue();
      case BOOL_VALUE -> v.getBoolValue();
      case DOUBLE_VALUE -> v.getDoubleValue();
      default -> v.toString();
    };
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
