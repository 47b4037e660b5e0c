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
import java.io.IOException;
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
 * Callers that do not play fair, on loopback: uploads that stall, paths invented to grow the
 * metrics, more exchanges than the broker forwards at once. None takes from a normal caller
 * what it needs.
 */
class BrokerCallersTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final int STALLED = 1000;

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void stalledUploadsNeitherSlowNormalCallersNorStayPastTheRequestTimeout() throws Exception {
    Duration timeout = Duration.ofSeconds(3);
    try (SoapServer server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
            .build().start();
        Broker broker = Broker.builder().routes(route("/echo", server.uri("/echo")))
            .options(BrokerOptions.builder().requestTimeout(timeout).build()).build().start();
        SoapClient client = SoapClient.create()) {
      for (int i = 0; i < 200; i++) {
        echo(client, broker); // warm
      }
      List<Socket> stalled = new ArrayList<>();
      try {
        for (int i = 0; i < STALLED; i++) {
          stalled.add(stallUpload(broker, i % 2 == 0));
        }
        long opened = System.nanoTime();
        long[] nanos = new long[300];
        for (int i = 0; i < nanos.length; i++) {
          long start = System.nanoTime();
          echo(client, broker);
          nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        long p99 = nanos[(int) (nanos.length * 0.99)];
        assertThat(Duration.ofNanos(p99)).as("p99 of normal calls beside %d stalled uploads",
            STALLED).isLessThan(Duration.ofMillis(50));
        assertThat(get(broker, "/health")).contains("UP");
        // each stalled upload is dropped once it sent nothing for the request timeout
        for (Socket s : stalled) {
          s.setSoTimeout((int) timeout.multipliedBy(3).toMillis());
          InputStream in = s.getInputStream();
          assertThat(in.read()).as("a stalled upload's connection ends").isEqualTo(-1);
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

  /** Sends a request's head and part of its body (held or streamed size), then nothing more. */
  private static Socket stallUpload(Broker broker, boolean held) throws IOException {
    Socket s = new Socket("127.0.0.1", broker.port());
    String head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
        + "Content-Length: " + (held ? 30_000 : 3_000_000) + "\r\n\r\n"
        + "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>";
    s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return s;
  }

  private static void echo(SoapClient client, Broker broker) throws IOException {
    try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
        SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "n", ByteString.encodeUtf8("blob")),
        EchoService.SOAP_ACTION)) {
      assertThat(r.status()).isEqualTo(200);
    }
  }

  @Test
  void inventedPathsDoNotGrowTheMetrics() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
            .build().start();
        Broker broker = Broker.builder().routes(route("/echo", server.uri("/echo"))).build()
            .start();
        SoapClient client = SoapClient.create();
        HttpClient http = HttpClient.newHttpClient()) {
      echo(client, broker);
      for (int i = 0; i < 50; i++) {
        post(http, broker, "/invented-" + i);
      }
      int size = get(broker, "/metrics").length();
      for (int i = 50; i < 3000; i++) {
        post(http, broker, "/invented-" + i);
      }
      String metrics = get(broker, "/metrics");
      assertThat(metrics).doesNotContain("invented")
          .contains("route=\"/echo\"").contains("route=\"none\"");
      assertThat(metrics.length()).as("metrics after 3,000 invented paths")
          .isLessThan(size + 200);
    }
  }

  @Test
  void pastMaxExchangesACallerIsRefusedAtOnceWith503() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (SoapServer server = SoapServer.builder().endpoint("/slow", Dispatcher.builder()
            .fallback(req -> {
              release.await(20, TimeUnit.SECONDS);
              return EchoService.echo(req);
            }).build()).build().start();
        Broker broker = Broker.builder().routes(route("/echo", server.uri("/slow")))
            .options(BrokerOptions.builder().maxExchanges(2).build()).build().start();
        SoapClient client = SoapClient.create()) {
      List<Thread> waiting = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        waiting.add(Thread.ofVirtual().start(() -> {
          try {
            echo(client, broker);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }));
      }
      while (broker.inFlight() < 2) {
        Thread.sleep(10);
      }
      long start = System.nanoTime();
      try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
          SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "n", ByteString.encodeUtf8("b")), null)) {
        assertThat(r.status()).isEqualTo(503);
        assertThat(r.fault().reason()).contains("busy").contains("maxExchanges");
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
      assertThat(get(broker, "/health")).contains("UP");
      release.countDown();
      for (Thread t : waiting) {
        t.join();
      }
      echo(client, broker);
    }
  }

  private static Routes route(String path, URI to) {
    return Routes.parse("routes:\n  - path: " + path + "\n    to: " + to + "\n");
  }

  private static String get(Broker broker, String path) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(HttpRequest.newBuilder(broker.uri(path)).build(),
          HttpResponse.BodyHandlers.ofString()).body();
    }
  }

  private static void post(HttpClient http, Broker broker, String path) throws Exception {
    http.send(HttpRequest.newBuilder(broker.uri(path)).header("Content-Type", "text/xml")
        .POST(HttpRequest.BodyPublishers.ofString("<s:Envelope xmlns:s=\"http://schemas."
            + "xmlsoap.org/soap/envelope/\"><s:Body><x/></s:Body></s:Envelope>")).build(),
        HttpResponse.BodyHandlers.discarding());
  }
}
