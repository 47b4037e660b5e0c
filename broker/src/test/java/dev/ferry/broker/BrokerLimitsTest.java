package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.security.Authenticator;
import dev.ferry.security.PasswordFile;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A route's limits hit by real calls on loopback, through Ferry's echo backend: requests in
 * flight for the route and for one caller (by address and by authenticated name), a rate with
 * a burst under a steady load from four callers, held and streamed requests; what is refused
 * never reaches the backend, what passes comes back byte for byte, and a permit comes back on
 * every way an exchange ends.
 */
class BrokerLimitsTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  @AutoClose
  final Closer open = new Closer();
  @AutoClose("shutdownNow")
  final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
  private final SoapClient client = open.keep(SoapClient.builder()
      .timeout(Duration.ofSeconds(20)).build());
  private final AtomicInteger hits = new AtomicInteger();
  private final AtomicInteger waiting = new AtomicInteger();
  private volatile CountDownLatch gate = new CountDownLatch(0);
  @TempDir
  Path dir;

  /** An echo backend that holds each request until {@link #gate} opens. */
  private SoapServer backend() throws IOException {
    return open.keep(SoapServer.builder().endpoint("/echo", Dispatcher.builder()
        .wsdl(EchoService.wsdl()).fallback(r -> {
          hits.incrementAndGet();
          waiting.incrementAndGet();
          try {
            gate.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            waiting.decrementAndGet();
          }
          return EchoService.echo(r);
        }).build()).build().start());
  }

  private Broker broker(String limits, SoapServer backend) throws IOException {
    return broker(limits, backend, null);
  }

  private Broker broker(String limits, SoapServer backend, Authenticator auth)
      throws IOException {
    return open.keep(Broker.builder().authenticator(auth).routes(Routes.parse("routes:\n"
        + "  - path: /echo\n    to: " + backend.uri("/echo") + "\n    limits: " + limits + "\n"))
        .build().start());
  }

  private static Payload echoRequest(int size, long seed) {
    return EchoService.request(CODEC, SoapVersion.SOAP_11, size > 2048 ? MtomPolicy.ALWAYS
        : MtomPolicy.NEVER, "n" + seed, ByteString.of(Blobs.random(size, seed)));
  }

  /** What a call got: its status, Retry-After and fault, or none if it came back whole. */
  private record Outcome(int status, String retryAfter, Fault fault) {
    boolean passed() {
      return fault == null;
    }
  }

  private Outcome call(Broker broker, int size, long seed) throws IOException {
    return call(SoapRequest.builder(broker.uri("/echo"), echoRequest(size, seed)).build(),
        size, seed);
  }

  /** Sends {@code request} (an echo of {@code size} random bytes from {@code seed}), checked. */
  private Outcome call(SoapRequest request, int size, long seed) throws IOException {
    try (SoapResponse r = client.call(request)) {
      if (r.isFault()) {
        return new Outcome(r.status(), r.header("Retry-After"), r.fault());
      }
      EchoService.Echo e = EchoService.readEcho(r.message());
      assertThat(e.name()).isEqualTo("n" + seed);
      assertThat(e.attachinfo()).isEqualTo(ByteString.of(Blobs.random(size, seed)));
      return new Outcome(r.status(), null, null);
    }
  }

  private static void assertRefused(Outcome o, int status, String limit, String why) {
    assertThat(o.passed()).as("refused").isFalse();
    assertThat(o.status()).isEqualTo(status);
    assertThat(o.fault().code().getLocalPart()).isEqualTo(status == 429 ? "Client" : "Server");
    assertThat(o.fault().reason()).contains("(RouteLimits." + limit + ")").contains(why);
    assertThat(o.retryAfter()).isNotNull();
    assertThat(o.fault().reason()).endsWith("try again in " + o.retryAfter() + " s");
  }

  private static void awaitTrue(String what, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " within 20 s");
      }
      Thread.sleep(5);
    }
  }

  private static double limited(Broker broker, String limit) {
    return BrokerGroupsTest.metric(broker, "ferry_broker_limited_total", "limit=\"" + limit
        + "\"");
  }

  @Test
  void requestsInFlightPastTheRoutesLimitGet503AndTheRestGoThrough() throws Exception {
    Broker broker = broker("{inFlight: 2}", backend());
    gate = new CountDownLatch(1);
    List<Future<Outcome>> held = new ArrayList<>();
    held.add(pool.submit(() -> call(broker, 100, 1)));
    held.add(pool.submit(() -> call(broker, 200_000, 2))); // streamed: past holdBytes
    awaitTrue("two requests at the backend", () -> waiting.get() == 2);
    // a held request and a streamed one, both refused before any byte goes on
    assertRefused(call(broker, 100, 3), 503, "maxInFlight", "/echo takes 2 requests at once");
    Outcome big = call(broker, 300_000, 4);
    assertRefused(big, 503, "maxInFlight", "/echo takes 2 requests at once");
    assertThat(big.retryAfter()).isEqualTo("1");
    assertThat(hits.get()).isEqualTo(2);
    gate.countDown();
    for (Future<Outcome> f : held) {
      assertThat(f.get(20, TimeUnit.SECONDS).passed()).isTrue();
    }
    for (int i = 0; i < 10; i++) { // their permits came back
      assertThat(call(broker, 100, 10 + i).passed()).isTrue();
    }
    assertThat(limited(broker, "maxInFlight")).isEqualTo(2);
  }

  @Test
  void aRateLetsItsBurstThroughThenRefusesUntilATokenIsDue() throws Exception {
    Broker broker = broker("{rate: 1/m, burst: 3}", backend());
    for (int i = 0; i < 3; i++) {
      assertThat(call(broker, 100, i).passed()).isTrue();
    }
    Outcome o = call(broker, 100, 3);
    assertRefused(o, 503, "rate", "/echo takes 1 request a minute");
    // the next token is a minute after the first went (less what the calls took)
    assertThat(Long.parseLong(o.retryAfter())).isBetween(55L, 60L);
    assertThat(hits.get()).isEqualTo(3);
    assertThat(limited(broker, "rate")).isEqualTo(1);
  }

  @Test
  void aSteadyLoadFromFourCallersGetsTheRateAndTheBurstNoMore() throws Exception {
    int perSecond = 40;
    int burst = 5;
    Broker broker = broker("{rate: " + perSecond + "/s, burst: " + burst + "}", backend());
    AtomicInteger passed = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    long start = System.nanoTime();
    long end = start + TimeUnit.MILLISECONDS.toNanos(1500);
    List<Future<?>> callers = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      long base = c * 1_000_000L;
      callers.add(pool.submit(() -> {
        for (long i = base; System.nanoTime() < end; i++) {
          Outcome o = call(broker, 1000 + (int) (i % 3000), i);
          if (o.passed()) {
            passed.incrementAndGet();
          } else {
            assertRefused(o, 503, "rate", "/echo takes 40 requests a second");
            assertThat(o.retryAfter()).isEqualTo("1");
            refused.incrementAndGet();
          }
        }
        return null;
      }));
    }
    for (Future<?> f : callers) {
      f.get(30, TimeUnit.SECONDS);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat((double) passed.get()).as("passed in %.2f s", seconds)
        .isLessThanOrEqualTo(burst + perSecond * seconds)
        .isGreaterThan(burst + perSecond / 2.0); // tokens came back as time went on
    assertThat(refused.get()).isPositive();
    assertThat(hits.get()).isEqualTo(passed.get());
    assertThat(limited(broker, "rate")).isEqualTo(refused.get());
  }

  @Test
  void oneCallerPastItsOwnShareGets429AndAnotherCallerGoesOn() throws Exception {
    Path users = Files.writeString(dir.resolve("users.txt"), String.join("\n",
        PasswordFile.line("alice", "wonderland".toCharArray(), PasswordFile.MIN_ITERATIONS),
        PasswordFile.line("bob", "builder".toCharArray(), PasswordFile.MIN_ITERATIONS)));
    Broker broker = broker("{rate: 100/s, perCaller: {rate: 1/m, burst: 2}}", backend(),
        Authenticator.basic(PasswordFile.load(users)));
    String[][] who = {{"alice", "wonderland"}, {"bob", "builder"}};
    for (String[] caller : who) {
      for (int i = 0; i < 2; i++) {
        assertThat(call(as(broker, caller, i), 100, i).passed()).isTrue();
      }
      Outcome o = call(as(broker, caller, 2), 100, 2);
      assertRefused(o, 429, "ratePerCaller", "/echo takes 1 request a minute from one"
          + " caller");
    }
    assertThat(hits.get()).isEqualTo(4);
    assertThat(limited(broker, "ratePerCaller")).isEqualTo(2);
  }

  private static SoapRequest as(Broker broker, String[] caller, long seed) {
    return SoapRequest.builder(broker.uri("/echo"), echoRequest(100, seed))
        .basicAuth(caller[0], caller[1]).build();
  }

  @Test
  void callersAreToldApartByAddressWhenNotAuthenticated() throws Exception {
    Broker broker = broker("{perCaller: {inFlight: 1}}", backend());
    gate = new CountDownLatch(1);
    Future<Outcome> first = pool.submit(() -> call(broker, 100, 1));
    awaitTrue("a request at the backend", () -> waiting.get() == 1);
    assertRefused(call(broker, 100, 2), 429, "maxInFlightPerCaller",
        "/echo takes 1 request at once from one caller");
    // the same route from 127.0.0.2 is another caller
    try (Socket other = new Socket()) {
      other.bind(new InetSocketAddress("127.0.0.2", 0));
      other.connect(new InetSocketAddress("127.0.0.1", broker.port()));
      post(other, echoRequest(100, 3));
      awaitTrue("the other caller's request at the backend", () -> waiting.get() == 2);
      gate.countDown();
      assertThat(statusLine(other.getInputStream())).isEqualTo("HTTP/1.1 200 OK");
    }
    assertThat(first.get(20, TimeUnit.SECONDS).passed()).isTrue();
  }

  @Test
  void aPermitComesBackWhenTheMemberFailsOrTheCallerGoesAway() throws Exception {
    int dead;
    try (ServerSocket s = new ServerSocket(0)) {
      dead = s.getLocalPort();
    }
    Broker refusing = open.keep(Broker.builder().routes(Routes.parse("routes:\n"
        + "  - path: /echo\n    to: http://127.0.0.1:" + dead + "/echo\n"
        + "    limits: {inFlight: 1}\n")).build().start());
    for (int i = 0; i < 5; i++) {
      Outcome o = call(refusing, 100, i);
      assertThat(o.fault().reason()).doesNotContain("RouteLimits");
    }
    Broker broker = broker("{inFlight: 1}", backend());
    gate = new CountDownLatch(1);
    try (Socket gone = new Socket("127.0.0.1", broker.port())) {
      post(gone, echoRequest(100, 1));
      awaitTrue("the request at the backend", () -> waiting.get() == 1);
    } // the caller goes away while its request is at the backend
    gate.countDown();
    awaitTrue("the permit back", () -> {
      try {
        return call(broker, 100, 2).passed();
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    });
  }

  private static void post(Socket s, Payload p) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    p.writeTo(body);
    OutputStream out = s.getOutputStream();
    out.write(("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + p.contentType()
        + "\r\nSOAPAction: \"\"\r\nContent-Length: " + body.size() + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    body.writeTo(out);
    out.flush();
  }

  private static String statusLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c >= 0 && c != '\r'; c = in.read()) {
      line.append((char) c);
    }
    return line.toString();
  }
}
