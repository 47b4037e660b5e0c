package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.cli.FerryCliTest.Result;
import dev.ferry.testkit.TestPki;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ferry serve} and {@code ferry broker} with TLS and callers, {@code send} with trust. */
class SecureCommandsCliTest {
  @TempDir Path dir;

  @Test
  void passwdServeAndSendWithTlsAndBasicAndBrokerWithClientCertificates() throws Exception {
    TestPki pki = TestPki.create("CN=CLI Test CA");
    TestPki.Credential server = pki.issue("CN=localhost").dns("localhost").make();
    TestPki.Credential client = pki.issue("CN=client,O=Ferry").make();
    Path ca = TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    Path cert = server.writeChainPem(dir.resolve("server.pem"));
    Path key = server.writeKeyPem(dir.resolve("server.key"));
    Path clientCert = client.writeChainPem(dir.resolve("client.pem"));
    Path clientKey = client.writeKeyPem(dir.resolve("client.key"));

    Result line = withStdin("wonderland\n", () -> ferry("passwd", "alice"));
    assertThat(line.exit()).as(line.err()).isZero();
    assertThat(line.out()).startsWith("alice:pbkdf2-sha256:600000:");
    Path users = Files.writeString(dir.resolve("users.txt"), line.out());

    try (RunningFerry serve = new RunningFerry("serve", "--port", "0", "--host", "localhost",
        "--tls-cert", cert.toString(), "--tls-key", key.toString(), "--users",
        users.toString())) {
      String url = serve.awaitUrl("echo service at ");
      assertThat(url).startsWith("https://localhost:");
      Result noTrust = ferry("send", "--url", url, "--size", "1K");
      assertThat(noTrust.exit()).isNotZero();
      Result noUser = ferry("send", "--url", url, "--size", "1K", "--trust", ca.toString());
      assertThat(noUser.exit()).isNotZero();
      assertThat(noUser.err()).contains("401");
      Result ok = ferry("send", "--url", url, "--size", "1K", "--trust", ca.toString(),
          "--user", "alice:wonderland", "-H", "X-Trace: cli");
      assertThat(ok.exit()).as(ok.err()).isZero();
      assertThat(ok.out()).contains("identical");

      assertThat(serve.stop()).isZero();
    }
    try (RunningFerry open = new RunningFerry("serve", "--port", "0", "--host", "localhost",
        "--tls-cert", cert.toString(), "--tls-key", key.toString())) {
      String backend = open.awaitUrl("echo service at ");
      Path routes = Files.writeString(dir.resolve("routes.yaml"), "routes:\n  - path: /echo\n"
          + "    to: " + backend + "\n    require: [\"CN=client,O=Ferry\"]\n    backendTls:\n"
          + "      trust: ca.pem\n");
      try (RunningFerry broker = new RunningFerry("broker", "--routes", routes.toString(),
          "--port", "0", "--tls-cert", cert.toString(), "--tls-key", key.toString(),
          "--client-ca", ca.toString(), "--cert-auth")) {
        String brokered = broker.awaitUrl("  ").replace("127.0.0.1", "localhost");
        Result through = ferry("send", "--url", brokered, "--size", "2K", "--trust",
            ca.toString(), "--cert", clientCert.toString(), "--key", clientKey.toString());
        assertThat(through.exit()).as(through.out() + through.err()).isZero();
        Result noCert = ferry("send", "--url", brokered, "--size", "2K", "--trust",
            ca.toString());
        assertThat(noCert.exit()).isNotZero();
        assertThat(broker.stop()).isZero();
      }
      assertThat(open.stop()).isZero();
    }
    Result bad = ferry("serve", "--port", "0", "--tls-cert", cert.toString());
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("--tls-key");
  }

  private static Result withStdin(String text, java.util.function.Supplier<Result> run) {
    InputStream before = System.in;
    System.setIn(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    try {
      return run.get();
    } finally {
      System.setIn(before);
    }
  }
}
