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
 * The testMtom echo over loopback HTTP, server and client of one stack, MTOM on (every blob an
 * attachment) or off (inline base64): {@link #roundTrip} is the latency of one call, and
 * {@link #concurrent} the throughput of 8 clients calling at once. Each trial checks one echo's
 * length before measuring. Run the stacks side by side in one run; see docs/performance.md.
 *
 * <p>{@code ferry} and {@code cxf} (the default) are the untyped echo: Ferry's
 * {@code EchoService} against CXF's JAX-WS. {@code ferry-jaxws} (Ferry's JAX-WS runtime),
 * {@code ferry-typed} (Ferry's {@code TypedOperation}), {@code cxf} and {@code metro} are the
 * typed echo: each serves the same JAX-WS implementation and calls through typed code.
 * {@code ferry-war} and {@code cxf-war} are that typed echo as a web application in Tomcat 11:
 * Ferry's servlet initializer with a {@code sun-jaxws.xml}, and CXF's servlet.
 * {@code ferry-brokered} is {@code ferry} with Ferry's broker in between, in the same JVM: the
 * brokered rows of {@code ferry demo}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@State(Scope.Benchmark)
public class EchoRoundTripBenchmark {
  @Param({"ferry", "cxf"})
  public String stack;

  @Param({"true", "false"})
  public boolean mtom;

  @Param({"1024", "4096", "32768", "1048576", "12582912"})
  public int size;

  private EchoStack echo;
  private ByteString blob;

  @Setup(Level.Trial)
  public void start() throws Exception {
    echo = switch (stack) {
      case "ferry" -> new FerryEcho(mtom, false);
      case "ferry-brokered" -> new FerryEcho(mtom, true);
      case "cxf" -> new CxfEcho(mtom);
      case "ferry-jaxws" -> new FerryJaxWsEcho(mtom);
      case "ferry-typed" -> new FerryTypedEcho(mtom);
      case "metro" -> new MetroEcho(mtom);
      case "ferry-war" -> new FerryWarEcho(mtom);
      case "cxf-war" -> new CxfWarEcho(mtom);
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
