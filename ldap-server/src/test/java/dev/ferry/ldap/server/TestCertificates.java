package dev.ferry.ldap.server;

import java.io.IOException;
import java.io.InputStream;
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
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away test CA with a server certificate for localhost and 127.0.0.1 and a client
 * certificate for {@code CN=client,O=Ferry}, made with {@code openssl} in a temp folder, and the
 * TLS contexts that use them.
 */
final class TestCertificates implements AutoCloseable {
  static final String CLIENT_SUBJECT = "CN=client,O=Ferry";
  private static final char[] PASSWORD = "changeit".toCharArray();

  final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  static TestCertificates create() throws Exception {
    TestCertificates t = new TestCertificates(Files.createTempDirectory("ferry-tls-"));
    try {
      t.make();
      return t;
    } catch (Exception | AssertionError e) {
      t.close();
      throw e;
    }
  }

  private void make() throws Exception {
    String ca = file("ca");
    run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
        "-nodes", "-keyout", ca + ".key", "-out", ca + ".pem", "-days", "2", "-subj",
        "/CN=Ferry Test CA");
    Files.writeString(dir.resolve("san.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
    sign("server", "/CN=localhost", dir.resolve("san.ext").toString());
    sign("client", "/O=Ferry/CN=client", null);
  }

  private void sign(String name, String subject, String extensions) throws Exception {
    String f = file(name);
    run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
        "-keyout", f + ".key", "-out", f + ".csr", "-subj", subject);
    List<String> x509 = new java.util.ArrayList<>(List.of("openssl", "x509", "-req", "-in",
        f + ".csr", "-CA", file("ca") + ".pem", "-CAkey", file("ca") + ".key",
        "-CAcreateserial", "-out", f + ".pem", "-days", "2"));
    if (extensions != null) {
      x509.addAll(List.of("-extfile", extensions));
    }
    run(x509.toArray(String[]::new));
    run("openssl", "pkcs12", "-export", "-in", f + ".pem", "-inkey", f + ".key", "-out",
        f + ".p12", "-passout", "pass:" + new String(PASSWORD));
  }

  String file(String name) {
    return dir.resolve(name).toString();
  }

  /** The CA certificate's PEM file, for OpenLDAP's tools and Python. */
  Path caPem() {
    return dir.resolve("ca.pem");
  }

  /** The server's context: its key, and the CA to check client certificates with. */
  SSLContext server() throws Exception {
    return context("server");
  }

  /** A client's context trusting the CA, with the client certificate if asked. */
  SSLContext client(boolean withCertificate) throws Exception {
    return context(withCertificate ? "client" : null);
  }

  private SSLContext context(String keyName) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(caPem())) {
      trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509")
          .generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    KeyManager[] keys = null;
    if (keyName != null) {
      KeyStore p12 = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(dir.resolve(keyName + ".p12"))) {
        p12.load(in, PASSWORD);
      }
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(p12, PASSWORD);
      keys = kmf.getKeyManagers();
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(keys, tmf.getTrustManagers(), null);
    return ctx;
  }

  private void run(String... command) throws Exception {
    Path log = Files.createTempFile(dir, "openssl", ".log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    p.getOutputStream().close();
    if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", command) + " failed: " + Files.readString(log));
    }
  }

  @Override
  public void close() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }
}
