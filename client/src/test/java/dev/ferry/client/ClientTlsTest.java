package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.security.ClientAuth;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
  void callsFerrysServerOverTlsWithACertificateOrBasicCredentials() throws Exception {
    java.nio.file.Path users = java.nio.file.Files.createTempFile("users", ".txt");
    try {
      java.nio.file.Files.writeString(users, dev.ferry.security.PasswordFile.line("alice",
          "wonderland".toCharArray(), dev.ferry.security.PasswordFile.MIN_ITERATIONS));
      TlsSettings tls = TlsSettings.builder().identity(KeyMaterial.of(localhost.key(),
          localhost.chain())).trust(TrustMaterial.of(pki.certificate()))
          .clientAuth(ClientAuth.OPTIONAL).build();
      dev.ferry.server.ServerOptions options = dev.ferry.server.ServerOptions.builder()
          .authenticator(dev.ferry.security.Authenticator.basic(
              dev.ferry.security.PasswordFile.load(users)).orCertificate()).build();
      try (dev.ferry.server.SoapServer server = dev.ferry.server.SoapServer.builder().tls(tls)
          .options(options).endpoint("/echo", dev.ferry.sample.EchoService.dispatcher())
          .build().start()) {
        URI uri = https("localhost", server.port());
        Payload echo = dev.ferry.sample.EchoService.request(CODEC, SoapVersion.SOAP_11,
            MtomPolicy.ALWAYS, "tls", dev.ferry.bytes.ByteString.encodeUtf8("secret blob"));
        try (SoapClient c = client(client); SoapResponse r = c.call(uri, echo, null)) {
          assertThat(dev.ferry.sample.EchoService.readEcho(r.message()).name()).isEqualTo("tls");
        }
        try (SoapClient c = client(null)) {
          assertThatThrownBy(() -> c.call(uri, ping(), null))
              .isInstanceOf(SoapHttpException.class).hasMessageContaining("HTTP 401");
          try (SoapResponse r = c.call(SoapRequest.builder(uri, ping())
              .basicAuth("alice", "wonderland").build())) {
            assertThat(r.status()).isEqualTo(500); // through: the echo faults on <ping/>
          }
        }
      }
    } finally {
      java.nio.file.Files.delete(users);
    }
  }

  private static URI https(String host, int port) {
    return URI.create("https://" + host + ":" + port + "/echo");
  }
}
