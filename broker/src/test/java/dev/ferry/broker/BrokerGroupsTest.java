package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapFaultException;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Fault;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Groups of real backends on loopback behind the broker: a member that refuses connections, one
 * killed mid-run, one frozen (SIGSTOP, in its own JVM), one that answers Sender faults only, one
 * that answers Receiver faults or HTML; suspension and return, by itself and by active checks;
 * a streamed request moves only before a byte went. Every echo is checked byte for byte.
 */
class BrokerGroupsTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  @AutoClose
  final Closer open = new Closer();
  private final SoapClient client = open.keep(SoapClient.builder()
      .timeout(Duration.ofSeconds(20)).build());

  /** A free loopback port with nothing listening on it (connections are refused). */
  private static int deadPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private SoapServer echo(AtomicInteger hits) throws IOException {
    return echo(0, hits);
  }

  private SoapServer echo(int port, AtomicInteger hits) throws IOException {
    return open.keep(SoapServer.builder().port(port).endpoint("/echo", Dispatcher.builder()
        .wsdl(EchoService.wsdl()).fallback(r -> {
          hits.incrementAndGet();
          return EchoService.echo(r);
        }).build()).build().start());
  }

  /** A backend whose every answer is a fault: Sender ({@code sender}) or Receiver. */
  private SoapServer faulting(boolean sender, AtomicInteger hits) throws IOException {
    return open.keep(SoapServer.builder().endpoint("/echo", Dispatcher.builder().fallback(r -> {
      hits.incrementAndGet();
      SoapVersion v = r.version();
      throw new SoapFaultException(Fault.of(v, sender ? v.senderFaultCode()
          : v.receiverFaultCode(), sender ? "no such account" : "the database is down"));
    }).build()).build().start());
  }

  private Broker broker(String yaml) throws IOException {
    return open.keep(Broker.builder().routes(Routes.parse(yaml)).build().start());
  }

  private static String group(String balance, String suspend, String extra, URI... members) {
    StringBuilder y = new StringBuilder("groups:\n  g:\n    balance: " + balance + "\n"
        + "    suspend: " + suspend + "\n" + extra + "    members:\n");
    for (URI m : members) {
      y.append("      - ").append(m).append('\n');
    }
    return y.toString();
  }

  private static URI at(int port) {
    return URI.create("http://127.0.0.1:" + port + "/echo");
  }

  /** One echo of {@code size} bytes, checked; returns null if whole, else the fault's reason. */
  private String call(Broker broker, int size, long seed) throws IOException {
    ByteString blob = ByteString.of(Blobs.random(size, seed));
    try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
        SoapVersion.SOAP_11, size > 2048 ? MtomPolicy.ALWAYS : MtomPolicy.NEVER, "n" + seed,
        blob), null)) {
      if (r.isFault()) {
        return r.fault().code().getLocalPart() + ": " + r.fault().reason();
      }
      EchoService.Echo e = EchoService.readEcho(r.message());
      assertThat(e.name()).isEqualTo("n" + seed);
      assertThat(e.attachinfo()).isEqualTo(blob);
      return null;
    }
  }

  private static void awaitTrue(String what, Duration limit, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " within " + limit);
      }
      Thread.sleep(10);
    }
  }

  /** The value of the meter {@code name} whose labels include {@code labels}; it must exist. */
  static double metric(Broker broker, String name, String labels) {
    String all = broker.scrape();
    for (String line : all.split("\n")) {
      if (line.startsWith(name + "{") && line.contains(labels)) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    throw new AssertionError("no " + name + " with " + labels + " in\n" + all);
  }

  @Test
  void aMemberThatRefusesConnectionsIsSkippedSuspendedAndComesBackByItself() throws Exception {
    int port = deadPort();
    AtomicInteger hitsA = new AtomicInteger();
    AtomicInteger hitsB = new AtomicInteger();
    SoapServer b = echo(hitsB);
    Broker broker = broker(group("failover", "{initial: 2s, factor: 2, max: 5s}", "",
        at(port), b.uri("/echo")) + "routes:\n  - {path: /echo, group: g}\n");
    for (int i = 0; i < 4; i++) {
      assertThat(call(broker, i % 2 == 0 ? 1_000 : 300_000, i)).isNull(); // held, streamed
    }
    assertThat(hitsB).hasValue(4);
    String member = "member=\"" + at(port) + "\"";
    assertThat(metric(broker, "ferry_broker_member_suspensions_total", member)).isEqualTo(1);
    assertThat(metric(broker, "ferry_broker_retries_total", "route=\"/echo\"")).isEqualTo(1);
    echo(port, hitsA); // the member starts
    awaitTrue("the member is back", Duration.ofSeconds(10), () -> {
      try {
        return call(broker, 1_000, 9) == null && hitsA.get() > 0;
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    });
    int before = hitsB.get();
    for (int i = 0; i < 5; i++) {
      assertThat(call(broker, 1_000, i)).isNull();
    }
    assertThat(hitsB).as("failover: all to the first member again").hasValue(before);
  }

  @Test
  void activeChecksBringAMemberBackBeforeItsSuspensionEnds() throws Exception {
    int port = deadPort();
    AtomicInteger hitsA = new AtomicInteger();
    SoapServer b = echo(new AtomicInteger());
    Broker broker = broker(group("failover", "{initial: 60s}", "    check: {every: 100ms,"
        + " timeout: 1s}\n", at(port), b.uri("/echo"))
        + "routes:\n  - {path: /echo, group: g}\n");
    assertThat(call(broker, 100, 1)).isNull(); // the first member refused: suspended for 60 s
    assertThat(metric(broker, "ferry_broker_member_available", "member=\"" + at(port)))
        .isZero();
    echo(port, hitsA);
    awaitTrue("the check brings it back", Duration.ofSeconds(10), () -> metric(broker,
        "ferry_broker_member_available", "member=\"" + at(port)) == 1);
    assertThat(call(broker, 100, 2)).isNull();
    assertThat(hitsA).hasValue(1);
  }

  /**
   * A member of a round-robin pair is stopped while 4 callers call on: on an idempotent route
   * every call comes back whole (those it had taken go to the other member), and after the stop
   * no request is sent to it for the rest of the run.
   */
  @Test
  void aMemberKilledMidRunLosesNoCallOnAnIdempotentRoute() throws Exception {
    AtomicInteger hitsA = new AtomicInteger();
    AtomicInteger hitsB = new AtomicInteger();
    SoapServer a = echo(hitsA);
    SoapServer b = echo(hitsB);
    URI killed = a.uri("/echo");
    Broker broker = broker(group("round-robin", "{initial: 30s}", "", killed,
        b.uri("/echo")) + "routes:\n  - {path: /echo, group: g, idempotent: true}\n");
    AtomicInteger next = new AtomicInteger();
    AtomicInteger faults = new AtomicInteger();
    AtomicReference<String> firstFault = new AtomicReference<>();
    int calls = 600;
    AtomicLong killedAt = new AtomicLong();
    try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        running.add(pool.submit(() -> {
          for (int i; (i = next.getAndIncrement()) < calls; ) {
            if (i == calls / 3 && killedAt.get() == 0) {
              a.close();
              killedAt.set(System.nanoTime());
            }
            String fault = call(broker, 500 + i * 37 % 20_000, i);
            if (fault != null) {
              faults.incrementAndGet();
              firstFault.compareAndSet(null, fault);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    }
    assertThat(faults).as("the first: %s", firstFault.get()).hasValue(0);
    assertThat(hitsA.get()).isBetween(calls / 6 - 10, calls / 6 + 10); // half the first third
    assertThat(hitsA.get() + hitsB.get()).isGreaterThanOrEqualTo(calls);
    assertThat(metric(broker, "ferry_broker_member_suspensions_total", "member=\"" + killed))
        .isEqualTo(1);
  }

  /**
   * A member frozen with SIGSTOP (its own JVM) takes connections and never answers: the calls
   * it holds time out after the group's timeout, it is suspended then, and every call after
   * goes to the other member. Calls it held get a Receiver fault, never silence.
   */
  @Test
  void aFrozenMemberIsOffWithinItsTimeout(@TempDir Path dir) throws Exception {
    ForkedNode.Running frozen = open.keep(ForkedNode.server(dir, "frozen"));
    AtomicInteger hitsB = new AtomicInteger();
    SoapServer b = echo(hitsB);
    Broker broker = broker(group("round-robin", "{initial: 60s}", "    timeout: 1s\n",
        at(frozen.port()), b.uri("/echo")) + "routes:\n  - {path: /echo, group: g}\n");
    for (int i = 0; i < 4; i++) {
      assertThat(call(broker, 1_000, i)).isNull();
    }
    signal("STOP", frozen.process());
    try {
      long stopped = System.nanoTime();
      List<String> faults = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        String f = call(broker, 1_000, 10 + i);
        if (f != null) {
          faults.add(f);
        }
      }
      assertThat(faults).containsExactly("Server: the service behind /echo timed out");
      String member = "member=\"" + at(frozen.port());
      assertThat(metric(broker, "ferry_broker_member_available", member)).isZero();
      assertThat(Duration.ofNanos(System.nanoTime() - stopped)).as("one timeout, then B only")
          .isLessThan(Duration.ofSeconds(2));
      assertThat(hitsB).hasValue(2 + 5);
    } finally {
      signal("CONT", frozen.process());
    }
  }

  private static void signal(String name, Process p) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start();
    assertThat(kill.waitFor()).isZero();
  }

  @Test
  void aMemberAnsweringSenderFaultsIsNeverSuspendedOneAnsweringReceiverFaultsIs()
      throws Exception {
    AtomicInteger hitsS = new AtomicInteger();
    AtomicInteger hitsB = new AtomicInteger();
    SoapServer s = faulting(true, hitsS);
    SoapServer b = echo(hitsB);
    Broker senders = broker(group("failover", "{initial: 60s}", "", s.uri("/echo"),
        b.uri("/echo")) + "routes:\n  - {path: /echo, group: g}\n");
    for (int i = 0; i < 10; i++) {
      assertThat(call(senders, 100, i)).isEqualTo("Client: no such account");
    }
    assertThat(hitsS).hasValue(10);
    assertThat(hitsB).hasValue(0);
    String member = "member=\"" + s.uri("/echo");
    assertThat(metric(senders, "ferry_broker_member_failures_total", member)).isZero();
    assertThat(metric(senders, "ferry_broker_member_suspensions_total", member)).isZero();

    AtomicInteger hitsR = new AtomicInteger();
    SoapServer r = faulting(false, hitsR);
    Broker receivers = broker(group("failover", "{initial: 60s}", "", r.uri("/echo"),
        b.uri("/echo")) + "routes:\n  - {path: /echo, group: g}\n");
    assertThat(call(receivers, 100, 1)).isEqualTo("Server: the database is down");
    for (int i = 0; i < 5; i++) {
      assertThat(call(receivers, 100, i)).isNull();
    }
    assertThat(hitsR).hasValue(1);
    assertThat(hitsB).hasValue(5);
  }

  /** On an idempotent route a Receiver fault or a non-SOAP answer sends the call on. */
  @Test
  void anIdempotentRouteMovesOnAfterAReceiverFaultOrAnHtmlAnswer() throws Exception {
    AtomicInteger hitsB = new AtomicInteger();
    SoapServer r = faulting(false, new AtomicInteger());
    SoapServer b = echo(hitsB);
    try (ServerSocket html = new ServerSocket(0)) {
      Thread.ofVirtual().start(() -> answerHtml(html));
      Broker broker = broker(group("failover", "{initial: 60s}", "",
          at(html.getLocalPort()), r.uri("/echo"), b.uri("/echo"))
          + "routes:\n  - {path: /echo, group: g, idempotent: true}\n");
      assertThat(call(broker, 100, 1)).isNull();
      assertThat(hitsB).hasValue(1);
      assertThat(metric(broker, "ferry_broker_retries_total", "route=\"/echo\"")).isEqualTo(2);
      assertThat(metric(broker, "ferry_broker_member_available", "member=\""
          + at(html.getLocalPort()))).isZero();
    }
  }

  /** Answers every connection with a 502 HTML page, as a proxy in front of a dead app does. */
  private static void answerHtml(ServerSocket server) {
    byte[] page = "<html><body>502 Bad Gateway</body></html>".getBytes(StandardCharsets.UTF_8);
    while (!server.isClosed()) {
      try (Socket s = server.accept()) {
        readHead(s.getInputStream());
        OutputStream out = s.getOutputStream();
        out.write(("HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: "
            + page.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        out.write(page);
      } catch (IOException e) {
        // closed
      }
    }
  }

  private static void readHead(InputStream in) throws IOException {
    int matched = 0;
    for (int c; matched < 4 && (c = in.read()) >= 0; ) {
      matched = c == "\r\n\r\n".charAt(matched) ? matched + 1 : c == '\r' ? 1 : 0;
    }
  }

  /**
   * A streamed request goes to the next member if the first refused the connection (no byte
   * went); once bytes went to a member that then breaks, it is never sent again, even on an
   * idempotent route: the caller gets a fault and the other member nothing.
   */
  @Test
  void aStreamedRequestMovesOnlyBeforeAByteWent() throws Exception {
    AtomicInteger hitsB = new AtomicInteger();
    SoapServer b = echo(hitsB);
    Broker refused = broker(group("failover", "{initial: 60s}", "", at(deadPort()),
        b.uri("/echo")) + "routes:\n  - {path: /echo, group: g, idempotent: true}\n");
    assertThat(call(refused, 400_000, 1)).isNull();
    assertThat(hitsB).hasValue(1);
    try (ServerSocket breaking = new ServerSocket(0)) {
      Thread.ofVirtual().start(() -> {
        try (Socket s = breaking.accept()) {
          s.getInputStream().readNBytes(10_000);
          s.setSoLinger(true, 0); // reset mid-upload
        } catch (IOException e) {
          // closed
        }
      });
      Broker broken = broker(group("failover", "{initial: 60s}", "",
          at(breaking.getLocalPort()), b.uri("/echo"))
          + "routes:\n  - {path: /echo, group: g, idempotent: true}\n");
      assertThat(call(broken, 400_000, 2)).startsWith("Server: the service behind /echo");
      assertThat(hitsB).hasValue(1);
    }
  }
}
