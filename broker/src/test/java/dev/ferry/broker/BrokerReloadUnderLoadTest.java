package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.MtomPolicy;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ten reloads of the routes file while eight callers keep calling through the broker: the
 * route goes to a different backend path each time (generation {@code i} to {@code /g<i>},
 * alternately on two backends), and each reply says which one answered. No call fails, and
 * each call is answered by the routes of a generation that was current while it was under way:
 * not older than the last reload done when it was sent, not newer than the last one begun when
 * its reply came (a broker that kept a connection's first routes, or mixed two tables, fails).
 * Sizes alternate between held requests and streamed ones (past {@code holdBytes}).
 */
class BrokerReloadUnderLoadTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final int RELOADS = 10;
  private static final int CALLERS = 8;
  /** Calls answered by a generation before the next reload starts. */
  private static final int CALLS_PER_GENERATION = 24;
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><t:echo xmlns:t=\"urn:t\">%s</t:echo></s:Body></s:Envelope>";

  @TempDir Path dir;
  @AutoClose
  final Closer open = new Closer();
  @AutoClose
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  void everyCallIsAnsweredByTheRoutesCurrentWhileItRan() throws Exception {
    SoapServer[] backends = {backend("A", 0), backend("B", 1)};
    Path file = dir.resolve("routes.yaml");
    Files.writeString(file, routes(backends, 0));
    Broker broker = open.keep(Broker.builder().routes(Routes.load(file)).build().start());

    AtomicInteger begun = new AtomicInteger(); // the last generation whose reload started
    AtomicInteger done = new AtomicInteger(); // the last generation whose reload returned
    AtomicIntegerArray served = new AtomicIntegerArray(RELOADS + 1);
    List<String> wrong = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
    List<Future<Integer>> running = new ArrayList<>();
    try {
      for (int c = 0; c < CALLERS; c++) {
        int caller = c;
        running.add(callers.submit(() -> {
          int calls = 0;
          while (!stop.get()) {
            String text = text(calls % 2 == 0 ? 300 : 80_000, caller * 100_000L + calls);
            int from = done.get();
            String echoed = call(broker, text);
            int to = begun.get();
            int generation = generation(echoed, backends.length);
            served.incrementAndGet(generation);
            if (generation < from || generation > to
                || !echoed.endsWith(":" + text)) {
              wrong.add("caller " + caller + " call " + calls + ": sent at generation " + from
                  + ", answered by " + echoed.substring(0, echoed.indexOf(':'))
                  + " before generation " + (to + 1) + " began");
            }
            calls++;
          }
          return calls;
        }));
      }
      for (int g = 1; g <= RELOADS; g++) {
        int previous = g - 1;
        await(() -> served.get(previous) >= CALLS_PER_GENERATION, running);
        begun.set(g);
        Files.writeString(file, routes(backends, g));
        assertThat(broker.reload(file)).isNull();
        done.set(g);
      }
      await(() -> served.get(RELOADS) >= CALLS_PER_GENERATION, running);
    } finally {
      stop.set(true);
      callers.shutdown();
    }
    int calls = 0;
    for (Future<Integer> f : running) {
      calls += f.get(WAIT.toSeconds(), TimeUnit.SECONDS); // a failed call fails here
    }
    assertThat(wrong).as("calls answered by routes not current while they ran").isEmpty();
    assertThat(calls).isGreaterThanOrEqualTo((RELOADS + 1) * CALLS_PER_GENERATION);
    for (int g = 0; g <= RELOADS; g++) {
      assertThat(served.get(g)).as("calls of generation %d", g).isPositive();
    }
    assertThat(broker.scrape()).contains("ferry_broker_route_reloads_total{result=\"ok\"} 10.0");
  }

  /** A backend {@code name} answering at /g0../g10 those generations whose parity is its own. */
  private SoapServer backend(String name, int parity) throws Exception {
    SoapServer.Builder b = SoapServer.builder();
    for (int g = parity; g <= RELOADS; g += 2) {
      String tag = name + "/g" + g;
      Endpoint echo = request -> {
        XMLStreamReader r = request.bodyReader();
        StringBuilder text = new StringBuilder();
        while (r.hasNext()) {
          if (r.next() == XMLStreamConstants.CHARACTERS) {
            text.append(r.getText());
          }
        }
        return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), w -> {
          w.writeStartElement("echoed");
          w.writeCharacters(tag + ":" + text);
          w.writeEndElement();
        });
      };
      b.endpoint("/g" + g, Dispatcher.builder().fallback(echo).build());
    }
    return open.keep(b.build().start());
  }

  private static String routes(SoapServer[] backends, int generation) {
    return "routes:\n  - path: /echo\n    to: "
        + backends[generation % 2].uri("/g" + generation) + "\n";
  }

  /** The generation of the backend path that answered ({@code A/g4:...}), checked. */
  private static int generation(String echoed, int backends) {
    int slash = echoed.indexOf("/g");
    int colon = echoed.indexOf(':');
    int g = Integer.parseInt(echoed.substring(slash + 2, colon));
    assertThat(echoed.charAt(0)).as(echoed.substring(0, colon))
        .isEqualTo(g % backends == 0 ? 'A' : 'B');
    return g;
  }

  /** The text the backend echoed for {@code text}; fails unless the call was answered 200. */
  private String call(Broker broker, String text) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(broker.uri("/echo"))
        .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"\"")
        .POST(HttpRequest.BodyPublishers.ofString(ENVELOPE.formatted(text))).build(),
        HttpResponse.BodyHandlers.ofString());
    String body = r.body();
    assertThat(r.statusCode()).as(body).isEqualTo(200);
    int from = body.indexOf("<echoed>");
    int to = body.indexOf("</echoed>");
    assertThat(from).as(body).isNotNegative();
    return body.substring(from + "<echoed>".length(), to);
  }

  private static String text(int length, long seed) {
    Random random = new Random(seed);
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
  }

  private interface Condition {
    boolean holds();
  }

  /** Waits for {@code c}; fails at once if a caller failed, or after {@link #WAIT}. */
  private static void await(Condition c, List<Future<Integer>> callers) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!c.holds()) {
      for (Future<Integer> f : callers) {
        if (f.isDone()) {
          f.get(); // a caller that stopped failed: its exception says how
          throw new AssertionError("a caller stopped");
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WAIT);
      }
      Thread.sleep(5);
    }
  }
}
