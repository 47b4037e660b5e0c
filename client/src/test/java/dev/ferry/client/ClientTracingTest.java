package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapFaultException;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Fault;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.testkit.OtlpReceiver;
import dev.ferry.testkit.OtlpReceiver.ReceivedSpan;
import dev.ferry.xop.MtomPolicy;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A traced call from Ferry's client to Ferry's server, both exporting over OTLP to a receiver
 * that decodes the spans: the client span is a child of the caller's current span, the server
 * span a child of the client span, and both carry the attributes SoapAttributes lists.
 */
class ClientTracingTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final Duration WAIT = Duration.ofSeconds(10);
  private OtlpReceiver receiver;
  private OpenTelemetrySdk sdk;
  private SoapServer server;
  private SoapClient client;

  @BeforeEach
  void start() throws Exception {
    receiver = OtlpReceiver.start();
    sdk = receiver.sdk("tracing-test");
    Dispatcher echo = Dispatcher.builder()
        .element(EchoService.REQUEST, EchoService::echo)
        .element(new QName("urn:t", "refuse"), r -> {
          throw new SoapFaultException(Fault.of(r.version(), r.version().senderFaultCode(),
              "refused"));
        })
        .element(new QName("urn:t", "crash"), r -> {
          throw new IllegalStateException("disk full");
        }).build();
    server = SoapServer.builder().endpoint("/echo", echo)
        .options(ServerOptions.builder().openTelemetry(sdk).build()).build().start();
    client = SoapClient.builder().openTelemetry(sdk).build();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
    sdk.close();
    receiver.close();
  }

  @Test
  void aCallIsAClientSpanUnderTheCallersAndAboveTheServers() throws Exception {
    ByteString blob = ByteString.of(Blobs.random(40_000, 1));
    Span root = sdk.getTracer("test").spanBuilder("test").startSpan();
    try (Scope s = root.makeCurrent();
        SoapResponse r = client.call(SoapRequest.builder(server.uri("/echo"),
            EchoService.request(CODEC, SoapVersion.SOAP_12, MtomPolicy.ALWAYS, "n", blob))
            .operation("MtomService", "testMtom").build())) {
      assertThat(r.status()).isEqualTo(200);
      assertThat(EchoService.readEcho(r.message()).attachinfo()).isEqualTo(blob);
    } finally {
      root.end();
    }
    sdk.getSdkTracerProvider().forceFlush();
    List<ReceivedSpan> spans = receiver.awaitSpans(3, WAIT);
    ReceivedSpan test = find(spans, "INTERNAL");
    ReceivedSpan call = find(spans, "CLIENT");
    ReceivedSpan served = find(spans, "SERVER");
    assertThat(call.traceId()).isEqualTo(test.traceId()).isEqualTo(served.traceId());
    assertThat(call.parentSpanId()).isEqualTo(test.spanId());
    assertThat(served.parentSpanId()).isEqualTo(call.spanId());

    assertThat(call.name()).isEqualTo("MtomService/testMtom");
    assertThat(call.scope()).isEqualTo("dev.ferry.client");
    assertThat(call.attributes()).containsEntry("rpc.system", "soap")
        .containsEntry("rpc.service", "MtomService").containsEntry("rpc.method", "testMtom")
        .containsEntry("http.request.method", "POST").containsEntry("soap.version", "1.2")
        .containsEntry("http.response.status_code", 200L)
        .containsEntry("url.full", server.uri("/echo").toString())
        .containsEntry("server.address", "127.0.0.1")
        .containsEntry("server.port", (long) server.port());
    assertThat(call.error()).isFalse();

    assertThat(served.name()).isEqualTo(EchoService.NAMESPACE + "/testMtom");
    assertThat(served.scope()).isEqualTo("dev.ferry.server");
    assertThat(served.attributes()).containsEntry("rpc.system", "soap")
        .containsEntry("rpc.method", "testMtom").containsEntry("soap.version", "1.2")
        .containsEntry("soap.attachment.count", 1L).containsEntry("url.path", "/echo")
        .containsEntry("http.response.status_code", 200L)
        .containsEntry("client.address", "127.0.0.1");
    // what one side sent, the other received
    assertThat(served.attribute("http.request.body.size"))
        .isEqualTo(call.attribute("http.request.body.size"));
    assertThat(served.attribute("http.response.body.size"))
        .isEqualTo(call.attribute("http.response.body.size"));
    assertThat((Long) call.attribute("http.request.body.size")).isGreaterThan(40_000L);
  }

  @Test
  void aSenderFaultIsTheCallersErrorAndAReceiverFaultTheServers() throws Exception {
    try (SoapResponse r = client.call(server.uri("/echo"), payload("refuse"), null)) {
      assertThat(r.isFault()).isTrue();
    }
    try (SoapResponse r = client.call(server.uri("/echo"), payload("crash"), null)) {
      assertThat(r.fault().reason()).isEqualTo("the endpoint failed: disk full");
    }
    sdk.getSdkTracerProvider().forceFlush();
    List<ReceivedSpan> spans = receiver.awaitSpans(4, WAIT);
    ReceivedSpan refusedCall = find(spans, "CLIENT", "refuse");
    ReceivedSpan refusedServe = find(spans, "SERVER", "refuse");
    assertThat(refusedCall.error()).isTrue();
    assertThat(refusedCall.attributes()).containsEntry("soap.fault.code", "Client")
        .containsEntry("error.type", "Client").containsEntry("http.response.status_code", 500L);
    assertThat(refusedServe.error()).isFalse(); // the caller's mistake, not the server's
    assertThat(refusedServe.attributes()).containsEntry("soap.fault.code", "Client");
    ReceivedSpan crashed = find(spans, "SERVER", "crash");
    assertThat(crashed.error()).isTrue();
    assertThat(crashed.attributes()).containsEntry("soap.fault.code", "Server")
        .containsEntry("error.type", "Server");
  }

  @Test
  void aCallThatCannotConnectEndsItsSpanAsAnError() throws Exception {
    URI nowhere = URI.create("http://127.0.0.1:" + freePort() + "/x");
    assertThatThrownBy(() -> client.call(nowhere, payload("x"), null))
        .isInstanceOf(ConnectException.class);
    sdk.getSdkTracerProvider().forceFlush();
    ReceivedSpan span = receiver.awaitSpans(1, WAIT).get(0);
    assertThat(span.kind()).isEqualTo("CLIENT");
    assertThat(span.error()).isTrue();
    assertThat(span.attributes()).containsEntry("error.type", ConnectException.class.getName());
  }

  @Test
  void anAsynchronousCallIsTracedToo() throws Exception {
    Span root = sdk.getTracer("test").spanBuilder("test").startSpan();
    try (Scope s = root.makeCurrent();
        SoapResponse r = client.callAsync(SoapRequest.builder(server.uri("/echo"),
            payload("refuse")).build()).get()) {
      assertThat(r.isFault()).isTrue();
    } finally {
      root.end();
    }
    sdk.getSdkTracerProvider().forceFlush();
    List<ReceivedSpan> spans = receiver.awaitSpans(3, WAIT);
    assertThat(find(spans, "CLIENT").parentSpanId()).isEqualTo(find(spans, "INTERNAL").spanId());
    assertThat(find(spans, "SERVER").parentSpanId()).isEqualTo(find(spans, "CLIENT").spanId());
  }

  private static dev.ferry.soap.Payload payload(String operation) {
    return CODEC.payload(SoapVersion.SOAP_11, MtomPolicy.NEVER, List.of(), body -> {
      body.writeStartElement("t", operation, "urn:t");
      body.writeNamespace("t", "urn:t");
      body.writeEndElement();
    });
  }

  private static ReceivedSpan find(List<ReceivedSpan> spans, String kind) {
    return spans.stream().filter(s -> s.kind().equals(kind)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " span in " + spans));
  }

  private static ReceivedSpan find(List<ReceivedSpan> spans, String kind, String operation) {
    return spans.stream().filter(s -> s.kind().equals(kind)
        && (operation.equals(s.attribute("rpc.method"))
            || kind.equals("CLIENT") && spans.stream().anyMatch(x -> x.kind().equals("SERVER")
                && x.parentSpanId().equals(s.spanId())
                && operation.equals(x.attribute("rpc.method")))))
        .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " span of "
            + operation + " in " + spans));
  }

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
