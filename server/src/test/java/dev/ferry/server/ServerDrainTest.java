package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/**
 * The probes and the drain of a closing server: readiness fails first, new connections are
 * served for the drain delay, then refused; calls in flight (a slow endpoint, a streamed
 * upload) finish within the drain timeout; one still running at the deadline is cut, never
 * answered with a clean short reply.
 */
class ServerDrainTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  /** A thread per task: the common pool has one worker on two cores, and these block. */
  private static final java.util.concurrent.Executor THREADS =
      r -> Thread.ofVirtual().start(r);
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><t:%s xmlns:t=\"urn:t\">%s</t:%s></s:Body></s:Envelope>";

  @Test
  void probesAnswerAsKubernetesReadsThem() throws Exception {
    try (SoapServer server = SoapServer.builder().build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      assertThat(get(http, server.uri("/health/live")).statusCode()).isEqualTo(200);
      assertThat(get(http, server.uri("/health/started")).statusCode()).isEqualTo(200);
      HttpResponse<String> ready = get(http, server.uri("/health/ready"));
      assertThat(ready.statusCode()).isEqualTo(503); // nothing to serve yet
      assertThat(ready.body()).contains("\"DOWN\"").contains("not ready");
      server.addEndpoint("/echo", echo(null));
      assertThat(get(http, server.uri("/health/ready")).statusCode()).isEqualTo(200);
      assertThat(get(http, server.uri("/health")).body()).contains("UP");
    }
  }

  @Test
  void newConnectionsAreServedForTheDelayThenRefused() throws Exception {
    SoapServer server = SoapServer.builder().endpoint("/echo", echo(null))
        .options(ServerOptions.builder().drainDelay(Duration.ofMillis(1500)).build())
        .build().start();
    URI ready = server.uri("/health/ready");
    int port = server.port();
    CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> close(server), THREADS);
    try (HttpClient http = HttpClient.newHttpClient()) {
      await(() -> statusOnNewConnection(ready) == 503);
      assertThat(server.draining()).isTrue();
      // a load balancer that has not noticed yet still gets its calls served
      assertThat(callOnNewConnection(server.uri("/echo"), "x")).contains("200 OK");
      closing.get(10, TimeUnit.SECONDS);
      assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
          .isInstanceOf(ConnectException.class);
    }
  }

  @Test
  void keptAliveConnectionsAreClosedByTheirNextAnswerOnceADrainBegan() throws Exception {
    SoapServer server = SoapServer.builder().endpoint("/echo", echo(null))
        .options(ServerOptions.builder().drainDelay(Duration.ofMillis(1500)).build())
        .build().start();
    try (Socket pooled = new Socket("127.0.0.1", server.port())) {
      assertThat(getKeptAlive(pooled, "/health")).startsWith("HTTP/1.1 200")
          .doesNotContainIgnoringCase("connection: close");
      CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> close(server), THREADS);
      await(server::draining);
      // a broker's pool retires the connection now, while the server still takes new ones,
      // rather than sending on it after the listener closed (503, not served)
      assertThat(getKeptAlive(pooled, "/health")).startsWith("HTTP/1.1 200")
          .containsIgnoringCase("connection: close");
      assertThat(pooled.getInputStream().read()).isEqualTo(-1);
      closing.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCallInFlightFinishes() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    SoapServer server = SoapServer.builder().endpoint("/slow", echo(() -> {
      entered.countDown();
      return await(release);
    })).options(ServerOptions.builder().drainTimeout(Duration.ofSeconds(20)).build())
        .build().start();
    CompletableFuture<String> call = CompletableFuture.supplyAsync(
        () -> callOnNewConnection(server.uri("/slow"), "in flight"), THREADS);
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> close(server), THREADS);
    await(server::draining);
    Thread.sleep(300); // closing waits for the call, and does not end it
    assertThat(closing).isNotDone();
    release.countDown();
    assertThat(call.get(10, TimeUnit.SECONDS)).contains("200 OK").contains("in flight");
    closing.get(10, TimeUnit.SECONDS);
  }

  @Test
  void aStreamedUploadInFlightFinishes() throws Exception {
    SoapServer server = SoapServer.builder().endpoint("/echo", echo(null))
        .options(ServerOptions.builder().drainTimeout(Duration.ofSeconds(20)).build())
        .build().start();
    String padding = "p".repeat(200_000);
    byte[] body = ENVELOPE.formatted("echo", padding, "echo").getBytes(StandardCharsets.UTF_8);
    CompletableFuture<Void> closing;
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      OutputStream out = s.getOutputStream();
      out.write(("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: "
          + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body, 0, 1000);
      out.flush();
      // the body is being gathered before the endpoint runs
      await(() -> server.gatheredBodyBytes() > 0);
      closing = CompletableFuture.runAsync(() -> close(server), THREADS);
      await(server::draining);
      for (int at = 1000; at < body.length; at += 20_000) { // the rest, over about a second
        out.write(body, at, Math.min(20_000, body.length - at));
        out.flush();
        Thread.sleep(100);
      }
      String reply = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(reply).startsWith("HTTP/1.1 200").contains(padding);
    }
    closing.get(10, TimeUnit.SECONDS);
  }

  @Test
  void whatStillRunsAtTheDeadlineIsCutNotAnsweredShort() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    SoapServer server = SoapServer.builder().endpoint("/stuck", echo(() -> {
      entered.countDown();
      return await(never);
    })).options(ServerOptions.builder().drainTimeout(Duration.ofMillis(300)).build())
        .build().start();
    try (Socket s = new Socket("127.0.0.1", server.port())) {
      byte[] body = ENVELOPE.formatted("stuck", "x", "stuck").getBytes(StandardCharsets.UTF_8);
      s.getOutputStream().write(("POST /stuck HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\n"
          + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().write(body);
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      long start = System.nanoTime();
      server.close();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      byte[] got = readAll(s.getInputStream());
      assertThat(new String(got, StandardCharsets.UTF_8)).doesNotContain("200 OK");
    } finally {
      never.countDown();
    }
  }

  /** The endpoint: waits for {@code gate} if given, then answers with the request's text. */
  private static Dispatcher echo(BooleanSupplier gate) {
    Endpoint e = request -> {
      if (gate != null && !gate.getAsBoolean()) {
        throw new IllegalStateException("not released");
      }
      XmlText text = new XmlText(request);
      return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), body -> {
        body.writeStartElement("echoed");
        body.writeCharacters(text.value);
        body.writeEndElement();
      });
    };
    return Dispatcher.builder().element(new QName("urn:t", "echo"), e)
        .element(new QName("urn:t", "slow"), e).element(new QName("urn:t", "stuck"), e)
        .fallback(e).build();
  }

  /** The text of the request's Body element. */
  private static final class XmlText {
    final String value;

    XmlText(dev.ferry.soap.Message request) throws Exception {
      var r = request.bodyReader();
      StringBuilder b = new StringBuilder();
      while (r.hasNext()) {
        if (r.next() == javax.xml.stream.XMLStreamConstants.CHARACTERS) {
          b.append(r.getText());
        }
      }
      value = b.toString();
    }
  }

  private static boolean await(CountDownLatch latch) {
    try {
      return latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void close(SoapServer server) {
    try {
      server.close();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s");
      }
      Thread.sleep(10);
    }
  }

  private static HttpResponse<String> get(HttpClient http, URI uri) throws Exception {
    return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A GET on a connection of its own (what a kubelet's probe is); 0 if refused. */
  private static int statusOnNewConnection(URI uri) {
    try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
      s.getOutputStream().write(("GET " + uri.getPath() + " HTTP/1.1\r\nHost: x\r\n"
          + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String head = new String(readAll(s.getInputStream()), StandardCharsets.US_ASCII);
      return Integer.parseInt(head.substring(9, 12));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** A GET on a connection kept alive; returns the reply's head, its body read and dropped. */
  private static String getKeptAlive(Socket s, String path) throws IOException {
    s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    InputStream in = s.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed after " + head);
      }
      head.append((char) b);
    }
    java.util.regex.Matcher length = java.util.regex.Pattern.compile(
        "(?i)content-length: *(\\d+)").matcher(head);
    if (!length.find()) {
      throw new IOException("no Content-Length: " + head);
    }
    in.readNBytes(Integer.parseInt(length.group(1)));
    return head.toString();
  }

  /** A SOAP call on a connection of its own; returns the whole raw reply. */
  private static String callOnNewConnection(URI uri, String text) {
    String op = uri.getPath().substring(1);
    byte[] body = ENVELOPE.formatted(op, text, op).getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
      s.getOutputStream().write(("POST " + uri.getPath() + " HTTP/1.1\r\nHost: x\r\n"
          + "Content-Type: text/xml\r\nConnection: close\r\nContent-Length: " + body.length
          + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().write(body);
      return new String(readAll(s.getInputStream()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Reads to the end; a reset ends it as well (what was read before it is returned). */
  private static byte[] readAll(InputStream in) {
    java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    try {
      for (int n; (n = in.read(buf)) > 0; ) {
        got.write(buf, 0, n);
      }
    } catch (IOException reset) {
      // the connection was cut
    }
    return got.toByteArray();
  }
}
