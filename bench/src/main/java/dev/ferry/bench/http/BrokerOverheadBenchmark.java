package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
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
 * What a hop in the middle costs, measured as people run it: the MTOM echo round trip to CXF's
 * echo service (a backend that is not Ferry), directly, through {@code ferry broker} in its own
 * JVM with its default access log (which rewrites wsa:To and adds a trace header on every call),
 * through nginx ({@code proxy_pass}, kept-alive upstream), and through a bare Netty relay (the
 * broker's transport without its SOAP work, {@link NettyRelay}), side by side in one run (see
 * {@link Relays}); the ratio of each path's excess over {@code direct} is the relay's price.
 * The client is Ferry's, the same on every path.
 *
 * <pre>
 * ./mvnw package -DskipTests
 * java -jar bench/target/benchmarks.jar BrokerOverheadBenchmark -rf json
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 15, time = 2)
@Measurement(iterations = 8, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@State(Scope.Benchmark)
public class BrokerOverheadBenchmark {
  @Param({"direct", "ferry-broker", "nginx", "netty-relay"})
  public String path;

  @Param({"4096", "32768", "1048576", "12582912"})
  public int size;

  private Relays relays;
  private SoapClient client;
  private SoapCodec codec;
  private URI uri;
  private ByteString blob;

  @Setup(Level.Trial)
  public void start() throws Exception {
    codec = SoapCodec.create();
    relays = Relays.start(path);
    client = SoapClient.create();
    uri = relays.uri(path);
    blob = blob(size);
    try {
      roundTrip();
    } catch (IOException | RuntimeException e) {
      stop(); // JMH skips the tear-down of a failed set-up: nginx would outlive the fork
      throw e;
    }
  }

  @Benchmark
  public long roundTrip() throws IOException {
    return call(client, codec, uri, blob);
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    client.close();
    relays.close();
  }

  /** The echo's blob of {@code size} random bytes, the same for every run of that size. */
  static ByteString blob(int size) {
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    return ByteString.of(b);
  }

  /** One MTOM echo call through {@code uri}, checked to come back whole. */
  static long call(SoapClient client, SoapCodec codec, URI uri, ByteString blob)
      throws IOException {
    try (SoapResponse r = client.call(uri, EchoService.request(codec, SoapVersion.SOAP_11,
        MtomPolicy.ALWAYS, "bench", blob), EchoService.SOAP_ACTION)) {
      long n = EchoService.readEcho(r.message(), OutputStream.nullOutputStream()).length();
      if (n != blob.size()) {
        throw new IllegalStateException("the echo through " + uri + " is not whole: " + n);
      }
      return n;
    }
  }
}
