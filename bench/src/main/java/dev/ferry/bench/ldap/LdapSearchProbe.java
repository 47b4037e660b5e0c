package dev.ferry.bench.ldap;

import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.ProtocolOp;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a base search costs each LDAP server, where the client's clock cannot tell: for every
 * server of {@link LdapServerProcess} and every entry of {@link SearchShapes}, one client's
 * p50 and p90 (timed search by search), the server's CPU time per search (user + system, as
 * the operating system counts it for the server's process: the "etime" is server-side)
 * and, for the JVM servers, the bytes its threads allocated per search; then 8 clients on the
 * 4 KB entry: searches per second and CPU per search. Prints a table, writes it as CSV, and
 * draws the chart of the LDAP guide. Not a JMH benchmark:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.ferry.bench.ldap.LdapSearchProbe \
 *     --searches 50000 --seconds 20 --csv ldap-search.csv --chart docs/ldap-search.png
 * </pre>
 *
 * <p>(searches timed per server and shape after as many of warm-up; seconds of the 8-client
 * run after 5 of warm-up). {@code --servers} and {@code --shapes} pick fewer.
 */
public final class LdapSearchProbe {
  private LdapSearchProbe() {}

  /** One server and entry size's numbers. */
  record Row(String server, String shape, int entryBytes, double p50Micros, double p90Micros,
      double cpuMicros, double allocatedBytes) {}

  public static void main(String[] args) throws Exception {
    int searches = 20_000;
    int seconds = 10;
    Path csv = null;
    Path chart = null;
    List<String> servers = LdapServerProcess.KINDS;
    List<String> shapes = SearchShapes.SHAPES;
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--searches" -> searches = Integer.parseInt(args[i + 1]);
        case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
        case "--csv" -> csv = Path.of(args[i + 1]);
        case "--chart" -> chart = Path.of(args[i + 1]);
        case "--servers" -> servers = List.of(args[i + 1].split(","));
        case "--shapes" -> shapes = List.of(args[i + 1].split(","));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    List<Row> rows = new ArrayList<>();
    System.out.printf("%-10s %-5s %8s %9s %9s %12s %13s%n", "server", "shape", "entry B",
        "p50 us", "p90 us", "CPU us/srch", "alloc B/srch");
    for (String shape : shapes) {
      for (String server : servers) {
        Row r = oneClient(server, shape, searches);
        rows.add(r);
        System.out.printf("%-10s %-5s %8d %9.1f %9.1f %12.1f %13s%n", r.server, r.shape,
            r.entryBytes, r.p50Micros, r.p90Micros, r.cpuMicros, r.allocatedBytes < 0 ? "-"
                : String.format("%.0f", r.allocatedBytes));
      }
    }
    if (shapes.contains("4k")) {
      System.out.printf("%n8 clients, 4k entry, %d s:%n", seconds);
      for (String server : servers) {
        eightClients(server, seconds);
      }
    }
    if (csv != null) {
      writeCsv(rows, csv);
    }
    if (chart != null) {
      SearchChart.draw(rows, chart);
    }
  }

  /** The size of the SearchResultEntry message that carries the entry of {@code shape}. */
  static int entryBytes(String shape) {
    LdifRecord.Entry e = SearchShapes.entry(shape);
    return LdapCodec.encode(LdapMessage.of(2, new ProtocolOp.SearchResultEntry(e.dn(),
        e.attributes()))).size();
  }

  private static Row oneClient(String server, String shape, int searches) throws Exception {
    try (LdapServerProcess p = LdapServerProcess.start(server, shape);
        SearchClient client = new SearchClient(p.port())) {
      for (int i = 0; i < searches; i++) {
        client.search();
      }
      long[] nanos = new long[searches];
      Duration cpu = cpu(p);
      long allocated = p.allocatedBytes();
      for (int i = 0; i < searches; i++) {
        long start = System.nanoTime();
        client.search();
        nanos[i] = System.nanoTime() - start;
      }
      double cpuMicros = cpu(p).minus(cpu).toNanos() / 1e3 / searches;
      double allocatedPerSearch = allocated < 0 ? -1
          : (double) (p.allocatedBytes() - allocated) / searches;
      Arrays.sort(nanos);
      return new Row(server, shape, entryBytes(shape), nanos[searches / 2] / 1e3,
          nanos[searches * 9 / 10] / 1e3, cpuMicros, allocatedPerSearch);
    }
  }

  private static void eightClients(String server, int seconds) throws Exception {
    try (LdapServerProcess p = LdapServerProcess.start(server, "4k")) {
      run(p, 8, 5);
      Duration cpu = cpu(p);
      long count = run(p, 8, seconds);
      double cpuMicros = cpu(p).minus(cpu).toNanos() / 1e3 / count;
      System.out.printf("%-10s %10.0f searches/s %8.1f us CPU a search%n", server,
          (double) count / seconds, cpuMicros);
    }
  }

  /** Runs {@code clients} clients for {@code seconds}; returns the searches they made. */
  private static long run(LdapServerProcess p, int clients, int seconds) throws Exception {
    AtomicLong count = new AtomicLong();
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    List<Thread> threads = new ArrayList<>();
    List<Exception> failures = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      threads.add(Thread.ofPlatform().start(() -> {
        try (SearchClient c = new SearchClient(p.port())) {
          while (System.nanoTime() < end) {
            c.search();
            count.incrementAndGet();
          }
        } catch (IOException e) {
          synchronized (failures) {
            failures.add(e);
          }
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
    return count.get();
  }

  /** CPU time of the server's process, all its threads. */
  private static Duration cpu(LdapServerProcess p) {
    return p.process().info().totalCpuDuration().orElse(Duration.ZERO);
  }

  private static void writeCsv(List<Row> rows, Path file) throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
      w.println("server,shape,entryBytes,p50Micros,p90Micros,cpuMicros,allocatedBytes");
      for (Row r : rows) {
        w.printf("%s,%s,%d,%.2f,%.2f,%.2f,%.0f%n", r.server, r.shape, r.entryBytes,
            r.p50Micros, r.p90Micros, r.cpuMicros, r.allocatedBytes);
      }
    }
  }
}
