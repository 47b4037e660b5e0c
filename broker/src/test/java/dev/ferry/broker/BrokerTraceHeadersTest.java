package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Without tracing (no SDK or agent), a caller's W3C trace context and baggage reach the backend
 * as they were sent, held and streamed requests alike, so a trace crosses the broker with its
 * parent links whole; a call without them gets none added. With tracing, see
 * {@link BrokerTracingTest}.
 */
class BrokerTraceHeadersTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final List<String> NAMES = List.of("traceparent", "tracestate", "baggage");

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {100, 200_000}) // held, and streamed past holdBytes
  void traceContextGoesThroughAsSent(int size) throws Exception {
    Map<String, String> seen = new ConcurrentHashMap<>();
    List<Boolean> calls = Collections.synchronizedList(new ArrayList<>());
    Endpoint recording = new Endpoint() {
      @Override
      public Payload handle(Message request) throws Exception {
        return EchoService.echo(request);
      }

      @Override
      public Payload handle(Message request, HttpServletRequest http) throws Exception {
        calls.add(true);
        for (String name : NAMES) {
          String v = http.getHeader(name);
          seen.put(name + "#" + calls.size(), v == null ? "none" : v);
        }
        return handle(request);
      }
    };
    try (SoapServer backend = SoapServer.builder().endpoint("/echo",
            Dispatcher.builder().fallback(recording).build()).build().start();
        Broker broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n"
            + "    to: " + backend.uri("/echo") + "\n")).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      Payload p = EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.NEVER, "traced",
          dev.ferry.bytes.ByteString.of(new byte[size]));
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      p.writeTo(body);
      HttpRequest.Builder call = HttpRequest.newBuilder(broker.uri("/echo"))
          .header("Content-Type", p.contentType()).header("SOAPAction", "\"\"")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
      HttpResponse<Void> traced = http.send(call.copy()
          .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
          .header("tracestate", "vendor=opaque").header("baggage", "tenant=acme")
          .build(), HttpResponse.BodyHandlers.discarding());
      HttpResponse<Void> untraced = http.send(call.build(),
          HttpResponse.BodyHandlers.discarding());
      assertThat(traced.statusCode()).isEqualTo(200);
      assertThat(untraced.statusCode()).isEqualTo(200);
    }
    assertThat(seen).containsEntry("traceparent#1",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        .containsEntry("tracestate#1", "vendor=opaque").containsEntry("baggage#1", "tenant=acme")
        .containsEntry("traceparent#2", "none").containsEntry("tracestate#2", "none")
        .containsEntry("baggage#2", "none");
  }
}
