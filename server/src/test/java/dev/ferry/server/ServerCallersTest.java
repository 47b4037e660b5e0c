package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Callers that do not play fair, on loopback: uploads that stall, more requests than the server
 * serves at once, methods and headers a SOAP service has no use for.
 */
class ServerCallersTest {
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap"
      + "/envelope/\"><s:Body><t:ping xmlns:t=\"urn:t\"/></s:Body></s:Envelope>";
  private static final int STALLED = 1000;

  private static Dispatcher echo() {
    return Dispatcher.builder().fallback(request -> request.copy().toPayload())
        .wsdl("<definitions><service><port><soap:address xmlns:soap=\"http://schemas.xmlsoap"
            + ".org/wsdl/soap/\" location=\"http://placeholder/\"/></port></service>"
            + "</definitions>").build();
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void stalledUploadsNeitherSlowNormalCallersNorStayPastTheRequestTimeout() throws Exception {
    Duration timeout = Duration.ofSeconds(3);
    try (SoapServer server = SoapServer.builder().endpoint("/echo", echo())
            .options(ServerOptions.builder().requestTimeout(timeout).build()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      for (int i = 0; i < 200; i++) {
        assertThat(post(http, server.uri("/echo")).statusCode()).isEqualTo(200);
      }
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < STALLED; i++) {
          stalled.add(stallUpload(server));
        }
        long opened = System.nanoTime();
        long[] nanos = new long[300];
        for (int i = 0; i < nanos.length; i++) {
          long start = System.nanoTime();
          assertThat(post(http, server.uri("/echo")).statusCode()).isEqualTo(200);
          nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        assertThat(Duration.ofNanos(nanos[(int) (nanos.length * 0.99)]))
            .as("p99 of normal calls beside %d stalled uploads", STALLED)
            .isLessThan(Duration.ofMillis(50));
        assertThat(http.send(HttpRequest.newBuilder(server.uri("/health")).build(),
            HttpResponse.BodyHandlers.ofString()).body()).contains("UP");
        for (Socket s : stalled) {
          s.setSoTimeout((int) timeout.multipliedBy(3).toMillis());
          InputStream in = s.getInputStream();
          in.transferTo(java.io.OutputStream.nullOutputStream()); // its answer, then the end
        }
        assertThat(Duration.ofNanos(System.nanoTime() - opened))
            .isLessThan(timeout.multipliedBy(3));
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
      }
    }
  }

  private static Socket stallUpload(SoapServer server) throws Exception {
    Socket s = new Socket("127.0.0.1", server.port());
    s.getOutputStream().write(("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
        + "Content-Length: 100000\r\n\r\n<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/"
        + "soap/envelope/\"><s:Body>").getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return s;
  }

  @Test
  void aReplyThatFitsTheBufferGoesWithItsLengthALongerOneChunkedAndWhole() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", echo()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> small = post(http, server.uri("/echo"));
      assertThat(small.headers().firstValue("Content-Length"))
          .hasValue(Integer.toString(small.body().getBytes(StandardCharsets.UTF_8).length));
      assertThat(small.headers().firstValue("Transfer-Encoding")).isEmpty();

      String text = "x".repeat(200_000);
      HttpResponse<String> large = http.send(HttpRequest.newBuilder(server.uri("/echo"))
          .header("Content-Type", "text/xml").POST(HttpRequest.BodyPublishers.ofString(
              ENVELOPE.replace("</s:Body>", "<t>" + text + "</t></s:Body>"))).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(large.statusCode()).isEqualTo(200);
      assertThat(large.headers().firstValue("Transfer-Encoding")).hasValue("chunked");
      assertThat(large.body()).contains(text).endsWith("Envelope>");
    }
  }

  @Test
  void pastMaxRequestsACallerIsRefusedAtOnceWith503() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(2);
    try (SoapServer server = SoapServer.builder().endpoint("/slow", Dispatcher.builder()
            .fallback(request -> {
              entered.countDown();
              release.await(20, TimeUnit.SECONDS);
              return request.copy().toPayload();
            }).build())
            .options(ServerOptions.builder().maxRequests(2).build()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      List<Thread> waiting = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        waiting.add(Thread.ofVirtual().start(() -> {
          try {
            post(http, server.uri("/slow"));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      HttpResponse<String> r = post(http, server.uri("/slow"));
      assertThat(r.statusCode()).isEqualTo(503);
      assertThat(r.body()).contains("busy").contains("ServerOptions.maxRequests");
      assertThat(http.send(HttpRequest.newBuilder(server.uri("/health")).build(),
          HttpResponse.BodyHandlers.ofString()).body()).contains("UP");
      release.countDown();
      for (Thread t : waiting) {
        t.join();
      }
      assertThat(post(http, server.uri("/slow")).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void traceAndOtherMethodsAreRefusedEverywhere() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", echo()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      for (String path : new String[] {"/echo", "/health", "/metrics", "/elsewhere"}) {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri(path))
            .method("TRACE", HttpRequest.BodyPublishers.noBody())
            .header("Cookie", "secret=1").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isIn(404, 405);
        assertThat(r.body()).as(path).doesNotContain("secret");
      }
    }
  }

  @Test
  void aCompressedRequestIsRefusedNotReadAsPlain() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", echo()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri("/echo"))
          .header("Content-Type", "text/xml").header("Content-Encoding", "gzip")
          .POST(HttpRequest.BodyPublishers.ofString(ENVELOPE)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(415);
      assertThat(r.body()).contains("Content-Encoding gzip");
    }
  }

  @Test
  void theWsdlNamesTheConfiguredAddressOrTheLocalOneNeverTheCallersHost() throws Exception {
    try (SoapServer local = SoapServer.builder().endpoint("/echo", echo()).build().start();
        SoapServer pub = SoapServer.builder().endpoint("/echo", echo())
            .options(ServerOptions.builder()
                .publicAddress(URI.create("https://soap.example/")).build()).build().start()) {
      assertThat(wsdlWithHost(local)).contains("location=\"" + local.uri("/echo") + "\"")
          .doesNotContain("evil.example");
      assertThat(wsdlWithHost(pub)).contains("location=\"https://soap.example/echo\"")
          .doesNotContain("evil.example");
    }
  }

  /** The WSDL as a caller that sends {@code Host: evil.example} gets it. */
  private static String wsdlWithHost(SoapServer server) throws Exception {
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      s.getOutputStream().write(("GET /echo?wsdl HTTP/1.1\r\nHost: evil.example\r\n"
          + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static HttpResponse<String> post(HttpClient http, URI uri) throws Exception {
    return http.send(HttpRequest.newBuilder(uri).header("Content-Type", "text/xml")
        .POST(HttpRequest.BodyPublishers.ofString(ENVELOPE)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
