package dev.ferry.bench.ldap;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;
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
 * Durable modifies per second with 8 clients: each, bound as the root DN on a connection of its
 * own (UnboundID's client, synchronous mode), replaces the {@code mail} (equality-indexed) of a
 * random entry of {@code people-N}, against Ferry's server on its durable store and slapd's
 * back-mdb, each in a process of its own on the same data and indexes. Both answer a modify
 * once its transaction is on disk (fsync): slapd commits each modify by itself, Ferry commits
 * the modifies that arrive together in one transaction.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 4)
@Threads(8)
@Fork(1)
public class LdapModifyBenchmark {
  @Param({"ferry-durable", "slapd"})
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

  /** One bound connection per benchmark thread. */
  @State(Scope.Thread)
  public static class Client {
    LDAPConnection connection;
    SplittableRandom random;
    long changes;

    @Setup(Level.Trial)
    public void open(LdapModifyBenchmark b) throws LDAPException {
      connection = SearchClient.connect(b.running.port(), SearchShapes.ADMIN,
          SearchShapes.PASSWORD);
      random = new SplittableRandom(b.clients.incrementAndGet());
    }

    @TearDown(Level.Trial)
    public void close() {
      connection.close();
    }
  }

  @Benchmark
  public int modify(Client c) throws IOException {
    int i = c.random.nextInt(people);
    try {
      ResultCode code = c.connection.modify("uid=user" + i + "," + PeopleShapes.PEOPLE,
          new Modification(ModificationType.REPLACE, "mail", "user" + i + "." + c.changes++
              + "@example.com")).getResultCode();
      return code.intValue();
    } catch (LDAPException e) {
      throw new IOException("modify of user" + i + ": " + e.getMessage(), e);
    }
  }
}
