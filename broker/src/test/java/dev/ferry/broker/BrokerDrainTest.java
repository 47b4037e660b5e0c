package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The probes and the drain of a closing broker: readiness fails first, new connections are
 * served for the drain delay, then refused; exchanges in flight (a slow backend, an upload
 * streamed through) finish within the drain timeout; one still running at the deadline is
 * reset, never answered with a clean short reply.
 */
class BrokerDrainTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  /** A thread per task: these block, and the common pool is small on two cores. */
  private static final Executor THREADS = r -> Thread.ofVirtual().start(r);
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><t:echo xmlns:t=\"urn:t\">%s</t:echo></s:Body></s:Envelope>";

  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private SoapServer backend;

  @AfterEach
  void stop() throws IOException {
    release.countDown();
    if (backend != null) {
      backend.close();
    }
  }

  @Test
  void readinessFailsAndNewConnectionsAreServedForTheDelayThenRefused() throws Exception {
    Broker broker = broker(false, BrokerOptions.builder().drainDelay(Duration.ofMillis(1500)));
    int port = broker.port();
    assertThat(status(port, "/health/ready")).isEqualTo(200);
    assertThat(status(port, "/health/started")).isEqualTo(200);
    CompletableFuture<Void> closing = CompletableFuture.runAsync(broker::close, THREADS);
    await(() -> status(port, "/health/ready") == 503);
    assertThat(broker.draining()).isTrue();
    assertThat(status(port, "/health/live")).isEqualTo(200);
    // a load balancer that has not noticed yet still gets its calls served
    assertThat(call(port, "late")).startsWith("HTTP/1.1 200").contains("late")
        .containsIgnoringCase("connection: close");
    closing.get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
        .isInstanceOf(ConnectException.class);
  }

  @Test
  void anIdleConnectionStaysOpenForTheDelayAndItsNextAnswerRetiresIt() throws Exception {
    Broker broker = broker(false, BrokerOptions.builder().drainDelay(Duration.ofMillis(1500)));
    int port = broker.port();
    try (Socket pooled = new Socket("127.0.0.1", port)) {
      pooled.setSoTimeout(10_000);
      keptAliveLive(pooled);
      CompletableFuture<Void> closing = CompletableFuture.runAsync(broker::close, THREADS);
      await(broker::draining);
      // a balancer that does not follow readiness (nginx) still sends on its pooled
      // connections: closing one under a POST would lose the call
      byte[] body = ENVELOPE.formatted("pooled").getBytes(StandardCharsets.UTF_8);
      pooled.getOutputStream().write(head(body.length));
      pooled.getOutputStream().write(body);
      assertThat(new String(readAll(pooled.getInputStream()), StandardCharsets.UTF_8))
          .startsWith("HTTP/1.1 200").contains("pooled")
          .containsIgnoringCase("connection: close");
      closing.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aConnectionOpenedJustBeforeTheListenerClosesIsServed() throws Exception {
    Broker broker = broker(false, BrokerOptions.builder().drainDelay(Duration.ofMillis(300)));
    int port = broker.port();
    CompletableFuture<Void> closing = CompletableFuture.runAsync(broker::close, THREADS);
    await(broker::draining);
    try (Socket late = new Socket("127.0.0.1", port)) { // a balancer's, about to send a call
      long accepted = System.nanoTime();
      await(() -> status(port, "/health/live") == 0); // the listener is closed
      long quiet = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - accepted);
      Assumptions.assumeTrue(quiet < 400, "the machine took " + quiet + " ms to get here: the "
          + "connection counts as idle after 500 ms, which this test does not check");
      byte[] body = ENVELOPE.formatted("late").getBytes(StandardCharsets.UTF_8);
      late.getOutputStream().write(head(body.length));
      late.getOutputStream().write(body);
      assertThat(new String(readAll(late.getInputStream()), StandardCharsets.UTF_8))
          .startsWith("HTTP/1.1 200").contains("late");
      closing.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anExchangeInFlightFinishesWhileIdleConnectionsClose() throws Exception {
    Broker broker = broker(true, BrokerOptions.builder());
    int port = broker.port();
    try (Socket idle = new Socket("127.0.0.1", port)) {
      idle.setSoTimeout(10_000);
      keptAliveLive(idle);
      CompletableFuture<String> call = CompletableFuture.supplyAsync(
          () -> call(port, "in flight"), THREADS);
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      CompletableFuture<Void> closing = CompletableFuture.runAsync(broker::close, THREADS);
      assertThat(idle.getInputStream().read()).isEqualTo(-1); // closed by the drain
      assertThat(closing).isNotDone(); // it waits for the call, and does not end it
      release.countDown();
      assertThat(call.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 200")
          .contains("in flight");
      closing.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anUploadStreamedThroughFinishes() throws Exception {
    backend = SoapServer.builder().endpoint("/echo", EchoService.dispatcher()).build().start();
    Broker broker = broker(BrokerOptions.builder());
    byte[] blob = Blobs.random(600_000, 32);
    InputStream slow = new FilterInputStream(new ByteArrayInputStream(blob)) {
      private int sent;

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (sent >= 100_000) { // the rest over about a second, the drain under way
          sleep(50);
        }
        int n = super.read(b, off, Math.min(len, 25_000));
        sent += Math.max(n, 0);
        return n;
      }
    };
    try (SoapClient client = SoapClient.builder().timeout(Duration.ofSeconds(20)).build()) {
      CompletableFuture<EchoService.Echo> call = CompletableFuture.supplyAsync(() -> {
        try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
            SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "upload", slow, blob.length),
            EchoService.SOAP_ACTION)) {
          return EchoService.readEcho(r.message());
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }, THREADS);
      await(() -> broker.inFlight() == 1); // its envelope came: the attachment streams on
      CompletableFuture<Void> closing = CompletableFuture.runAsync(broker::close, THREADS);
      await(broker::draining);
      EchoService.Echo echo = call.get(20, TimeUnit.SECONDS);
      assertThat(echo.name()).isEqualTo("upload");
      assertThat(echo.attachinfo()).isEqualTo(ByteString.of(blob));
      closing.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void anExchangeStillRunningAtTheDeadlineIsResetNotAnsweredShort() throws Exception {
    Broker broker = broker(true, BrokerOptions.builder().drainTimeout(Duration.ofMillis(300)));
    try (Socket s = new Socket("127.0.0.1", broker.port())) {
      byte[] body = ENVELOPE.formatted("stuck").getBytes(StandardCharsets.UTF_8);
      s.getOutputStream().write(head(body.length));
      s.getOutputStream().write(body);
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      long start = System.nanoTime();
      broker.close();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      assertThat(new String(readAll(s.getInputStream()), StandardCharsets.UTF_8))
          .doesNotContain("200");
    }
  }

  /** A broker before a backend that echoes the Body's text, after {@link #release} if gated. */
  private Broker broker(boolean gated, BrokerOptions.Builder options) throws IOException {
    Endpoint echo = request -> {
      entered.countDown();
      if (gated && !release.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("not released");
      }
      String text = text(request.bodyReader());
      return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), w -> {
        w.writeStartElement("echoed");
        w.writeCharacters(text);
        w.writeEndElement();
      });
    };
    backend = SoapServer.builder().endpoint("/echo", Dispatcher.builder().fallback(echo).build())
        .build().start();
    return broker(options);
  }

  /** A broker before {@link #backend}. */
  private Broker broker(BrokerOptions.Builder options) throws IOException {
    return Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n    to: "
        + backend.uri("/echo") + "\n")).options(options.build()).build().start();
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException();
    }
  }

  private static String text(XMLStreamReader r) throws Exception {
    StringBuilder b = new StringBuilder();
    while (r.hasNext()) {
      if (r.next() == XMLStreamConstants.CHARACTERS) {
        b.append(r.getText());
      }
    }
    return b.toString();
  }

  private static byte[] head(int length) {
    return ("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nSOAPAction: \"\"\r\n"
        + "Content-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** A GET of the liveness probe on {@code s}, its reply read: the connection is now idle. */
  private static void keptAliveLive(Socket s) throws IOException {
    s.getOutputStream().write("GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(
        StandardCharsets.US_ASCII));
    StringBuilder reply = new StringBuilder();
    while (!reply.toString().endsWith("}\n")) {
      reply.append((char) s.getInputStream().read());
    }
  }

  /** A SOAP call on a connection of its own, kept alive; the reply, read to the close. */
  private static String call(int port, String text) {
    byte[] body = ENVELOPE.formatted(text).getBytes(StandardCharsets.UTF_8);
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream().write(head(body.length));
      s.getOutputStream().write(body);
      return new String(readAll(s.getInputStream()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A GET on a connection of its own (what a kubelet's probe is); 0 if refused. */
  private static int status(int port, String path) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close"
          + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String head = new String(readAll(s.getInputStream()), StandardCharsets.US_ASCII);
      return Integer.parseInt(head.substring(9, 12));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** Reads to the end; a reset ends it as well (what was read before it is returned). */
  private static byte[] readAll(InputStream in) {
    ByteArrayOutputStream got = new ByteArrayOutputStream();
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

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s");
      }
      Thread.sleep(10);
    }
  }
}
