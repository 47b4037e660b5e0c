package dev.ferry.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.security.internal.Expiry;
import dev.ferry.testkit.TestPki;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real handshakes over loopback sockets between settings made here. */
class TlsSettingsTest {
  private static TestPki pki;
  private static TestPki.Credential server;
  private static TestPki.Credential client;

  @TempDir
  Path dir;

  @BeforeAll
  static void keys() {
    pki = TestPki.create("CN=TLS Test CA");
    server = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1").make();
    client = pki.issue("CN=client,O=Ferry").make();
  }

  private TlsSettings.Builder serverSettings(TestPki.Credential c) throws IOException {
    return TlsSettings.builder().identity(KeyMaterial.pem(
        c.writeChainPem(dir.resolve("server.pem")), c.writeKeyPem(dir.resolve("server.key"))));
  }

  private TrustMaterial ca() throws IOException {
    return TrustMaterial.pem(TestPki.writePem(dir.resolve("ca.pem"), pki.certificate()));
  }

  /** One handshake: returns the chain the server saw from the client (null for none). */
  private static Certificate[] handshake(TlsSettings s, TlsSettings c, String host)
      throws Exception {
    try (SSLServerSocket listen = (SSLServerSocket) s.sslContext().getServerSocketFactory()
        .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      listen.setEnabledProtocols(s.protocols().toArray(String[]::new));
      listen.setEnabledCipherSuites(s.cipherSuites().toArray(String[]::new));
      if (s.clientAuth() == ClientAuth.REQUIRED) {
        listen.setNeedClientAuth(true);
      } else if (s.clientAuth() == ClientAuth.OPTIONAL) {
        listen.setWantClientAuth(true); // setNeedClientAuth(false) would undo this
      }
      CompletableFuture<Certificate[]> seen = CompletableFuture.supplyAsync(() -> {
        try (SSLSocket a = (SSLSocket) listen.accept()) {
          a.setSoTimeout(5000);
          a.startHandshake();
          a.getOutputStream().write(1);
          a.getOutputStream().flush();
          try {
            return a.getSession().getPeerCertificates();
          } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
            return null;
          }
        } catch (IOException e) {
          return null;
        }
      });
      try (SSLSocket k = (SSLSocket) c.sslContext().getSocketFactory().createSocket(host,
          listen.getLocalPort())) {
        k.setSoTimeout(5000);
        SSLParameters p = k.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        p.setProtocols(c.protocols().toArray(String[]::new));
        p.setCipherSuites(c.cipherSuites().toArray(String[]::new));
        k.setSSLParameters(p);
        k.startHandshake();
        if (k.getInputStream().read() != 1) { // TLS 1.3: a refused certificate shows here
          throw new SSLException("the server closed the connection");
        }
      }
      return seen.get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void clientCertificateRequiredOrNot() throws Exception {
    TlsSettings required = serverSettings(server).trust(ca())
        .clientAuth(ClientAuth.REQUIRED).build();
    TlsSettings withCert = TlsSettings.builder().trust(ca()).identity(KeyMaterial.of(
        client.key(), client.chain())).build();
    TlsSettings withoutCert = TlsSettings.builder().trust(ca()).build();
    Certificate[] seen = handshake(required, withCert, "localhost");
    assertThat(((X509Certificate) seen[0]).getSubjectX500Principal().getName())
        .isEqualTo("CN=client,O=Ferry");
    assertThatThrownBy(() -> handshake(required, withoutCert, "localhost"))
        .isInstanceOf(IOException.class);
    TlsSettings optional = serverSettings(server).trust(ca()).clientAuth(ClientAuth.OPTIONAL)
        .build();
    assertThat(handshake(optional, withoutCert, "127.0.0.1")).isNull();
    assertThat(handshake(optional, withCert, "127.0.0.1")).hasSize(2);
  }

  @Test
  void aClientCertificateFromAnotherCaIsRefused() throws Exception {
    TestPki other = TestPki.create("CN=Other CA");
    TestPki.Credential stranger = other.issue("CN=client,O=Ferry").make();
    TlsSettings required = serverSettings(server).trust(ca())
        .clientAuth(ClientAuth.REQUIRED).build();
    TlsSettings c = TlsSettings.builder().trust(ca())
        .identity(KeyMaterial.of(stranger.key(), stranger.chain())).build();
    // refused by the server after the client's Finished (TLS 1.3): an alert or a reset
    assertThatThrownBy(() -> handshake(required, c, "localhost"))
        .isInstanceOf(IOException.class);
  }

  @Test
  void wrongHostAndExpiredCertificateAndUnknownCaAreRefused() throws Exception {
    TlsSettings trusting = TlsSettings.builder().trust(ca()).build();
    TestPki.Credential elsewhere = pki.issue("CN=elsewhere").dns("elsewhere.example").make();
    assertThatThrownBy(() -> handshake(serverSettings(elsewhere).build(), trusting, "localhost"))
        .isInstanceOf(SSLHandshakeException.class).hasMessageContaining("localhost");
    TestPki.Credential expired = pki.issue("CN=localhost").dns("localhost")
        .validity(Instant.now().minus(Duration.ofDays(3)), Instant.now().minus(Duration.ofDays(1)))
        .make();
    assertThatThrownBy(() -> handshake(serverSettings(expired).build(), trusting, "localhost"))
        .isInstanceOf(SSLHandshakeException.class).hasStackTraceContaining("expired");
    assertThatThrownBy(() -> handshake(serverSettings(server).build(), TlsSettings.jdkDefault(),
        "localhost")).isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void aCertificateExpiredOrExpiringSoonIsSaidAndMeasured() throws Exception {
    Instant now = Instant.now();
    TestPki.Credential expired = pki.issue("CN=old,O=Ferry").validity(now.minus(
        Duration.ofDays(40)), now.minus(Duration.ofDays(1))).make();
    assertThat(Expiry.check(expired.certificate(), "old.pem", now)).contains("CN=old,O=Ferry")
        .contains("(old.pem) expired on").contains("clients will refuse it");
    assertThat(serverSettings(expired).build().certificateSecondsLeft()).isNegative();
    TestPki.Credential soon = pki.issue("CN=soon,O=Ferry").validity(now.minus(
        Duration.ofDays(1)), now.plus(Duration.ofDays(10)).plusSeconds(60)).make();
    assertThat(Expiry.check(soon.certificate(), "soon.pem", now)).contains("expires on")
        .contains("in 10 days");
    assertThat(serverSettings(soon).build().certificateSecondsLeft())
        .isBetween(9.0 * 86_400, 10.0 * 86_400 + 60);
    assertThat(Expiry.check(server.certificate(), "server.pem", now)).isNull();
    assertThat(serverSettings(server).build().certificateSecondsLeft()).isPositive();
    assertThat(TlsSettings.jdkDefault().certificateSecondsLeft()).isNaN();
  }

  @Test
  void weakProtocolsAndSuitesAreOff() throws Exception {
    TlsSettings s = serverSettings(server).build();
    assertThat(s.protocols()).containsExactly("TLSv1.3", "TLSv1.2");
    assertThat(s.cipherSuites()).isNotEmpty().allMatch(c -> c.startsWith("TLS_AES")
        || c.startsWith("TLS_CHACHA20") || c.startsWith("TLS_ECDHE_")
        && (c.contains("_GCM_") || c.contains("CHACHA20")));
    TlsSettings tls12 = TlsSettings.builder().trust(ca()).protocols("TLSv1.2").build();
    assertThat(handshake(s, tls12, "localhost")).isNull();
    assertThatThrownBy(() -> TlsSettings.builder().protocols("TLSv1.1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TLSv1.3");
    // a peer that offers only TLS 1.1 (the JDK's own context) finds no common protocol
    javax.net.ssl.SSLContext old = javax.net.ssl.SSLContext.getInstance("TLS");
    old.init(null, new javax.net.ssl.TrustManager[] {tls12.trustManager()}, null);
    try (SSLServerSocket listen = (SSLServerSocket) s.sslContext().getServerSocketFactory()
        .createServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      listen.setEnabledProtocols(s.protocols().toArray(String[]::new));
      CompletableFuture.runAsync(() -> {
        try (SSLSocket a = (SSLSocket) listen.accept()) {
          a.startHandshake();
        } catch (IOException e) {
          // expected: no common protocol
        }
      });
      try (SSLSocket k = (SSLSocket) old.getSocketFactory().createSocket("localhost",
          listen.getLocalPort())) {
        k.setEnabledProtocols(new String[] {"TLSv1.1"});
        assertThatThrownBy(k::startHandshake).isInstanceOf(SSLException.class);
      }
    }
  }

  @Test
  void clientAuthWithoutTrustIsAMistake() {
    assertThatThrownBy(() -> serverSettings(server).clientAuth(ClientAuth.REQUIRED).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("trust(");
  }

  @Test
  void keyAndTrustFilesAreReadAgainWhenTheyChange() throws Exception {
    Path chain = dir.resolve("live.pem");
    Path key = dir.resolve("live.key");
    server.writeChainPem(chain);
    server.writeKeyPem(key);
    TlsSettings s = TlsSettings.builder().identity(KeyMaterial.pem(chain, key))
        .reloadInterval(Duration.ZERO).build();
    TlsSettings c = TlsSettings.builder().trust(ca()).build();
    handshake(s, c, "localhost");
    assertThat(s.currentChain()[0]).isEqualTo(server.certificate());

    TestPki.Credential renewed = pki.issue("CN=localhost").dns("localhost").make();
    renewed.writeChainPem(chain);
    renewed.writeKeyPem(key);
    awaitChange(s, renewed.certificate());
    handshake(s, c, "localhost");

    // a file half written leaves the last good key in use
    java.nio.file.Files.writeString(key, "-----BEGIN PRIVATE KEY-----\nMIIB");
    Thread.sleep(20);
    assertThat(s.currentChain()[0]).isEqualTo(renewed.certificate());
    handshake(s, c, "localhost");
  }

  private static void awaitChange(TlsSettings s, X509Certificate expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!s.currentChain()[0].equals(expected) && System.nanoTime() < deadline) {
      Thread.sleep(10); // the files' modification times must differ from the first ones
    }
    assertThat(s.currentChain()[0]).isEqualTo(expected);
  }
}
