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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Search time by returned entry size, one client: a base-scope search for the whole entry
 * ({@link SearchShapes}: 1, 4, 16 and 64 KB) against Ferry's server, slapd (back-mdb),
 * UnboundID's in-memory server and the floor ({@link FloorServer}), each in a process of its
 * own ({@link LdapServerProcess}), on loopback, with UnboundID's client. Sample time, so JMH
 * reports the p50. Server CPU and allocation per search: {@link LdapSearchProbe}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 4)
@Fork(1)
public class LdapSearchBenchmark {
  @Param({"ferry", "slapd", "unboundid", "floor"})
  String server;

  @Param({"1k", "4k", "16k", "64k"})
  String shape;

  LdapServerProcess running;
  SearchClient client;

  @Setup(Level.Trial)
  public void start() throws IOException, InterruptedException {
    running = LdapServerProcess.start(server, shape);
    client = new SearchClient(running.port());
    client.search();
  }

  @TearDown(Level.Trial)
  public void stop() throws IOException, InterruptedException {
    client.close();
    running.close();
  }

  @Benchmark
  public int baseSearch() throws IOException {
    return client.search();
  }
}
