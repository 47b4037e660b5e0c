package dev.ferry.bench.http;

import dev.ferry.bytes.ByteString;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The typed testMtom echo over loopback HTTP, one runtime on both sides: Ferry's JAX-WS
 * runtime ({@code ferry-jaxws}: Endpoint.publish and a port proxy), Ferry's typed API without
 * annotations ({@code ferry-typed}), CXF 4 and Metro 4, each with the same JAX-WS
 * implementation (it reads the blob and answers a copy) and a client that reads the echo to its
 * end. MTOM on attaches every blob (threshold 0, as the peers' MTOM does); off is inline base64,
 * so the on/off pair per size gives the MTOM crossover. {@link #roundTrip} is one call's
 * latency (with {@code -prof gc}, its allocation per call), {@link #concurrent} the throughput
 * of 8 clients. Each trial checks one echo's length first. See docs/performance.md for runs.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@State(Scope.Benchmark)
public class TypedEchoBenchmark {
  @Param({"ferry-jaxws", "ferry-typed", "cxf", "metro"})
  public String stack;

  @Param({"true"})
  public boolean mtom;

  @Param({"4096", "32768", "1048576", "12582912"})
  public int size;

  private EchoStack echo;
  private ByteString blob;

  @Setup(Level.Trial)
  public void start() throws Exception {
    echo = switch (stack) {
      case "ferry-jaxws" -> new FerryJaxWsEcho(mtom);
      case "ferry-typed" -> new FerryTypedEcho(mtom);
      case "cxf" -> new CxfEcho(mtom);
      case "metro" -> new MetroEcho(mtom);
      default -> throw new IllegalArgumentException(stack);
    };
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    blob = ByteString.of(b);
    try {
      if (echo.echo(blob) != size) {
        throw new IllegalStateException(stack + " did not echo " + size + " bytes");
      }
    } catch (Exception e) {
      echo.close(); // JMH skips the tear-down of a failed set-up
      throw e;
    }
  }

  @Benchmark
  public long roundTrip() throws Exception {
    return echo.echo(blob);
  }

  @Benchmark
  @Threads(8)
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public long concurrent() throws Exception {
    return echo.echo(blob);
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    echo.close();
  }
}
