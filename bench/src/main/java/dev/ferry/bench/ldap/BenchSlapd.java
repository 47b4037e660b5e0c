package dev.ferry.bench.ldap;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * OpenLDAP's slapd for the LDAP server benchmarks, configured in a temp folder: back-mdb with
 * the benchmark's data loaded by {@code slapadd}, core and the benchmark schema, 16 threads, no
 * size limit, anonymous read of all but passwords (which bind only). Needs Debian's {@code
 * slapd} package ({@code apt-get install slapd ldap-utils}); it is stopped by its own pid.
 */
final class BenchSlapd implements AutoCloseable {
  private static final Path SLAPD = Path.of("/usr/sbin/slapd");
  private static final Path SLAPADD = Path.of("/usr/sbin/slapadd");

  private final Path dir;
  private final int port;
  private long pid = -1;
  private long loadNanos;

  private BenchSlapd(Path dir, int port) {
    this.dir = dir;
    this.port = port;
  }

  /** Starts slapd serving {@code ldif}, on a free loopback port. */
  static BenchSlapd start(Path ldif) throws IOException, InterruptedException {
    return start(ldif, List.of());
  }

  /** Starts slapd serving {@code ldif} with these {@code olcDbIndex} lines. */
  static BenchSlapd start(Path ldif, List<String> indexes) throws IOException,
      InterruptedException {
    if (!Files.isExecutable(SLAPD) || !Files.isExecutable(SLAPADD)) {
      throw new IOException("slapd is not installed: apt-get install slapd ldap-utils");
    }
    BenchSlapd s = new BenchSlapd(Files.createTempDirectory("ferry-bench-slapd-"), freePort());
    try {
      s.configure(ldif, indexes);
      s.launch();
      return s;
    } catch (IOException | InterruptedException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void configure(Path ldif, List<String> indexes) throws IOException,
      InterruptedException {
    Files.createDirectories(dir.resolve("slapd.d"));
    Files.createDirectories(dir.resolve("data"));
    String config = """
        dn: cn=config
        objectClass: olcGlobal
        cn: config
        olcPidFile: DIR/slapd.pid
        olcArgsFile: DIR/slapd.args
        olcThreads: 16

        dn: cn=module,cn=config
        objectClass: olcModuleList
        cn: module
        olcModulePath: /usr/lib/ldap
        olcModuleLoad: back_mdb.so

        dn: cn=schema,cn=config
        objectClass: olcSchemaConfig
        cn: schema

        include: file:///etc/ldap/schema/core.ldif

        include: file:///etc/ldap/schema/cosine.ldif

        include: file:///etc/ldap/schema/inetorgperson.ldif

        include: file://DIR/bench-schema.ldif

        dn: olcDatabase={-1}frontend,cn=config
        objectClass: olcDatabaseConfig
        objectClass: olcFrontendConfig
        olcDatabase: {-1}frontend
        olcSizeLimit: unlimited

        dn: olcDatabase={1}mdb,cn=config
        objectClass: olcDatabaseConfig
        objectClass: olcMdbConfig
        olcDatabase: {1}mdb
        olcSuffix: SUFFIX
        olcRootDN: ADMIN
        olcRootPW: PASSWORD
        olcDbDirectory: DIR/data
        olcDbMaxSize: 4294967296
        olcAccess: to attrs=userPassword by anonymous auth by * none
        olcAccess: to * by * read
        """.replace("DIR", dir.toString()).replace("SUFFIX", SearchShapes.SUFFIX)
        .replace("ADMIN", SearchShapes.ADMIN).replace("PASSWORD", SearchShapes.PASSWORD);
    Files.writeString(dir.resolve("bench-schema.ldif"), SearchShapes.schemaLdif());
    for (String index : indexes) {
      config += "olcDbIndex: " + index + "\n";
    }
    Files.writeString(dir.resolve("config.ldif"), config);
    run(SLAPADD.toString(), "-n", "0", "-F", dir.resolve("slapd.d").toString(), "-l",
        dir.resolve("config.ldif").toString());
    long start = System.nanoTime();
    run(SLAPADD.toString(), "-q", "-n", "1", "-F", dir.resolve("slapd.d").toString(), "-l",
        ldif.toString()); // -q: no consistency checks, as bulk loads are done
    loadNanos = System.nanoTime() - start;
  }

  private void launch() throws IOException, InterruptedException {
    run(SLAPD.toString(), "-F", dir.resolve("slapd.d").toString(), "-h",
        "ldap://127.0.0.1:" + port + "/");
    Path pidFile = dir.resolve("slapd.pid");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!Files.exists(pidFile) || Files.readString(pidFile).isBlank()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("slapd wrote no pid file within 10 s");
      }
      Thread.sleep(20);
    }
    pid = Long.parseLong(Files.readString(pidFile).trim());
  }

  private void run(String... command) throws IOException, InterruptedException {
    Path log = Files.createTempFile(dir, "cmd", ".log");
    Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", command) + " failed: " + Files.readString(log));
    }
  }

  int port() {
    return port;
  }

  /** How long {@code slapadd} took to load the data (the process, start to end). */
  long loadNanos() {
    return loadNanos;
  }

  /** The folder of slapd's LMDB store. */
  Path dataDirectory() {
    return dir.resolve("data");
  }

  ProcessHandle process() {
    return ProcessHandle.of(pid).orElseThrow();
  }

  @Override
  public void close() throws IOException {
    if (pid > 0) {
      ProcessHandle.of(pid).ifPresent(p -> {
        p.destroy();
        try {
          p.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          p.destroyForcibly();
        }
      });
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
