package dev.ferry.bench.ldap;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import java.io.IOException;
import java.util.SplittableRandom;
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
 * Indexed searches in a directory of {@code people-N} entries ({@link PeopleShapes}), each
 * server in a process of its own with the same indexes: a subtree search under ou=people for
 * {@code (uid=user<random>)} (equality index) and for {@code (cn=*mber <random>*)} (substring
 * index, about one entry in ten thousand), by UnboundID's client in synchronous mode, one
 * client for latency ({@code SampleTime}: p50 and p99) and 8 for searches per second.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LdapIndexedSearchBenchmark {
  @Param({"ferry", "slapd", "unboundid"})
  String server;

  @Param({"people-100000"})
  String shape;

  LdapServerProcess running;
  int people;

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
    final SplittableRandom random = new SplittableRandom(11);

    @Setup(Level.Trial)
    public void open(LdapIndexedSearchBenchmark b) throws LDAPException {
      connection = SearchClient.connect(b.running.port());
    }

    @TearDown(Level.Trial)
    public void close() {
      connection.close();
    }

    int search(String filter, int atLeast) throws IOException {
      try {
        SearchResult r = connection.search(new SearchRequest(PeopleShapes.PEOPLE,
            SearchScope.SUB, filter));
        if (r.getEntryCount() < atLeast) {
          throw new IOException(filter + ": " + r.getEntryCount() + " entries");
        }
        return r.getEntryCount();
      } catch (LDAPException e) {
        throw new IOException(filter + ": " + e.getMessage(), e);
      }
    }
  }

  private int equality(Client c) throws IOException {
    return c.search("(uid=user" + c.random.nextInt(people) + ")", 1);
  }

  private int substring(Client c) throws IOException {
    return c.search("(cn=*mber " + (1000 + c.random.nextInt(people - 1000)) + "*)", 1);
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public int equalityLatency(Client c) throws IOException {
    return equality(c);
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @Threads(8)
  public int equalityThroughput(Client c) throws IOException {
    return equality(c);
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public int substringLatency(Client c) throws IOException {
    return substring(c);
  }
}
