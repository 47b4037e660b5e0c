package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.testkit.OtlpReceiver;
import dev.ferry.testkit.OtlpReceiver.ReceivedSpan;
import dev.ferry.xop.MtomPolicy;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One trace from Ferry's client through the broker to Ferry's server, every hop exporting over
 * OTLP to a receiver that decodes the spans: the broker's server span is the client's child,
 * its client span (one per member tried) the server span's child, and the backend's server span
 * the child of the broker's client span that reached it; held and streamed requests alike.
 * Without an SDK the broker does no trace work at all and passes the caller's headers on.
 */
class BrokerTracingTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private OtlpReceiver receiver;
  private OpenTelemetrySdk sdk;
  private SoapServer backend;
  private SoapClient client;

  @BeforeEach
  void start() throws Exception {
    receiver = OtlpReceiver.start();
    sdk = receiver.sdk("broker-tracing-test");
    backend = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
        .options(ServerOptions.builder().openTelemetry(sdk).build()).build().start();
    client = SoapClient.builder().openTelemetry(sdk).timeout(Duration.ofSeconds(20)).build();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    backend.close();
    sdk.close();
    receiver.close();
  }

  private Broker broker(String yaml, OpenTelemetry otel) throws IOException {
    return Broker.builder().routes(Routes.parse(yaml)).openTelemetry(otel).build().start();
  }

  /** Calls {@code broker}'s /echo with {@code size} bytes under a root span; checks the echo. */
  private void call(Broker broker, int size) throws IOException {
    ByteString blob = ByteString.of(Blobs.random(size, size));
    Span root = sdk.getTracer("test").spanBuilder("test").startSpan();
    try (Scope s = root.makeCurrent();
        SoapResponse r = client.call(SoapRequest.builder(broker.uri("/echo"),
            EchoService.request(CODEC, SoapVersion.SOAP_12, MtomPolicy.ALWAYS, "traced", blob))
            .build())) {
      assertThat(r.status()).isEqualTo(200);
      assertThat(EchoService.readEcho(r.message()).attachinfo()).isEqualTo(blob);
    } finally {
      root.end();
    }
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {2_000, 300_000}) // held, and streamed past holdBytes
  void oneTraceCrossesTheBrokerWithEveryParentLinkRight(int size) throws Exception {
    try (Broker broker = broker("routes:\n  - path: /echo\n    to: " + backend.uri("/echo")
        + "\n", sdk)) {
      call(broker, size);
    }
    sdk.getSdkTracerProvider().forceFlush();
    List<ReceivedSpan> spans = receiver.awaitSpans(5, WAIT);
    ReceivedSpan test = one(spans, "INTERNAL", "test");
    ReceivedSpan caller = one(spans, "CLIENT", "dev.ferry.client");
    ReceivedSpan brokerServer = one(spans, "SERVER", "dev.ferry.broker");
    ReceivedSpan brokerClient = one(spans, "CLIENT", "dev.ferry.broker");
    ReceivedSpan served = one(spans, "SERVER", "dev.ferry.server");
    assertThat(List.of(caller, brokerServer, brokerClient, served))
        .allSatisfy(s -> assertThat(s.traceId()).isEqualTo(test.traceId()));
    assertThat(caller.parentSpanId()).isEqualTo(test.spanId());
    assertThat(brokerServer.parentSpanId()).isEqualTo(caller.spanId());
    assertThat(brokerClient.parentSpanId()).isEqualTo(brokerServer.spanId());
    assertThat(served.parentSpanId()).isEqualTo(brokerClient.spanId());

    assertThat(brokerServer.name()).isEqualTo(EchoService.NAMESPACE + "/testMtom");
    assertThat(brokerServer.attributes()).containsEntry("rpc.system", "soap")
        .containsEntry("rpc.service", EchoService.NAMESPACE)
        .containsEntry("rpc.method", "testMtom").containsEntry("soap.version", "1.2")
        .containsEntry("http.request.method", "POST").containsEntry("url.path", "/echo")
        .containsEntry("client.address", "127.0.0.1")
        .containsEntry("http.response.status_code", 200L);
    assertThat(brokerServer.error()).isFalse();
    assertThat(brokerClient.name()).isEqualTo(EchoService.NAMESPACE + "/testMtom");
    assertThat(brokerClient.attributes()).containsEntry("rpc.system", "soap")
        .containsEntry("rpc.method", "testMtom")
        .containsEntry("url.full", backend.uri("/echo").toString())
        .containsEntry("server.address", "127.0.0.1")
        .containsEntry("server.port", (long) backend.port())
        .containsEntry("http.response.status_code", 200L);
    assertThat(brokerClient.error()).isFalse();
    // what each side sent, the other received: the caller's bytes into the broker, the
    // broker's (its trace header added) into the backend, and the reply back unchanged
    assertThat(brokerServer.attribute("http.request.body.size"))
        .isEqualTo(caller.attribute("http.request.body.size"));
    assertThat(brokerClient.attribute("http.request.body.size"))
        .isEqualTo(served.attribute("http.request.body.size"));
    assertThat((Long) brokerClient.attribute("http.request.body.size")).isGreaterThan(size);
    assertThat(List.of(brokerServer, brokerClient, served)).allSatisfy(s ->
        assertThat(s.attribute("http.response.body.size"))
            .isEqualTo(caller.attribute("http.response.body.size")));
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {2_000, 300_000}) // held, and streamed past holdBytes
  void aMoveToTheNextMemberIsASecondClientSpan(int size) throws Exception {
    URI dead = URI.create("http://127.0.0.1:" + deadPort() + "/echo");
    try (Broker broker = broker("groups:\n  g:\n    members:\n      - " + dead + "\n      - "
        + backend.uri("/echo") + "\nroutes:\n  - path: /echo\n    group: g\n", sdk)) {
      call(broker, size);
    }
    sdk.getSdkTracerProvider().forceFlush();
    List<ReceivedSpan> spans = receiver.awaitSpans(6, WAIT);
    ReceivedSpan brokerServer = one(spans, "SERVER", "dev.ferry.broker");
    List<ReceivedSpan> attempts = all(spans, "CLIENT", "dev.ferry.broker");
    assertThat(attempts).hasSize(2)
        .allSatisfy(a -> assertThat(a.parentSpanId()).isEqualTo(brokerServer.spanId()));
    ReceivedSpan refused = attempts.stream()
        .filter(a -> a.attribute("server.port").equals((long) dead.getPort())).findFirst()
        .orElseThrow();
    ReceivedSpan reached = attempts.stream()
        .filter(a -> a.attribute("server.port").equals((long) backend.port())).findFirst()
        .orElseThrow();
    assertThat(refused.error()).isTrue();
    assertThat(refused.attributes()).containsEntry("error.type",
        java.net.ConnectException.class.getName());
    assertThat(reached.error()).isFalse();
    assertThat(reached.attributes()).containsEntry("http.response.status_code", 200L);
    assertThat(one(spans, "SERVER", "dev.ferry.server").parentSpanId())
        .isEqualTo(reached.spanId());
    assertThat(brokerServer.error()).isFalse();
  }

  @Test
  void aFaultTheBrokerAnswersEndsItsSpanWithTheCode() throws Exception {
    try (Broker broker = broker("routes:\n  - path: /echo\n    action: urn:other\n    to: "
        + backend.uri("/echo") + "\n", sdk);
        SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
            SoapVersion.SOAP_11, MtomPolicy.NEVER, "x", ByteString.of(new byte[10])),
            EchoService.SOAP_ACTION)) {
      assertThat(r.isFault()).isTrue();
    }
    sdk.getSdkTracerProvider().forceFlush();
    List<ReceivedSpan> spans = receiver.awaitSpans(2, WAIT);
    ReceivedSpan brokerServer = one(spans, "SERVER", "dev.ferry.broker");
    assertThat(brokerServer.attributes()).containsEntry("soap.fault.code", "Client")
        .containsEntry("http.response.status_code", 500L).containsEntry("soap.version", "1.1");
    assertThat(brokerServer.error()).isFalse(); // no route for it: the caller's mistake
    assertThat(all(spans, "CLIENT", "dev.ferry.broker")).isEmpty();
  }

  /**
   * With an OpenTelemetry that traces nothing (the API's no-op tracer, here with a propagator
   * that counts its use), the broker neither reads nor writes trace context through it: the
   * caller's headers reach the backend as they were sent, and no span is made.
   */
  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {2_000, 300_000})
  void withoutAnSdkTheBrokerMakesNoSpansAndPassesTheCallersContextOn(int size)
      throws Exception {
    AtomicInteger used = new AtomicInteger();
    TextMapPropagator counting = new TextMapPropagator() {
      @Override
      public Collection<String> fields() {
        used.incrementAndGet();
        return W3CTraceContextPropagator.getInstance().fields();
      }

      @Override
      public <C> void inject(Context context, C carrier, TextMapSetter<C> setter) {
        used.incrementAndGet();
      }

      @Override
      public <C> Context extract(Context context, C carrier, TextMapGetter<C> getter) {
        used.incrementAndGet();
        return context;
      }
    };
    OpenTelemetry untraced = OpenTelemetry.propagating(ContextPropagators.create(counting));
    try (Broker broker = broker("routes:\n  - path: /echo\n    to: " + backend.uri("/echo")
        + "\n", untraced)) {
      call(broker, size);
    }
    sdk.getSdkTracerProvider().forceFlush();
    List<ReceivedSpan> spans = receiver.awaitSpans(3, WAIT);
    assertThat(used).hasValue(0);
    assertThat(all(spans, "SERVER", "dev.ferry.broker")).isEmpty();
    assertThat(all(spans, "CLIENT", "dev.ferry.broker")).isEmpty();
    // the backend's span is the caller's child: the context went through untouched
    assertThat(one(spans, "SERVER", "dev.ferry.server").parentSpanId())
        .isEqualTo(one(spans, "CLIENT", "dev.ferry.client").spanId());
  }

  private static ReceivedSpan one(List<ReceivedSpan> spans, String kind, String scope) {
    List<ReceivedSpan> found = all(spans, kind, scope);
    assertThat(found).as("%s spans of %s in %s", kind, scope, spans).hasSize(1);
    return found.get(0);
  }

  private static List<ReceivedSpan> all(List<ReceivedSpan> spans, String kind, String scope) {
    return spans.stream().filter(s -> s.kind().equals(kind) && s.scope().equals(scope))
        .toList();
  }

  private static int deadPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
