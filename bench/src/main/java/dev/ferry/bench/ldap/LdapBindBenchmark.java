package dev.ferry.bench.ldap;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * Simple binds as a random entry of {@code people-N} with its password ({@code {SSHA}} stored,
 * so each server hashes once per bind), each client on a connection of its own that it binds
 * again and again (UnboundID's client, synchronous mode), against each server in a process of
 * its own on the same data: one client for latency ({@code SampleTime}: p50 and p99), 8 for
 * binds per second.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LdapBindBenchmark {
  @Param({"ferry", "ferry-durable", "slapd"})
  String server;

  @Param({"people-100000"})
  String shape;

  LdapServerProcess running;
  int people;
  final AtomicInteger clients = new AtomicInteger();

  @Setup(Level.Trial)
  public void start() throws IOException, InterruptedException {
    running = LdapServerProcess.start(server, shape);
    people = PeopleShapes.count(shape);
  }

  @TearDown(Level.Trial)
  public void stop() throws IOException, InterruptedException {
    running.close();
  }

  /** One connection per benchmark thread. */
  @State(Scope.Thread)
  public static class Client {
    LDAPConnection connection;
    SplittableRandom random;

    @Setup(Level.Trial)
    public void open(LdapBindBenchmark b) throws LDAPException {
      connection = SearchClient.connect(b.running.port());
      random = new SplittableRandom(b.clients.incrementAndGet());
    }

    @TearDown(Level.Trial)
    public void close() {
      connection.close();
    }
  }

  private int bind(Client c) throws IOException {
    int i = c.random.nextInt(people);
    try {
      return c.connection.bind("uid=user" + i + "," + PeopleShapes.PEOPLE,
          PeopleShapes.password(i)).getResultCode().intValue();
    } catch (LDAPException e) {
      throw new IOException("bind as user" + i + ": " + e.getMessage(), e);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public int bindLatency(Client c) throws IOException {
    return bind(c);
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Threads(8)
  public int bindThroughput(Client c) throws IOException {
    return bind(c);
  }
}
