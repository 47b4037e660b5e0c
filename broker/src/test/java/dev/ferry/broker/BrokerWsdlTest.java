package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What clients that load their WSDL from the address they call (Python's zeep does) get from the
 * broker, and wsa:To set for a backend that wants it even from callers who send none.
 */
class BrokerWsdlTest {
  @Test
  void theWsdlComesFromTheBackendWithTheBrokersAddress() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/svc", EchoService.dispatcher())
            .build().start();
        Broker broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n"
            + "    to: " + server.uri("/svc") + "\n")).build().start();
        Broker published = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n"
            + "    to: " + server.uri("/svc") + "\n")).options(BrokerOptions.builder()
            .publicAddress(URI.create("https://gateway.example")).build()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      String r = wsdlWithHost(broker, "evil.example");
      assertThat(r).startsWith("HTTP/1.1 200").contains("name=\"testMtom\"")
          .contains("location=\"" + broker.uri("/echo") + "\"")
          .doesNotContain(Integer.toString(server.port())).doesNotContain("evil.example");
      assertThat(http.send(HttpRequest.newBuilder(URI.create(published.uri("/echo") + "?wsdl"))
          .build(), HttpResponse.BodyHandlers.ofString()).body())
          .contains("location=\"https://gateway.example/echo\"");
      assertThat(http.send(HttpRequest.newBuilder(URI.create(broker.uri("/nothing") + "?wsdl"))
          .build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }
  }

  /** The WSDL as a caller that sends {@code Host: host} gets it, status line and all. */
  private static String wsdlWithHost(Broker broker, String host) throws Exception {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", broker.port())) {
      s.getOutputStream().write(("GET /echo?wsdl HTTP/1.1\r\nHost: " + host
          + "\r\nConnection: close\r\n\r\n").getBytes(
          java.nio.charset.StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  @Test
  void aRouteCanSetWsaToWhereTheCallerSentNone() throws Exception {
    AtomicReference<String> to = new AtomicReference<>();
    try (SoapServer server = SoapServer.builder().endpoint("/svc", Dispatcher.builder()
            .fallback(req -> {
              to.set(req.addressing().to());
              return EchoService.echo(req);
            }).build()).build().start();
        Broker broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n"
            + "    to: " + server.uri("/svc") + "\n    wsaTo: always\n")).build().start();
        SoapClient client = SoapClient.create()) {
      try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(
          SoapCodec.create(), SoapVersion.SOAP_11, MtomPolicy.NEVER, "n",
          ByteString.encodeUtf8("x")), null)) {
        assertThat(r.status()).isEqualTo(200);
      }
      assertThat(to.get()).isEqualTo(server.uri("/svc").toString());
    }
  }
}
