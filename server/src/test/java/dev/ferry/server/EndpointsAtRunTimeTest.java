package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** Endpoints added to and removed from a running server, beside the ones it started with. */
class EndpointsAtRunTimeTest {
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><ping/></s:Body></s:Envelope>";

  @Test
  void addedPathsAnswerAndRemovedOnesAre404() throws Exception {
    try (SoapServer server = SoapServer.builder()
        .endpoint("/fixed", echo()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      assertThat(post(http, server, "/late")).isEqualTo(404);

      server.addEndpoint("/late", echo());
      server.addEndpoint("/later", dev.ferry.soap.SoapCodec.create(), echo());
      assertThat(post(http, server, "/late")).isEqualTo(200);
      assertThat(post(http, server, "/later")).isEqualTo(200);

      assertThat(server.removeEndpoint("/late")).isTrue();
      assertThat(server.removeEndpoint("/late")).isFalse();
      assertThat(post(http, server, "/late")).isEqualTo(404);
      assertThat(post(http, server, "/later")).isEqualTo(200);
      assertThat(post(http, server, "/fixed")).isEqualTo(200);
      assertThatThrownBy(() -> server.addEndpoint("/metrics", echo()))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  private static Dispatcher echo() {
    return Dispatcher.builder().fallback(request -> request.copy().toPayload()).build();
  }

  private static int post(HttpClient http, SoapServer server, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(server.uri(path)).header("Content-Type", "text/xml")
        .POST(HttpRequest.BodyPublishers.ofString(ENVELOPE)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
