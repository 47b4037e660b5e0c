package dev.ferry.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/** The floor every byte-moving benchmark is compared with: one bulk read of the same bytes. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RawCopyBenchmark {
  @Param({"32768", "1048576"})
  int size;

  byte[] data;
  final byte[] buffer = new byte[16 * 1024];

  @Setup
  public void setUp() {
    data = new byte[size];
    new Random(42).nextBytes(data);
  }

  @Benchmark
  public long rawRead(Blackhole bh) throws IOException {
    return Baselines.drain(new ByteArrayInputStream(data), buffer, bh);
  }
}
