package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.sample.EchoService;
import dev.ferry.security.Authenticator;
import dev.ferry.security.ClientAuth;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.PasswordFile;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's TLS against a bare TLS server: trust, host names, its own certificate. */
class ClientTlsTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static TestPki pki;
  private static TestPki.Credential localhost;
  private static TestPki.Credential client;

  @BeforeAll
  static void keys() {
    pki = TestPki.create("CN=Client TLS Test CA");
    localhost = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1").make();
    client = pki.issue("CN=client,O=Ferry").make();
  }

  private static Payload ping() {
    return CODEC.payload(SoapVersion.SOAP_11, MtomPolicy.NEVER, List.of(), w -> {
      w.writeStartElement("ping");
      w.writeEndElement();
    });
  }

  private static CannedServer server(TestPki.Credential cert, ClientAuth auth)
      throws IOException {
    TlsSettings.Builder b = TlsSettings.builder().identity(KeyMaterial.of(cert.key(),
        cert.chain()));
    if (auth != ClientAuth.NONE) {
      b.trust(TrustMaterial.of(pki.certificate())).clientAuth(auth);
    }
    return new CannedServer(CannedServer.soapReply(""), b.build().sslContext(),
        auth == ClientAuth.REQUIRED);
  }

  private static SoapClient client(TestPki.Credential own) throws IOException {
    TlsSettings.Builder b = TlsSettings.builder().trust(TrustMaterial.of(pki.certificate()));
    if (own != null) {
      b.identity(KeyMaterial.of(own.key(), own.chain()));
    }
    return SoapClient.builder().tls(b.build()).timeout(Duration.ofSeconds(10)).build();
  }

  private static URI https(String host, CannedServer s) {
    return URI.create("https://" + host + ":" + s.port() + "/echo");
  }

  @Test
  void callsAServerItsTrustAcceptsForTheRightHost() throws Exception {
    try (CannedServer s = server(localhost, ClientAuth.NONE); SoapClient c = client(null)) {
      for (String host : List.of("localhost", "127.0.0.1")) {
        try (SoapResponse r = c.call(https(host, s), ping(), null)) {
          assertThat(r.message().body().utf8()).contains("<ok/>");
        }
      }
      try (SoapResponse r = c.callAsync(SoapRequest.builder(https("localhost", s), ping())
          .build()).get()) {
        assertThat(r.status()).isEqualTo(200);
      }
    }
  }

  @Test
  void refusesAnotherHostsCertificateAnUnknownCaAndAnExpiredOne() throws Exception {
    TestPki.Credential elsewhere = pki.issue("CN=elsewhere").dns("elsewhere.example").make();
    try (CannedServer s = server(elsewhere, ClientAuth.NONE); SoapClient c = client(null)) {
      assertThatThrownBy(() -> c.call(https("localhost", s), ping(), null))
          .isInstanceOf(SSLException.class).hasMessageContaining("localhost");
    }
    try (CannedServer s = server(localhost, ClientAuth.NONE);
        SoapClient jdk = SoapClient.create()) {
      assertThatThrownBy(() -> jdk.call(https("localhost", s), ping(), null))
          .isInstanceOf(SSLException.class).hasMessageContaining("PKIX");
    }
    TestPki.Credential expired = pki.issue("CN=localhost").dns("localhost")
        .validity(Instant.now().minus(Duration.ofDays(9)), Instant.now().minus(Duration.ofDays(2)))
        .make();
    try (CannedServer s = server(expired, ClientAuth.NONE); SoapClient c = client(null)) {
      assertThatThrownBy(() -> c.call(https("localhost", s), ping(), null))
          .isInstanceOf(SSLException.class).hasStackTraceContaining("expired");
    }
  }

  @Test
  void showsItsCertificateWhereOneIsRequired() throws Exception {
    try (CannedServer s = server(localhost, ClientAuth.REQUIRED)) {
      try (SoapClient c = client(client); SoapResponse r = c.call(https("localhost", s), ping(),
          null)) {
        assertThat(r.status()).isEqualTo(200);
      }
      try (SoapClient c = client(null)) {
        // TLS 1.3: the server refuses after the client's Finished, as the request goes out
        assertThatThrownBy(() -> c.call(https("localhost", s), ping(), null))
            .isInstanceOf(IOException.class);
      }
    }
  }

  @Test
  void callsFerrysServerOverTlsWithACertificateOrBasicCredentials(@TempDir Path dir)
      throws Exception {
    Path serverPem = localhost.writeChainPem(dir.resolve("server.pem"));
    Path serverKey = localhost.writeKeyPem(dir.resolve("server.key"));
    Path caPem = TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    Path clientPem = client.writeChainPem(dir.resolve("client.pem"));
    Path clientKey = client.writeKeyPem(dir.resolve("client.key"));
    Path users = Files.writeString(dir.resolve("users.txt"), PasswordFile.line("alice",
        "wonderland".toCharArray(), PasswordFile.MIN_ITERATIONS) + "\n");
    // tag::tls-server[]
    TlsSettings tls = TlsSettings.builder()
        .identity(KeyMaterial.pem(serverPem, serverKey)) // read again when the files change
        .trust(TrustMaterial.pem(caPem))                 // client certificates chain to this CA
        .clientAuth(ClientAuth.OPTIONAL)
        .build();
    ServerOptions options = ServerOptions.builder()
        .authenticator(Authenticator.basic(PasswordFile.load(users)).orCertificate())
        .build();
    try (SoapServer server = SoapServer.builder().tls(tls).options(options)
        .endpoint("/echo", EchoService.dispatcher()).build().start()) {
      // end::tls-server[]
      URI uri = https("localhost", server.port());
      Payload echo = EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "tls",
          ByteString.encodeUtf8("secret blob"));
      // tag::tls-client[]
      TlsSettings clientTls = TlsSettings.builder()
          .trust(TrustMaterial.pem(caPem))                 // the server's host name is checked
          .identity(KeyMaterial.pem(clientPem, clientKey)) // shown when the server asks
          .build();
      try (SoapClient c = SoapClient.builder().tls(clientTls).build();
          SoapResponse reply = c.call(uri, echo, null)) {
        assertThat(EchoService.readEcho(reply.message()).name()).isEqualTo("tls");
      }
      // end::tls-client[]
      try (SoapClient c = client(null)) {
        assertThatThrownBy(() -> c.call(uri, ping(), null))
            .isInstanceOf(SoapHttpException.class).hasMessageContaining("HTTP 401");
        // tag::basic-call[]
        SoapRequest request = SoapRequest.builder(uri, ping())
            .basicAuth("alice", "wonderland")  // or .bearerToken(token)
            .header("X-Request-Id", "42")
            .timeout(Duration.ofSeconds(5))     // this call's own timeout of progress
            .build();
        try (SoapResponse reply = c.call(request)) {
          assertThat(reply.status()).isEqualTo(500); // let in: the echo faults on <ping/>
        }
        // end::basic-call[]
      }
    }
  }

  private static URI https(String host, int port) {
    return URI.create("https://" + host + ":" + port + "/echo");
  }
}
