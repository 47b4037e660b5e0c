package dev.ferry.bench.ldap;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultListener;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * What loading {@code people-N} ({@link PeopleShapes}) costs each server, and the memory each
 * holds serving it: slapd's {@code slapadd -q} into back-mdb beside Ferry's {@code ferry ldap
 * import} into its durable store, with the same indexes, each timed as a whole process (start
 * to end, as an operator sees it); then each server started on what was loaded, its resident
 * memory ({@code VmRSS}, with its anonymous and file-mapped parts) at start and after one
 * subtree search has read every entry. Not a JMH benchmark:
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.ferry.bench.ldap.LdapImportProbe \
 *     people-100000 cli/target/ferry-cli.jar
 * </pre>
 *
 * <p>Ferry's commands run as {@code java -jar ferry-cli.jar} with the JVM's default heap, as
 * {@code ./ferry} runs them.
 */
public final class LdapImportProbe {
  private LdapImportProbe() {}

  public static void main(String[] args) throws Exception {
    String shape = args.length > 0 ? args[0] : "people-100000";
    Path cli = Path.of(args.length > 1 ? args[1] : "cli/target/ferry-cli.jar");
    if (!Files.isRegularFile(cli)) {
      throw new IOException("no " + cli + ": ./mvnw -q -pl cli -am package -DskipTests");
    }
    Path dir = Files.createTempDirectory("ferry-bench-import-");
    try {
      Path ldif = PeopleShapes.ldif(shape, dir);
      System.out.printf("%s: %,d entries, %,d bytes of LDIF, indexes %s%n", shape,
          PeopleShapes.count(shape) + 2, Files.size(ldif), PeopleShapes.SLAPD_INDEXES);
      try (BenchSlapd slapd = BenchSlapd.start(ldif, PeopleShapes.SLAPD_INDEXES)) {
        report("slapd", slapd.loadNanos(), slapd.dataDirectory(), slapd.process(),
            slapd.port());
      }
      Path data = dir.resolve("ferry-store");
      long start = System.nanoTime();
      run(ferry(cli, "import", data, ldif.toString()));
      long importNanos = System.nanoTime() - start;
      int port = BenchSlapd.freePort();
      Process serve = new ProcessBuilder(ferry(cli, "serve", data, "--port",
          Integer.toString(port), "--root-dn", SearchShapes.ADMIN, "--root-password",
          SearchShapes.PASSWORD)).redirectErrorStream(true)
          .redirectOutput(dir.resolve("serve.log").toFile()).start();
      try {
        awaitPort(port, serve, dir.resolve("serve.log"));
        report("ferry", importNanos, data, serve.toHandle(), port);
      } finally {
        serve.destroy();
        if (!serve.waitFor(10, TimeUnit.SECONDS)) {
          serve.destroyForcibly();
        }
      }
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /** {@code java -jar ferry-cli.jar ldap COMMAND --data DIR} with the suffix and indexes. */
  private static List<String> ferry(Path cli, String command, Path data, String... more) {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> c = new ArrayList<>(List.of(java, "-jar", cli.toString(), "ldap", command,
        "--data", data.toString(), "--suffix", SearchShapes.SUFFIX));
    for (String index : PeopleShapes.SLAPD_INDEXES) { // "uid eq" is --index uid=eq
      c.addAll(List.of("--index", index.replace(' ', '=')));
    }
    c.addAll(List.of(more));
    return c;
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + out);
    }
  }

  private static void awaitPort(int port, Process p, Path log) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IOException("ferry ldap serve ended: " + Files.readString(log));
      }
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return;
      } catch (IOException e) {
        Thread.sleep(50);
      }
    }
    throw new IOException("ferry ldap serve did not listen within 120 s");
  }

  private static void report(String server, long loadNanos, Path store, ProcessHandle p,
      int port) throws Exception {
    long[] atStart = rss(p);
    long entries = readAll(port);
    long[] after = rss(p);
    System.out.printf("%-6s load %5.1f s, store %,5d MiB on disk; resident %,4d MiB at start"
        + " (anon %,d, file %,d), %,4d MiB after reading %,d entries (anon %,d, file %,d)%n",
        server, loadNanos / 1e9, size(store) >> 20, atStart[0], atStart[1], atStart[2],
        after[0], entries, after[1], after[2]);
  }

  /** One subtree search for every entry, as the root DN (no size limit); returns how many. */
  private static long readAll(int port) throws Exception {
    AtomicLong n = new AtomicLong();
    SearchResultListener count = new SearchResultListener() {
      @Override
      public void searchEntryReturned(SearchResultEntry e) {
        n.incrementAndGet();
      }

      @Override
      public void searchReferenceReturned(SearchResultReference r) {}
    };
    try (LDAPConnection c = new LDAPConnection("127.0.0.1", port, SearchShapes.ADMIN,
        SearchShapes.PASSWORD)) {
      c.search(new SearchRequest(count, SearchShapes.SUFFIX, SearchScope.SUB,
          "(objectClass=*)"));
    }
    return n.get();
  }

  /** VmRSS, RssAnon and RssFile + RssShmem of {@code p}, in MiB. */
  private static long[] rss(ProcessHandle p) throws IOException {
    long[] out = new long[3];
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()),
        "status"))) {
      String[] f = line.split("\\s+");
      switch (f[0]) {
        case "VmRSS:" -> out[0] = Long.parseLong(f[1]) >> 10;
        case "RssAnon:" -> out[1] = Long.parseLong(f[1]) >> 10;
        case "RssFile:", "RssShmem:" -> out[2] += Long.parseLong(f[1]) >> 10;
        default -> { }
      }
    }
    return out;
  }

  /** The disk {@code dir} takes (du: an LMDB file is sparse up to its map size). */
  private static long size(Path dir) throws IOException, InterruptedException {
    Process du = new ProcessBuilder("du", "-sk", dir.toString()).start();
    String out = new String(du.getInputStream().readAllBytes()).strip();
    if (du.waitFor() != 0) {
      throw new IOException("du -sk " + dir + " failed");
    }
    return Long.parseLong(out.split("\\s+")[0]) << 10;
  }
}
