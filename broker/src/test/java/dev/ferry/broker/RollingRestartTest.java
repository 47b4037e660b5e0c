package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A rolling restart under load loses nothing. A load balancer as Kubernetes runs one (it sends
 * calls only to replicas whose {@code /health/ready} answers 200, read every 20 ms) spreads 4
 * callers' calls (32 KiB inline, and 1 MiB MTOM uploads) over two replicas; each replica in
 * turn is closed (drained, with a drain delay longer than the balancer's period) and replaced
 * by a new one. Done for two servers, then for two brokers in front of a server: every call is
 * answered, every reply byte-checked.
 */
class RollingRestartTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  /** Well above the balancer's reaction time, even on two busy cores. */
  private static final Duration DELAY = Duration.ofSeconds(1);
  private static final int CALLERS = 4;

  @Test
  void serversRestartedOneAfterAnotherLoseNoCall() throws Exception {
    roll(() -> {
      SoapServer s = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
          .options(ServerOptions.builder().drainDelay(DELAY).build()).build().start();
      return new Replica(s.uri("/"), s);
    });
  }

  @Test
  void brokersRestartedOneAfterAnotherLoseNoCall() throws Exception {
    try (SoapServer backend = SoapServer.builder().endpoint("/echo", EchoService.dispatcher())
        .build().start()) {
      Routes routes = Routes.parse("routes:\n  - path: /echo\n    to: " + backend.uri("/echo")
          + "\n");
      roll(() -> {
        Broker b = Broker.builder().routes(routes)
            .options(BrokerOptions.builder().drainDelay(DELAY).build()).build().start();
        return new Replica(b.uri("/"), b);
      });
    }
  }

  /** A replica: where it answers, and how it stops (a drain). */
  private record Replica(URI base, AutoCloseable process) {}

  private interface Start {
    Replica start() throws IOException;
  }

  private static void roll(Start start) throws Exception {
    List<Replica> running = new CopyOnWriteArrayList<>(List.of(start.start(), start.start()));
    List<Replica> ready = new CopyOnWriteArrayList<>(running);
    AtomicBoolean stop = new AtomicBoolean();
    Queue<String> failures = new ConcurrentLinkedQueue<>();
    AtomicInteger answered = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    List<Duration> drains = new ArrayList<>();
    threads.add(Thread.ofVirtual().start(() -> balance(running, ready, stop)));
    try (SoapClient client = SoapClient.builder().timeout(Duration.ofSeconds(20)).build()) {
      try {
        for (int i = 0; i < CALLERS; i++) {
          int caller = i;
          threads.add(Thread.ofVirtual().start(
              () -> call(client, caller, ready, stop, answered, failures)));
        }
        awaitAnswers(answered, 50, failures);
        for (int i = 0; i < 2; i++) {
          Replica old = running.get(0);
          long start0 = System.nanoTime();
          old.process().close(); // drains: the balancer sees it unready, then it stops
          drains.add(Duration.ofNanos(System.nanoTime() - start0));
          running.remove(old);
          running.add(start.start()); // the balancer adds it once ready
          awaitAnswers(answered, answered.get() + 50, failures);
        }
      } finally {
        stop.set(true); // the callers end before their client closes
        for (Thread t : threads) {
          t.join(30_000);
        }
      }
    } finally {
      for (Replica r : running) {
        r.process().close();
      }
    }
    assertThat(failures).isEmpty();
    assertThat(answered.get()).isGreaterThan(150);
    // with the balancer gone from it, a replica stops soon after its delay
    assertThat(drains).allSatisfy(d -> assertThat(d).isLessThan(DELAY.plusSeconds(5)));
    System.out.println(answered.get() + " calls answered; drains took " + drains);
  }

  /** The load balancer: {@code ready} holds the running replicas whose probe answers 200. */
  private static void balance(List<Replica> running, List<Replica> ready, AtomicBoolean stop) {
    try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1))
        .build()) {
      while (!stop.get()) {
        for (Replica r : running) {
          boolean up = probe(http, r.base().resolve("/health/ready"));
          if (up && !ready.contains(r)) {
            ready.add(r);
          } else if (!up) {
            ready.remove(r);
          }
        }
        ready.removeIf(r -> !running.contains(r));
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  private static boolean probe(HttpClient http, URI uri) {
    try {
      return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(1)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** One caller: calls a ready replica after another, checking every reply's bytes. */
  private static void call(SoapClient client, int caller, List<Replica> ready,
      AtomicBoolean stop, AtomicInteger answered, Queue<String> failures) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int n = 0; !stop.get(); n++) {
      List<Replica> now = List.copyOf(ready);
      if (now.isEmpty()) {
        LockSupport.parkNanos(1_000_000); // a moment: the balancer finds a ready one
        continue;
      }
      Replica to = now.get(random.nextInt(now.size()));
      boolean upload = n % 10 == 9;
      ByteString blob = ByteString.of(Blobs.random(upload ? 1 << 20 : 32 * 1024,
          caller * 100_000 + n));
      String name = "caller " + caller + " call " + n;
      try (SoapResponse r = client.call(to.base().resolve("/echo"), EchoService.request(CODEC,
          SoapVersion.SOAP_11, upload ? MtomPolicy.ALWAYS : MtomPolicy.NEVER, name, blob),
          EchoService.SOAP_ACTION)) {
        EchoService.Echo echo = EchoService.readEcho(r.message());
        if (r.status() != 200 || !echo.name().equals(name) || !echo.attachinfo().equals(blob)) {
          failures.add(name + " to " + to.base() + ": status " + r.status() + ", echo "
              + echo.name());
        } else {
          answered.incrementAndGet();
        }
      } catch (IOException | RuntimeException e) {
        failures.add(name + " to " + to.base() + ": " + e);
      }
    }
  }

  private static void awaitAnswers(AtomicInteger answered, int atLeast, Queue<String> failures)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (answered.get() < atLeast && failures.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("only " + answered.get() + " calls answered in 30 s");
      }
      Thread.sleep(10);
    }
  }
}
