package dev.ferry.bench.ldap;

import java.io.IOException;
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
 * Searches per second with 8 clients, each on a connection of its own, for the 4 KB entry of
 * about 80 attributes, against each server of {@link LdapSearchBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 4)
@Threads(8)
@Fork(1)
public class LdapSearchThroughputBenchmark {
  @Param({"ferry", "slapd", "unboundid", "floor"})
  String server;

  @Param({"4k"})
  String shape;

  LdapServerProcess running;

  @Setup(Level.Trial)
  public void start() throws IOException, InterruptedException {
    running = LdapServerProcess.start(server, shape);
  }

  @TearDown(Level.Trial)
  public void stop() throws IOException, InterruptedException {
    running.close();
  }

  /** One client connection per benchmark thread. */
  @State(Scope.Thread)
  public static class Client {
    SearchClient client;

    @Setup(Level.Trial)
    public void open(LdapSearchThroughputBenchmark b) throws IOException {
      client = new SearchClient(b.running.port());
    }

    @TearDown(Level.Trial)
    public void close() {
      client.close();
    }
  }

  @Benchmark
  public int baseSearch(Client c) throws IOException {
    return c.client.search();
  }
}
