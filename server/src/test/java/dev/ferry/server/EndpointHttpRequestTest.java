package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An endpoint that asks for the HTTP request sees the one its message came in. */
class EndpointHttpRequestTest {
  @Test
  void theEndpointSeesHeadersAndTheRemoteAddress() throws Exception {
    SoapCodec codec = SoapCodec.create();
    Endpoint who = new Endpoint() {
      @Override
      public Payload handle(Message request) {
        throw new AssertionError("the HTTP request was not passed");
      }

      @Override
      public Payload handle(Message request, HttpServletRequest http) {
        String seen = http.getHeader("X-Tenant") + "@" + http.getRemoteAddr() + " "
            + http.getMethod();
        return codec.payload(request.version(), MtomPolicy.NEVER, List.of(), body -> {
          body.writeStartElement("seen");
          body.writeCharacters(seen);
          body.writeEndElement();
        });
      }
    };
    try (SoapServer server = SoapServer.builder()
        .endpoint("/who", Dispatcher.builder().fallback(who).build()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri("/who"))
          .header("Content-Type", "text/xml").header("X-Tenant", "acme")
          .POST(HttpRequest.BodyPublishers.ofString("<s:Envelope xmlns:s=\"http://schemas"
              + ".xmlsoap.org/soap/envelope/\"><s:Body><q/></s:Body></s:Envelope>")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("<seen>acme@127.0.0.1 POST</seen>");
    }
  }
}
