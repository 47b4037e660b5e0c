package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.security.Authenticator;
import dev.ferry.security.ClientAuth;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.PasswordFile;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.testkit.TestPki;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server with TLS (PEM files, client certificates, reload) and authenticated callers. */
class ServerSecurityTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap"
      + "/envelope/\"><s:Body><q/></s:Body></s:Envelope>";
  private static TestPki pki;
  private static TestPki.Credential localhost;
  private static TestPki.Credential client;

  @TempDir
  Path dir;

  @BeforeAll
  static void keys() {
    pki = TestPki.create("CN=Server Test CA");
    localhost = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1").make();
    client = pki.issue("CN=client,O=Ferry").make();
  }

  /** Answers with who the caller is: principal, auth type. */
  private static Dispatcher whoAmI() {
    return Dispatcher.builder().fallback(new Endpoint() {
      @Override
      public Payload handle(Message request) {
        throw new AssertionError("the HTTP request was not passed");
      }

      @Override
      public Payload handle(Message request, HttpServletRequest http) {
        String who = http.getUserPrincipal() == null ? "nobody"
            : http.getUserPrincipal().getName() + " by " + http.getAuthType();
        return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), body -> {
          body.writeStartElement("who");
          body.writeCharacters(who);
          body.writeEndElement();
        });
      }
    }).build();
  }

  private TlsSettings.Builder serverTls(TestPki.Credential c) throws IOException {
    return TlsSettings.builder().identity(KeyMaterial.pem(
        c.writeChainPem(dir.resolve("server.pem")), c.writeKeyPem(dir.resolve("server.key"))));
  }

  private static SSLContext clientContext(TestPki.Credential own) throws IOException {
    TlsSettings.Builder b = TlsSettings.builder().trust(TrustMaterial.of(pki.certificate()));
    if (own != null) {
      b.identity(KeyMaterial.of(own.key(), own.chain()));
    }
    return b.build().sslContext();
  }

  private static HttpResponse<String> post(HttpClient http, URI uri, String authorization)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).header("Content-Type", "text/xml")
        .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(ENVELOPE));
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
        .getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void servesHttpsWithACertificateFromPemFiles() throws Exception {
    try (SoapServer server = SoapServer.builder().tls(serverTls(localhost).build())
        .endpoint("/who", whoAmI()).build().start();
        HttpClient http = HttpClient.newBuilder().sslContext(clientContext(null)).build()) {
      assertThat(server.uri("/who").getScheme()).isEqualTo("https");
      URI byName = URI.create("https://localhost:" + server.port() + "/who");
      HttpResponse<String> r = post(http, byName, null);
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.body()).contains("<who>nobody</who>");
      // how long the certificate has left, for an alert well before clients refuse it
      assertThat(server.metrics().scrape()).containsPattern(
          "ferry_tls_certificate_expiry_seconds [0-9.E]+");
      // plain HTTP to the TLS listener is not served: a TLS alert record (0x15) comes back
      try (java.net.Socket plain = new java.net.Socket(InetAddress.getLoopbackAddress(),
          server.port())) {
        plain.setSoTimeout(5000);
        plain.getOutputStream().write(("POST /who HTTP/1.1\r\nHost: x\r\nContent-Type: "
            + "text/xml\r\nContent-Length: " + ENVELOPE.length() + "\r\n\r\n" + ENVELOPE)
            .getBytes(StandardCharsets.US_ASCII));
        byte[] answer = plain.getInputStream().readNBytes(12);
        assertThat(answer).isNotEmpty();
        assertThat(answer[0]).isEqualTo((byte) 0x15);
      }
    }
  }

  @Test
  void aRequiredClientCertificateIsTheCallersIdentity() throws Exception {
    TlsSettings tls = serverTls(localhost).trust(TrustMaterial.of(pki.certificate()))
        .clientAuth(ClientAuth.REQUIRED).build();
    ServerOptions options = ServerOptions.builder().authenticator(Authenticator.certificate())
        .build();
    try (SoapServer server = SoapServer.builder().tls(tls).options(options)
        .endpoint("/who", whoAmI()).build().start()) {
      URI uri = URI.create("https://localhost:" + server.port() + "/who");
      try (HttpClient http = HttpClient.newBuilder().sslContext(clientContext(client)).build()) {
        assertThat(post(http, uri, null).body())
            .contains("<who>CN=client,O=Ferry by CLIENT_CERT</who>");
      }
      try (HttpClient http = HttpClient.newBuilder().sslContext(clientContext(null)).build()) {
        assertThatThrownBy(() -> post(http, uri, null)).isInstanceOf(IOException.class);
      }
    }
  }

  @Test
  void basicCallersAreCheckedAgainstThePasswordFile() throws Exception {
    Path users = Files.writeString(dir.resolve("users.txt"),
        PasswordFile.line("alice", "wonderland".toCharArray(), PasswordFile.MIN_ITERATIONS)
        + "\n");
    ServerOptions options = ServerOptions.builder()
        .authenticator(Authenticator.basic(PasswordFile.load(users))).build();
    try (SoapServer server = SoapServer.builder().options(options).endpoint("/who", whoAmI())
        .build().start(); HttpClient http = HttpClient.newHttpClient()) {
      URI uri = server.uri("/who");
      HttpResponse<String> none = post(http, uri, null);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate"))
          .hasValue("Basic realm=\"ferry\", charset=\"UTF-8\"");
      assertThat(none.body()).contains("no credentials");
      HttpResponse<String> wrong = post(http, uri, basic("alice", "guess"));
      assertThat(wrong.statusCode()).isEqualTo(401);
      assertThat(wrong.body()).contains("wrong user or password").doesNotContain("guess");
      assertThat(post(http, uri, basic("mallory", "wonderland")).statusCode()).isEqualTo(401);
      HttpResponse<String> right = post(http, uri, basic("alice", "wonderland"));
      assertThat(right.statusCode()).isEqualTo(200);
      assertThat(right.body()).contains("<who>alice by BASIC</who>");
      // the WSDL is behind the same door; /health is not
      assertThat(http.send(HttpRequest.newBuilder(URI.create(uri + "?wsdl")).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode()).isIn(401, 405);
      assertThat(http.send(HttpRequest.newBuilder(server.uri("/health")).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void attacksOnTlsFail() throws Exception {
    TestPki.Credential elsewhere = pki.issue("CN=elsewhere").dns("elsewhere.example").make();
    try (SoapServer server = SoapServer.builder().tls(serverTls(elsewhere).build())
        .endpoint("/who", whoAmI()).build().start();
        HttpClient http = HttpClient.newBuilder().sslContext(clientContext(null)).build()) {
      assertThatThrownBy(() -> post(http, URI.create("https://localhost:" + server.port()
          + "/who"), null)).isInstanceOf(SSLHandshakeException.class);
    }
    TestPki.Credential expired = pki.issue("CN=localhost").dns("localhost")
        .validity(Instant.now().minus(Duration.ofDays(5)), Instant.now().minus(Duration.ofDays(1)))
        .make();
    try (SoapServer server = SoapServer.builder().tls(serverTls(expired).build())
        .endpoint("/who", whoAmI()).build().start();
        HttpClient http = HttpClient.newBuilder().sslContext(clientContext(null)).build()) {
      assertThatThrownBy(() -> post(http, URI.create("https://localhost:" + server.port()
          + "/who"), null)).isInstanceOf(SSLHandshakeException.class)
          .hasStackTraceContaining("expired");
    }
  }

  @Test
  void aRenewedCertificateIsServedWithoutARestart() throws Exception {
    Path chain = dir.resolve("live.pem");
    Path key = dir.resolve("live.key");
    localhost.writeChainPem(chain);
    localhost.writeKeyPem(key);
    TlsSettings tls = TlsSettings.builder().identity(KeyMaterial.pem(chain, key))
        .reloadInterval(Duration.ofMillis(50)).build();
    try (SoapServer server = SoapServer.builder().tls(tls).endpoint("/who", whoAmI()).build()
        .start()) {
      assertThat(servedCertificate(server.port())).isEqualTo(localhost.certificate());
      TestPki.Credential renewed = pki.issue("CN=localhost").dns("localhost").make();
      renewed.writeChainPem(chain);
      renewed.writeKeyPem(key);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      X509Certificate seen;
      while (!(seen = servedCertificate(server.port())).equals(renewed.certificate())
          && System.nanoTime() < deadline) {
        Thread.sleep(60);
      }
      assertThat(seen).isEqualTo(renewed.certificate());
    }
  }

  private static X509Certificate servedCertificate(int port) throws IOException {
    try (SSLSocket s = (SSLSocket) clientContext(null).getSocketFactory().createSocket(
        InetAddress.getLoopbackAddress(), port)) {
      s.startHandshake();
      return (X509Certificate) s.getSession().getPeerCertificates()[0];
    }
  }
}
