package dev.ferry.ldap.interop;

import static org.junit.jupiter.api.Assertions.fail;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Assumptions;

/**
 * A throw-away OpenLDAP slapd on free loopback ports, configured in a temp folder (see
 * /work/shared/recipes/slapd.md): installs Debian's package if missing (as root), writes a
 * cn=config LDIF with one mdb database (with the sssvlv overlay: server-side sort and virtual
 * list view) and the password modules of slapd-contrib (pw-sha2, pw-pbkdf2), a test CA with a
 * server certificate (StartTLS and ldaps) and a client certificate (SASL EXTERNAL), starts slapd
 * and stops it by its own pid.
 *
 * <p>slapd listens for {@code ldap://} on 127.0.0.1 and for {@code ldaps://} on 127.0.0.1 and
 * 127.0.0.2: the server certificate names only localhost and 127.0.0.1, so the second address
 * is a host name the certificate does not match.
 *
 * <p>If slapd cannot be installed the tests fail, unless FERRY_SKIP_SLAPD=1 is set.
 */
public final class Slapd implements AutoCloseable {
  public static final String SUFFIX = "dc=example,dc=com";
  public static final String ADMIN = "cn=admin," + SUFFIX;
  public static final String PASSWORD = "secret";
  /** The entry the client certificate's subject maps to (olcAuthzRegexp). */
  public static final String CLIENT_DN = "cn=client," + SUFFIX;
  /** A SASL user name whose entry has a cleartext password, for DIGEST-MD5. */
  static final String SASL_USER = "sasl";
  static final String SASL_DN = "uid=" + SASL_USER + ",ou=people," + SUFFIX;
  static final String SASL_PASSWORD = "sasl-secret";
  private static final char[] STORE_PASSWORD = "changeit".toCharArray();
  private static final Path SLAPD = Path.of("/usr/sbin/slapd");
  private static final Path SLAPADD = Path.of("/usr/sbin/slapadd");

  public final Path dir;
  public final int port;
  public final int tlsPort;
  private long pid = -1;

  private Slapd(Path dir, int port, int tlsPort) {
    this.dir = dir;
    this.port = port;
    this.tlsPort = tlsPort;
  }

  public static Slapd start() throws Exception {
    ensureInstalled();
    Path dir = Files.createTempDirectory("ferry-slapd-");
    Slapd s = new Slapd(dir, freePort(), freePort());
    try {
      s.makeCertificates();
      s.configure();
      s.launch();
      return s;
    } catch (Exception | AssertionError e) {
      s.close();
      throw e;
    }
  }

  public static void ensureInstalled() throws Exception {
    if (Files.isExecutable(SLAPD) && Files.isExecutable(SLAPADD)
        && Files.isExecutable(Path.of("/usr/bin/ldapsearch"))
        && Files.exists(Path.of("/usr/lib/ldap/pw-pbkdf2.so"))) {
      return;
    }
    boolean skip = "1".equals(System.getenv("FERRY_SKIP_SLAPD"));
    Path script = Files.createTempFile("install-slapd", ".sh");
    try (InputStream in = Slapd.class.getResourceAsStream("install-slapd.sh")) {
      Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    Result r = run(Duration.INSTALL, List.of("sh", script.toString()));
    Files.deleteIfExists(script);
    if (r.exit != 0 || !Files.isExecutable(SLAPD)) {
      String why = "OpenLDAP slapd is not installed and could not be installed (exit " + r.exit
          + "):\n" + r.output + "\nRun as root with Debian's package registry reachable, or set"
          + " FERRY_SKIP_SLAPD=1 to skip the interop tests.";
      Assumptions.assumeFalse(skip, why);
      fail(why);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void makeCertificates() throws Exception {
    String ca = dir.resolve("ca").toString();
    String server = dir.resolve("server").toString();
    check(run(Duration.TOOL, List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
        "-keyout", ca + ".key", "-out", ca + ".pem", "-days", "2", "-subj", "/CN=Ferry Test CA")));
    check(run(Duration.TOOL, List.of("openssl", "req", "-newkey", "rsa:2048", "-nodes",
        "-keyout", server + ".key", "-out", server + ".csr", "-subj", "/CN=localhost")));
    Files.writeString(dir.resolve("san.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
    check(run(Duration.TOOL, List.of("openssl", "x509", "-req", "-in", server + ".csr", "-CA",
        ca + ".pem", "-CAkey", ca + ".key", "-CAcreateserial", "-out", server + ".pem",
        "-days", "2", "-extfile", dir.resolve("san.ext").toString())));
    String client = dir.resolve("client").toString();
    check(run(Duration.TOOL, List.of("openssl", "req", "-newkey", "rsa:2048", "-nodes",
        "-keyout", client + ".key", "-out", client + ".csr", "-subj", "/O=Ferry/CN=client")));
    check(run(Duration.TOOL, List.of("openssl", "x509", "-req", "-in", client + ".csr", "-CA",
        ca + ".pem", "-CAkey", ca + ".key", "-CAcreateserial", "-out", client + ".pem",
        "-days", "2")));
    check(run(Duration.TOOL, List.of("openssl", "pkcs12", "-export", "-in", client + ".pem",
        "-inkey", client + ".key", "-out", client + ".p12", "-passout",
        "pass:" + new String(STORE_PASSWORD))));
  }

  private void configure() throws Exception {
    Files.createDirectories(dir.resolve("slapd.d"));
    Files.createDirectories(dir.resolve("data"));
    String ldif = """
        dn: cn=config
        objectClass: olcGlobal
        cn: config
        olcPidFile: DIR/slapd.pid
        olcArgsFile: DIR/slapd.args
        olcTLSCACertificateFile: DIR/ca.pem
        olcTLSCertificateFile: DIR/server.pem
        olcTLSCertificateKeyFile: DIR/server.key
        olcTLSVerifyClient: try
        olcAuthzRegexp: {0}"cn=client,o=ferry" "CLIENT_DN"
        olcAuthzRegexp: {1}"uid=([^,]*),cn=digest-md5,cn=auth" "uid=$1,ou=people,SUFFIX"

        dn: cn=module,cn=config
        objectClass: olcModuleList
        cn: module
        olcModulePath: /usr/lib/ldap
        olcModuleLoad: back_mdb.so
        olcModuleLoad: pw-sha2.so
        olcModuleLoad: pw-pbkdf2.so
        olcModuleLoad: sssvlv.so

        dn: cn=schema,cn=config
        objectClass: olcSchemaConfig
        cn: schema

        include: file:///etc/ldap/schema/core.ldif

        include: file:///etc/ldap/schema/cosine.ldif

        include: file:///etc/ldap/schema/nis.ldif

        include: file:///etc/ldap/schema/inetorgperson.ldif

        dn: olcDatabase={-1}frontend,cn=config
        objectClass: olcDatabaseConfig
        objectClass: olcFrontendConfig
        olcDatabase: {-1}frontend
        olcSizeLimit: 1000

        dn: olcDatabase={1}mdb,cn=config
        objectClass: olcDatabaseConfig
        objectClass: olcMdbConfig
        olcDatabase: {1}mdb
        olcSuffix: SUFFIX
        olcRootDN: ADMIN
        olcRootPW: PASSWORD
        olcDbDirectory: DIR/data
        olcDbMaxSize: 67108864
        olcAccess: to * by * read

        dn: olcOverlay={0}sssvlv,olcDatabase={1}mdb,cn=config
        objectClass: olcOverlayConfig
        objectClass: olcSssVlvConfig
        olcOverlay: {0}sssvlv
        olcSssVlvMax: 1000
        olcSssVlvMaxPerConn: 64
        """.replace("DIR", dir.toString()).replace("CLIENT_DN", CLIENT_DN)
        .replace("SUFFIX", SUFFIX).replace("ADMIN", ADMIN).replace("PASSWORD", PASSWORD);
    Files.writeString(dir.resolve("config.ldif"), ldif);
    check(run(Duration.TOOL, List.of(SLAPADD.toString(), "-n", "0", "-F",
        dir.resolve("slapd.d").toString(), "-l", dir.resolve("config.ldif").toString())));
  }

  private void launch() throws Exception {
    // slapd daemonises: the launcher exits once the listener is up, leaving its pid file.
    check(run(Duration.TOOL, List.of(SLAPD.toString(), "-F", dir.resolve("slapd.d").toString(),
        "-h", "ldap://127.0.0.1:" + port + "/ ldaps://127.0.0.1:" + tlsPort
        + "/ ldaps://127.0.0.2:" + tlsPort + "/")));
    Path pidFile = dir.resolve("slapd.pid");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!Files.exists(pidFile) || Files.readString(pidFile).isBlank()) {
      if (System.nanoTime() > deadline) {
        fail("slapd wrote no pid file within 10 s");
      }
      Thread.sleep(20);
    }
    pid = Long.parseLong(Files.readString(pidFile).trim());
  }

  /** Waits until slapd answers a root DSE search on its plain port. */
  public void awaitReady() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      try (LdapConnection c = LdapConnection.connect("127.0.0.1", port)) {
        c.searchAll(SearchRequest.of("", SearchScope.BASE_OBJECT, Filter.present("objectClass"),
            "namingContexts"));
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  /** Returns a connection to the plain port, bound as the root DN. */
  public LdapConnection admin() throws IOException {
    LdapConnection c = LdapConnection.connect("127.0.0.1", port);
    c.bind(ADMIN, PASSWORD);
    return c;
  }

  /** Adds the suffix entry and {@code ou=people} under it. */
  public void addBaseEntries() throws IOException {
    try (LdapConnection c = admin()) {
      c.add(SUFFIX, List.of(Attribute.of("objectClass", "top", "dcObject", "organization"),
          Attribute.of("dc", "example"), Attribute.of("o", "Example")));
      c.add("ou=people," + SUFFIX, List.of(Attribute.of("objectClass", "organizationalUnit"),
          Attribute.of("ou", "people")));
    }
  }

  /** Returns a socket factory that trusts only the test CA. */
  SSLSocketFactory trustingTestCa() throws Exception {
    return sslContext(false).getSocketFactory();
  }

  /**
   * Returns a TLS context that trusts only the test CA and, if {@code withClientCertificate},
   * presents the client certificate ({@code cn=client,o=Ferry}).
   */
  public SSLContext sslContext(boolean withClientCertificate) throws Exception {
    KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
    ks.load(null, null);
    try (InputStream in = Files.newInputStream(dir.resolve("ca.pem"))) {
      ks.setCertificateEntry("ca", CertificateFactory.getInstance("X.509")
          .generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(ks);
    KeyManager[] keys = null;
    if (withClientCertificate) {
      KeyStore p12 = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(dir.resolve("client.p12"))) {
        p12.load(in, STORE_PASSWORD);
      }
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(p12, STORE_PASSWORD);
      keys = kmf.getKeyManagers();
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(keys, tmf.getTrustManagers(), null);
    return ctx;
  }

  /** Stops slapd (only its own pid, and waits for it to exit); {@link #restart()} starts it. */
  public void stop() {
    if (pid <= 0) {
      return;
    }
    ProcessHandle.of(pid).ifPresent(p -> {
      p.destroy();
      try {
        p.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        p.destroyForcibly();
      }
    });
    pid = -1;
  }

  /** Starts the stopped slapd again on the same ports, with its data. */
  public void restart() throws Exception {
    if (pid > 0) {
      throw new IllegalStateException("slapd is running");
    }
    Files.deleteIfExists(dir.resolve("slapd.pid"));
    launch();
  }

  /** Stops slapd (only its own pid) and deletes the folder. */
  @Override
  public void close() throws Exception {
    stop();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  private enum Duration {
    TOOL(30), INSTALL(600);

    final int seconds;

    Duration(int seconds) {
      this.seconds = seconds;
    }
  }

  private record Result(int exit, String output) {}

  private static Result run(Duration limit, List<String> command) throws Exception {
    // Output goes to a file, not a pipe: a daemon child could hold a pipe open forever.
    Path log = Files.createTempFile("ferry-cmd", ".log");
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      p.getOutputStream().close();
      if (!p.waitFor(limit.seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail(command + " did not finish within " + limit.seconds + " s");
      }
      return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /**
   * Runs a tool (such as {@code ldapsearch}) and returns its standard output; fails the test with
   * its standard error if it exits with anything but 0.
   */
  public static byte[] tool(List<String> command) throws Exception {
    Path out = Files.createTempFile("ferry-tool", ".out");
    Path err = Files.createTempFile("ferry-tool", ".err");
    try {
      Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
          .redirectError(err.toFile()).start();
      p.getOutputStream().close();
      if (!p.waitFor(Duration.TOOL.seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        fail(command + " did not finish within " + Duration.TOOL.seconds + " s");
      }
      if (p.exitValue() != 0) {
        fail(command + " failed (exit " + p.exitValue() + "): " + Files.readString(err));
      }
      return Files.readAllBytes(out);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static void check(Result r) {
    if (r.exit != 0) {
      fail("command failed (exit " + r.exit + "): " + r.output);
    }
  }
}
