package dev.ferry.bench.ldap;

import com.unboundid.ldap.listener.InMemoryDirectoryServer;
import com.unboundid.ldap.listener.InMemoryDirectoryServerConfig;
import com.unboundid.ldap.listener.InMemoryListenerConfig;
import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.server.IndexType;
import dev.ferry.ldap.server.LdapServer;
import dev.ferry.ldap.server.LdapServerLimits;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An LDAP server of the benchmark in a process of its own, so that its CPU time is its own and
 * it shares neither heap nor threads with the client: slapd ({@link BenchSlapd}), or a JVM
 * running Ferry's {@link LdapServer} (in memory, or {@code ferry-durable}: in LMDB in the
 * temp folder, every change committed to disk as slapd's back-mdb commits it), UnboundID's
 * {@code InMemoryDirectoryServer} (no schema, as Ferry's runs without one) or the {@link
 * FloorServer}, all on the same LDIF. A JVM child is
 * this class's {@link #main} on the benchmark's class path, with the JVM options of the system
 * property {@code ferry.bench.serverJvmOptions} (default {@code -Xms1g -Xmx1g}); it prints its
 * port, answers {@code allocated} on its standard input with the bytes its threads allocated,
 * and lives until that input closes.
 */
final class LdapServerProcess implements AutoCloseable {
  /** The servers, by the name the benchmarks' parameters use. */
  static final List<String> KINDS = List.of("ferry", "ferry-durable", "slapd", "unboundid",
      "floor");
  /** What lmdbjava needs of the JVM (Ferry's durable store). */
  private static final List<String> LMDB_OPTIONS = List.of("--add-opens",
      "java.base/java.nio=ALL-UNNAMED", "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--enable-native-access=ALL-UNNAMED");

  private final String kind;
  private final Process jvm; // null for slapd
  private final BenchSlapd slapd;
  private final int port;
  private final BufferedReader replies;
  private final Path dir;

  private LdapServerProcess(String kind, Process jvm, BenchSlapd slapd, int port,
      BufferedReader replies, Path dir) {
    this.kind = kind;
    this.jvm = jvm;
    this.slapd = slapd;
    this.port = port;
    this.replies = replies;
    this.dir = dir;
  }

  /** Starts {@code kind} serving the entry of {@code shape}. */
  static LdapServerProcess start(String kind, String shape) throws IOException,
      InterruptedException {
    Path dir = Files.createTempDirectory("ferry-bench-ldap-");
    boolean people = PeopleShapes.isPeople(shape);
    Path ldif = people ? PeopleShapes.ldif(shape, dir) : SearchShapes.ldif(shape, dir);
    if (kind.equals("slapd")) {
      BenchSlapd s = BenchSlapd.start(ldif, people ? PeopleShapes.SLAPD_INDEXES : List.of());
      return new LdapServerProcess(kind, null, s, s.port(), null, dir);
    }
    if (!KINDS.contains(kind)) {
      throw new IllegalArgumentException("server: " + kind + " (expected: " + KINDS + ")");
    }
    String java = ProcessHandle.current().info().command()
        .orElseThrow(() -> new IOException("cannot tell which java runs this JVM"));
    List<String> command = new ArrayList<>(List.of(java));
    command.addAll(List.of(System.getProperty("ferry.bench.serverJvmOptions",
        "-Xms1g -Xmx1g").strip().split("\\s+")));
    command.addAll(LMDB_OPTIONS);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"),
        LdapServerProcess.class.getName(), kind, ldif.toString()));
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.US_ASCII));
    String line = out.readLine();
    if (line == null || !line.startsWith("port ")) {
      p.destroyForcibly();
      throw new IOException("the " + kind + " server did not start: " + line);
    }
    return new LdapServerProcess(kind, p, null, Integer.parseInt(line.substring(5)), out, dir);
  }

  String kind() {
    return kind;
  }

  int port() {
    return port;
  }

  /** The server's process, for its CPU time. */
  ProcessHandle process() {
    return jvm != null ? jvm.toHandle() : slapd.process();
  }

  /** Bytes the server's threads allocated so far, or -1 for slapd (not a JVM). */
  long allocatedBytes() throws IOException {
    if (jvm == null) {
      return -1;
    }
    jvm.getOutputStream().write("allocated\n".getBytes(StandardCharsets.US_ASCII));
    jvm.getOutputStream().flush();
    return Long.parseLong(replies.readLine().strip());
  }

  @Override
  public void close() throws IOException, InterruptedException {
    if (jvm != null) {
      jvm.getOutputStream().close();
      if (!jvm.waitFor(10, TimeUnit.SECONDS)) {
        jvm.destroyForcibly();
      }
    } else {
      slapd.close();
    }
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  /** The child: {@code LdapServerProcess ferry|unboundid|floor <ldif>}. */
  public static void main(String[] args) throws Exception {
    PrintStream out = System.out;
    Path ldif = Path.of(args[1]);
    switch (args[0]) {
      case "ferry", "ferry-durable" -> {
        LdapServer.Builder b = LdapServer.builder().suffix(SearchShapes.SUFFIX)
            .rootDn(SearchShapes.ADMIN, SearchShapes.PASSWORD).ldif(ldif)
            .index("objectClass", IndexType.EQUALITY).index("uid", IndexType.EQUALITY)
            .index("mail", IndexType.EQUALITY).index("cn", IndexType.SUBSTRING)
            .limits(LdapServerLimits.builder().maxConnections(64).build());
        if (args[0].equals("ferry-durable")) {
          b.storage(ldif.resolveSibling("ferry-store")); // the LDIF is loaded into it first
        }
        try (LdapServer s = b.start()) {
          serve(out, s.port());
        }
      }
      case "unboundid" -> {
        InMemoryDirectoryServerConfig config =
            new InMemoryDirectoryServerConfig(SearchShapes.SUFFIX);
        if (ldif.getFileName().toString().contains(PeopleShapes.PREFIX)) {
          // its standard schema (which indexes need) knows inetOrgPerson; it has no other kind
          config.setEqualityIndexAttributes("objectClass", "uid", "mail");
        } else {
          config.setSchema(null); // the benchmark schema's types are not in its own
        }
        config.addAdditionalBindCredentials(SearchShapes.ADMIN, SearchShapes.PASSWORD);
        config.setListenerConfigs(InMemoryListenerConfig.createLDAPConfig("ldap",
            InetAddress.getLoopbackAddress(), 0, null));
        InMemoryDirectoryServer s = new InMemoryDirectoryServer(config);
        s.importFromLDIF(true, ldif.toFile());
        s.startListening();
        try {
          serve(out, s.getListenPort());
        } finally {
          s.shutDown(true);
        }
      }
      default -> {
        List<LdifRecord> records = LdifReader.readAll(ldif);
        try (FloorServer s = new FloorServer((LdifRecord.Entry) records.get(1))) {
          serve(out, s.port());
        }
      }
    }
  }

  private static void serve(PrintStream out, int port) throws IOException {
    out.println("port " + port);
    out.flush();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.US_ASCII));
    for (String line; (line = in.readLine()) != null; ) {
      if (line.equals("allocated")) {
        out.println(((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
            .getTotalThreadAllocatedBytes());
        out.flush();
      }
    }
  }
}
