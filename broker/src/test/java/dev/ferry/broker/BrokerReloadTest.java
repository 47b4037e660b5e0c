package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Routes reloaded while the broker runs: an exchange in flight finishes on the routes it
 * started with, new ones take the new routes, the old set's connections close once its last
 * exchange ended, and a file that is not a valid table changes nothing.
 */
class BrokerReloadTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><t:echo xmlns:t=\"urn:t\">%s</t:echo></s:Body></s:Envelope>";

  @TempDir Path dir;
  private final Closer closer = new Closer();
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    closer.close();
    http.close();
  }

  @Test
  void anExchangeInFlightFinishesOnTheOldRoutesAndTheOldConnectionsCloseAfterIt()
      throws Exception {
    SoapServer held = closer.keep(backend("old:", true));
    SoapServer fresh = closer.keep(backend("new:", false));
    Relay toOld = closer.keep(new Relay(held.port())); // counts the old set's connections
    Path file = routesFile("http://127.0.0.1:" + toOld.port() + "/echo");
    Broker broker = closer.keep(Broker.builder().routes(Routes.load(file)).build().start());
    assertThat(call(broker, text(100))).isEqualTo("old:" + text(100));

    String inFlight = "hold" + text(64 * 1024);
    CompletableFuture<String> old = CompletableFuture.supplyAsync(() -> call(broker, inFlight));
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    RouteSet before = broker.routeSet();
    Files.writeString(file, routes(fresh.uri("/echo").toString()));
    assertThat(broker.reload(file)).isNull();

    String next = text(32 * 1024);
    assertThat(call(broker, next)).isEqualTo("new:" + next);
    assertThat(broker.routeSet()).isNotSameAs(before);
    assertThat(before.closed()).as("held open by the exchange still running on it").isFalse();
    assertThat(toOld.open()).isPositive();
    assertThat(broker.scrape()).contains("ferry_broker_route_sets 2.0")
        .contains("ferry_broker_route_reloads_total{result=\"ok\"} 1.0");

    release.countDown();
    assertThat(old.get(10, TimeUnit.SECONDS)).isEqualTo("old:" + inFlight); // every byte
    await(before::closed);
    await(() -> toOld.open() == 0); // the old pool's connection, kept alive, was closed
    assertThat(broker.routeSet().closed()).isFalse();
    assertThat(broker.scrape()).contains("ferry_broker_route_sets 1.0");
  }

  @Test
  void anInvalidFileChangesNothingAndSaysWhy() throws Exception {
    SoapServer backend = closer.keep(backend("old:", false));
    Path file = routesFile(backend.uri("/echo").toString());
    Broker broker = closer.keep(Broker.builder().routes(Routes.load(file)).build().start());
    RouteSet before = broker.routeSet();
    Files.writeString(file, "routes:\n  - path: /echo\n    to: http://127.0.0.1:1/echo\n"
        + "    fault: {reason: both}\n");

    String why = broker.reload(file);

    assertThat(why).startsWith(file.toString()).contains("line 4");
    assertThat(broker.routeSet()).isSameAs(before);
    assertThat(before.closed()).isFalse();
    assertThat(call(broker, "still")).isEqualTo("old:still");
    assertThat(broker.scrape())
        .contains("ferry_broker_route_reloads_total{result=\"failed\"} 1.0")
        .contains("ferry_broker_route_reloads_total{result=\"ok\"} 0.0");
    Files.delete(file);
    assertThat(broker.reload(file)).contains("cannot be read");
    assertThat(call(broker, "again")).isEqualTo("old:again");
  }

  @Test
  void theNewTablesRoutesAreCountedUnderTheirNames() throws Exception {
    SoapServer backend = closer.keep(backend("b:", false));
    Path file = routesFile(backend.uri("/echo").toString());
    Broker broker = closer.keep(Broker.builder().routes(Routes.load(file)).build().start());
    Files.writeString(file, "routes:\n  - path: /other\n    name: other\n    to: "
        + backend.uri("/echo") + "\n");
    assertThat(broker.reload(file)).isNull();

    assertThat(post(broker, "/other", "x").body()).contains("b:x");
    assertThat(post(broker, "/echo", "x").body()).as("gone with the old table")
        .contains("no route for /echo");
    Settled.awaitMetric(broker, "ferry_broker_requests_total{route=\"other\",status=\"200\"} 1.0");
  }

  private Path routesFile(String to) throws IOException {
    return Files.writeString(dir.resolve("routes.yaml"), routes(to));
  }

  private static String routes(String to) {
    return "routes:\n  - path: /echo\n    to: " + to + "\n";
  }

  /**
   * Echoes the Body's text after {@code prefix}; a text starting {@code hold} after
   * {@link #release} if {@code held}.
   */
  private SoapServer backend(String prefix, boolean held) throws IOException {
    Endpoint echo = request -> {
      String text = text(request.bodyReader());
      if (held && text.startsWith("hold")) {
        entered.countDown();
        if (!release.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("not released");
        }
      }
      return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), w -> {
        w.writeStartElement("echoed");
        w.writeCharacters(prefix + text);
        w.writeEndElement();
      });
    };
    return SoapServer.builder().endpoint("/echo", Dispatcher.builder().fallback(echo).build())
        .build().start();
  }

  /** The text the backend echoed for {@code text}, checked whole. */
  private String call(Broker broker, String text) {
    HttpResponse<String> r = post(broker, "/echo", text);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    String body = r.body();
    int from = body.indexOf("<echoed>");
    int to = body.indexOf("</echoed>");
    assertThat(from).as(body).isNotNegative();
    return body.substring(from + "<echoed>".length(), to);
  }

  private HttpResponse<String> post(Broker broker, String path, String text) {
    try {
      return http.send(HttpRequest.newBuilder(broker.uri(path))
          .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"\"")
          .POST(HttpRequest.BodyPublishers.ofString(ENVELOPE.formatted(text))).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code length} letters and digits, the same for the same length. */
  private static String text(int length) {
    Random random = new Random(length);
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    StringBuilder b = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
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

  private static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s");
      }
      Thread.sleep(10);
    }
  }

  /**
   * A TCP relay to a backend that counts its open connections: one is open from the broker's
   * connect until the broker closes it.
   */
  private static final class Relay implements AutoCloseable {
    private final ServerSocket listener;
    private final AtomicInteger open = new AtomicInteger();

    Relay(int backendPort) throws IOException {
      listener = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
      Thread.ofVirtual().start(() -> {
        while (!listener.isClosed()) {
          try {
            Socket in = listener.accept();
            Socket out = new Socket(InetAddress.getLoopbackAddress(), backendPort);
            open.incrementAndGet();
            Thread.ofVirtual().start(() -> pump(out, in, false));
            Thread.ofVirtual().start(() -> pump(in, out, true));
          } catch (IOException closed) {
            return;
          }
        }
      });
    }

    /** Copies until {@code from} ends; the broker's side ending counts the connection closed. */
    private void pump(Socket from, Socket to, boolean brokerSide) {
      try (InputStream in = from.getInputStream()) {
        OutputStream out = to.getOutputStream();
        in.transferTo(out);
      } catch (IOException cut) {
        // either side went away: both close below
      } finally {
        if (brokerSide) {
          open.decrementAndGet();
        }
        closeQuietly(from);
        closeQuietly(to);
      }
    }

    private static void closeQuietly(Socket s) {
      try {
        s.close();
      } catch (IOException e) {
        // already closed
      }
    }

    int port() {
      return listener.getLocalPort();
    }

    int open() {
      return open.get();
    }

    @Override
    public void close() throws IOException {
      listener.close();
    }
  }
}
