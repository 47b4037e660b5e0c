package dev.ferry.bench.http;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a hop in the middle costs: the MTOM echo round trip from Ferry's client to Ferry's server
 * directly, through Ferry's broker (which rewrites wsa:To and adds a trace header on every
 * call), and through nginx as a plain reverse proxy (Debian's defaults, and with request bodies
 * kept in memory, see {@link Nginx#start}), side by side in one run. All on loopback;
 * the broker and nginx each add two socket hops, so the ratio to {@code direct} is the price.
 * {@code broker} runs in this JVM, beside the client and the backend; {@code broker-process}
 * in a JVM of its own, as {@code ferry broker} runs it and as nginx runs ({@link RelayProcess});
 * {@code jetty-proxy} is Jetty's own reverse proxy in a JVM of its own, the library the broker is
 * built on relaying bytes it does not read.
 * The forked JVM has the Vector API module, as {@code ferry serve} and {@code ferry broker} do.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 20, time = 2) // the broker's path keeps compiling for ~15 iterations
@Measurement(iterations = 8, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx1g", "--add-modules", "jdk.incubator.vector"})
@State(Scope.Benchmark)
public class BrokerOverheadBenchmark {
  @Param({"direct", "broker", "broker-process", "jetty-proxy", "nginx", "nginx-default"})
  public String path;

  @Param({"32768", "1048576"})
  public int size;

  private SoapServer server;
  private Broker broker;
  private RelayProcess relay;
  private Nginx nginx;
  private SoapClient client;
  private SoapCodec codec;
  private URI uri;
  private ByteString blob;

  @Setup(Level.Trial)
  public void start() throws Exception {
    codec = SoapCodec.create();
    AccessLog.quiet();
    server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher()).build().start();
    client = SoapClient.create();
    uri = switch (path) {
      case "direct" -> server.uri("/echo");
      case "broker" -> {
        broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n    to: "
            + server.uri("/echo") + "\n")).build().start();
        yield broker.uri("/echo");
      }
      case "broker-process" -> {
        relay = RelayProcess.broker(server.uri("/echo"));
        yield relay.uri("/echo");
      }
      case "jetty-proxy" -> {
        relay = RelayProcess.jettyProxy(server.uri("/echo"));
        yield relay.uri("/echo");
      }
      case "nginx", "nginx-default" -> {
        nginx = Nginx.start(server.port(), path.equals("nginx"));
        yield URI.create("http://127.0.0.1:" + nginx.port() + "/echo");
      }
      default -> throw new IllegalArgumentException(path);
    };
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    blob = ByteString.of(b);
    try {
      if (roundTrip() != size) {
        throw new IllegalStateException("the echo through " + path + " is not whole");
      }
    } catch (IOException | RuntimeException e) {
      stop(); // JMH skips the tear-down of a failed set-up: nginx would outlive the fork
      throw e;
    }
  }

  @Benchmark
  public long roundTrip() throws IOException {
    try (SoapResponse r = client.call(uri, EchoService.request(codec, SoapVersion.SOAP_11,
        MtomPolicy.DEFAULT, "bench", blob), EchoService.SOAP_ACTION)) {
      return EchoService.readEcho(r.message(), OutputStream.nullOutputStream()).length();
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    client.close();
    if (broker != null) {
      broker.close();
    }
    if (relay != null) {
      relay.close();
    }
    if (nginx != null) {
      nginx.close();
    }
    server.close();
  }
}
