package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.soap.SoapCodec;
import dev.ferry.testkit.OtlpReceiver;
import dev.ferry.testkit.OtlpReceiver.ReceivedSpan;
import dev.ferry.xop.MtomPolicy;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/**
 * The server reads W3C trace context and baggage sent by any caller (here the JDK's HTTP
 * client, headers written by hand), makes its span a child of the caller's, and runs the
 * endpoint in that context; the span arrives at an OTLP receiver.
 */
class ServerTracingTest {
  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String PARENT = "00f067aa0ba902b7";

  @Test
  void theServerSpanIsAChildOfTheCallersAndTheEndpointSeesItsBaggage() throws Exception {
    SoapCodec codec = SoapCodec.create();
    Endpoint seen = request -> {
      String text = Baggage.current().getEntryValue("tenant") + " "
          + Span.current().getSpanContext().getTraceId();
      return codec.payload(request.version(), MtomPolicy.NEVER, List.of(), body -> {
        body.writeStartElement("seen");
        body.writeCharacters(text);
        body.writeEndElement();
      });
    };
    try (OtlpReceiver receiver = OtlpReceiver.start();
        OpenTelemetrySdk sdk = receiver.sdk("server-test");
        SoapServer server = SoapServer.builder()
            .endpoint("/who", Dispatcher.builder().service("Directory")
                .element(new QName("urn:t", "who"), seen).build())
            .options(ServerOptions.builder().openTelemetry(sdk).build()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri("/who"))
          .header("Content-Type", "text/xml")
          .header("traceparent", "00-" + TRACE + "-" + PARENT + "-01")
          .header("tracestate", "vendor=x1")
          .header("baggage", "tenant=acme")
          .POST(HttpRequest.BodyPublishers.ofString("<s:Envelope xmlns:s=\"http://schemas"
              + ".xmlsoap.org/soap/envelope/\"><s:Body><t:who xmlns:t=\"urn:t\"/></s:Body>"
              + "</s:Envelope>")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("<seen>acme " + TRACE + "</seen>");
      sdk.getSdkTracerProvider().forceFlush();
      ReceivedSpan span = receiver.awaitSpans(1, Duration.ofSeconds(10)).get(0);
      assertThat(span.traceId()).isEqualTo(TRACE);
      assertThat(span.parentSpanId()).isEqualTo(PARENT);
      assertThat(span.kind()).isEqualTo("SERVER");
      assertThat(span.name()).isEqualTo("Directory/who");
      assertThat(span.attributes()).containsEntry("rpc.service", "Directory")
          .containsEntry("rpc.method", "who").containsEntry("soap.version", "1.1")
          .containsEntry("soap.attachment.count", 0L);
    }
  }

  @Test
  void aRequestNoEndpointTakesKeepsItsPathAsName() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start();
        OpenTelemetrySdk sdk = receiver.sdk("server-test");
        SoapServer server = SoapServer.builder()
            .endpoint("/who", Dispatcher.builder().build())
            .options(ServerOptions.builder().openTelemetry(sdk).build()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri("/who"))
          .header("Content-Type", "text/xml")
          .POST(HttpRequest.BodyPublishers.ofString("<s:Envelope xmlns:s=\"http://schemas"
              + ".xmlsoap.org/soap/envelope/\"><s:Body><made-up-by-the-caller/></s:Body>"
              + "</s:Envelope>")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(500);
      sdk.getSdkTracerProvider().forceFlush();
      ReceivedSpan span = receiver.awaitSpans(1, Duration.ofSeconds(10)).get(0);
      assertThat(span.name()).isEqualTo("POST /who");
      assertThat(span.parentSpanId()).isEmpty();
      assertThat(span.attributes()).doesNotContainKey("rpc.method")
          .containsEntry("soap.fault.code", "Client");
    }
  }
}
