package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapHttpException;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.security.Authenticator;
import dev.ferry.security.ClientAuth;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.PasswordFile;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The broker's TLS listener, its callers' authentication, routes' callers and backend TLS. */
class BrokerSecurityTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static TestPki pki;
  private static TestPki.Credential localhost;
  private static TestPki.Credential client;
  private static TestPki.Credential brokerCert;
  @AutoClose
  final Closer open = new Closer();

  @TempDir
  Path dir;

  @BeforeAll
  static void keys() {
    pki = TestPki.create("CN=Broker Test CA");
    localhost = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1").make();
    client = pki.issue("CN=client,O=Ferry").make();
    brokerCert = pki.issue("CN=broker,O=Ferry").make();
  }

  private <T extends AutoCloseable> T keep(T c) {
    return open.keep(c);
  }

  /** A backend answering with who the broker said called, and who the backend's TLS saw. */
  private static Dispatcher whoCalled() {
    return Dispatcher.builder().fallback(new Endpoint() {
      @Override
      public Payload handle(Message request) {
        throw new AssertionError();
      }

      @Override
      public Payload handle(Message request, HttpServletRequest http) {
        String seen = http.getHeader("X-Caller") + " via " + (http.getUserPrincipal() == null
            ? "plain" : http.getUserPrincipal().getName());
        return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), body -> {
          body.writeStartElement("seen");
          body.writeCharacters(seen);
          body.writeEndElement();
        });
      }
    }).build();
  }

  private static Payload ping() {
    return CODEC.payload(SoapVersion.SOAP_11, MtomPolicy.NEVER, List.of(), w -> {
      w.writeStartElement("ping");
      w.writeEndElement();
    });
  }

  private static String seen(SoapResponse r) throws IOException {
    String body = r.message().body().utf8();
    return body.substring(body.indexOf("<seen>") + 6, body.indexOf("</seen>"));
  }

  private SoapClient tlsClient(TestPki.Credential own) throws IOException {
    TlsSettings.Builder b = TlsSettings.builder().trust(TrustMaterial.of(pki.certificate()));
    if (own != null) {
      b.identity(KeyMaterial.of(own.key(), own.chain()));
    }
    return keep(SoapClient.builder().tls(b.build()).timeout(Duration.ofSeconds(20)).build());
  }

  @Test
  void aTlsListenerTakesTheClientCertificateAsTheIdentityAndPassesItOn() throws Exception {
    SoapServer backend = keep(SoapServer.builder().endpoint("/who", whoCalled()).build().start());
    Path pem = localhost.writeChainPem(dir.resolve("broker.pem"));
    Path key = localhost.writeKeyPem(dir.resolve("broker.key"));
    Path ca = TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    Path routes = Files.writeString(dir.resolve("routes.yaml"), "routes:\n  - path: /who\n"
        + "    to: " + backend.uri("/who") + "\n    require: [\"CN=client,O=Ferry\"]\n"
        + "    identityHeader: X-Caller\n");
    // tag::broker-tls[]
    TlsSettings tls = TlsSettings.builder()
        .identity(KeyMaterial.pem(pem, key))
        .trust(TrustMaterial.pem(ca))
        .clientAuth(ClientAuth.REQUIRED)
        .build();
    Broker broker = Broker.builder().tls(tls)
        .authenticator(Authenticator.certificate()) // the certificate's subject is the caller
        .routes(Routes.load(routes))                // require: and identityHeader: per route
        .build().start();
    // end::broker-tls[]
    keep(broker);
    URI uri = URI.create("https://localhost:" + broker.port() + "/who");
    assertThat(broker.uri("/who").getScheme()).isEqualTo("https");
    try (SoapResponse r = tlsClient(client).call(uri, ping(), null)) {
      assertThat(seen(r)).isEqualTo("CN=client,O=Ferry via plain");
    }
    try (SoapResponse r = tlsClient(brokerCert).call(uri, ping(), null)) {
      assertThat(r.isFault()).isTrue(); // trusted, authenticated, but not one the route takes
      assertThat(r.fault().reason()).isEqualTo("CN=broker,O=Ferry may not call /who");
    }
    SoapClient anonymous = tlsClient(null);
    assertThatThrownBy(() -> anonymous.call(uri, ping(), null)).isInstanceOf(IOException.class);
  }

  @Test
  void basicCallersAreCheckedOffTheEventLoopAndRoutesRequireSomeOfThem() throws Exception {
    Path users = Files.writeString(dir.resolve("users.txt"), String.join("\n",
        PasswordFile.line("alice", "wonderland".toCharArray(), PasswordFile.MIN_ITERATIONS),
        PasswordFile.line("bob", "builder".toCharArray(), PasswordFile.MIN_ITERATIONS)));
    SoapServer backend = keep(SoapServer.builder().endpoint("/who", whoCalled()).build().start());
    Broker broker = keep(Broker.builder().authenticator(Authenticator.basic(
        PasswordFile.load(users))).routes(Routes.parse("routes:\n"
            + "  - path: /who\n    to: " + backend.uri("/who") + "\n    require: [alice]\n"
            + "    identityHeader: X-Caller\n"
            + "  - path: /any\n    to: " + backend.uri("/who") + "\n    require: any\n"))
        .build().start());
    SoapClient c = keep(SoapClient.builder().timeout(Duration.ofSeconds(20)).build());
    assertThatThrownBy(() -> c.call(broker.uri("/who"), ping(), null))
        .isInstanceOf(SoapHttpException.class).hasMessageContaining("HTTP 401")
        .hasMessageContaining("no credentials");
    assertThatThrownBy(() -> c.call(SoapRequest.builder(broker.uri("/who"), ping())
        .basicAuth("alice", "guess").build())).hasMessageContaining("HTTP 401")
        .hasMessageContaining("wrong user or password");
    // a refused caller's upload is dropped and answered at its end; one over 1 MiB is
    // answered early and its connection closed (the caller may see the close first)
    Payload half = EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "x",
        ByteString.of(new byte[500_000]));
    assertThatThrownBy(() -> c.call(SoapRequest.builder(broker.uri("/who"), half)
        .basicAuth("alice", "nope").build())).hasMessageContaining("HTTP 401");
    Payload big = EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "x",
        ByteString.of(new byte[3_000_000]));
    assertThatThrownBy(() -> c.call(SoapRequest.builder(broker.uri("/who"), big)
        .basicAuth("alice", "nope").build())).isInstanceOf(IOException.class);
    for (int i = 0; i < 2; i++) { // hashed on a virtual thread first, then remembered
      try (SoapResponse r = c.call(SoapRequest.builder(broker.uri("/who"), ping())
          .basicAuth("alice", "wonderland").header("X-Caller", "forged").build())) {
        assertThat(seen(r)).isEqualTo("alice via plain");
      }
    }
    try (SoapResponse r = c.call(SoapRequest.builder(broker.uri("/who"), ping())
        .basicAuth("bob", "builder").build())) {
      assertThat(r.fault().reason()).isEqualTo("bob may not call /who");
    }
    try (SoapResponse r = c.call(SoapRequest.builder(broker.uri("/any"), ping())
        .basicAuth("bob", "builder").header("X-Caller", "forged").build())) {
      assertThat(seen(r)).isEqualTo("null via plain"); // no identity header on this route
    }
    try (SoapResponse r = c.call(broker.uri("/health"), ping(), null)) {
      assertThat(r.status()).isEqualTo(405); // reached: /health is not behind the door
    } catch (SoapHttpException e) {
      assertThat(e.status()).isEqualTo(405);
    }
  }

  @Test
  void aRouteReachesAnHttpsBackendWithItsOwnTrustAndCertificate() throws Exception {
    TlsSettings backendTls = TlsSettings.builder().identity(KeyMaterial.of(localhost.key(),
        localhost.chain())).trust(TrustMaterial.of(pki.certificate()))
        .clientAuth(ClientAuth.REQUIRED).build();
    SoapServer backend = keep(SoapServer.builder().tls(backendTls).options(
        dev.ferry.server.ServerOptions.builder().authenticator(Authenticator.certificate())
            .build()).endpoint("/who", whoCalled()).build().start());
    TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    brokerCert.writeChainPem(dir.resolve("broker.pem"));
    brokerCert.writeKeyPem(dir.resolve("broker.key"));
    String to = "https://localhost:" + backend.port() + "/who";
    Path routes = Files.writeString(dir.resolve("routes.yaml"), "routes:\n"
        + "  - path: /mtls\n    to: " + to + "\n    backendTls:\n      trust: ca.pem\n"
        + "      certificate: broker.pem\n      key: broker.key\n"
        + "  - path: /jdk\n    to: " + to + "\n");
    Broker broker = keep(Broker.builder().routes(Routes.load(routes)).build().start());
    SoapClient c = keep(SoapClient.builder().timeout(Duration.ofSeconds(20)).build());
    try (SoapResponse r = c.call(broker.uri("/mtls"), ping(), null)) {
      assertThat(seen(r)).isEqualTo("null via CN=broker,O=Ferry");
    }
    try (SoapResponse r = c.call(broker.uri("/jdk"), ping(), null)) {
      assertThat(r.fault().reason()).isEqualTo("the service behind /jdk is unavailable");
    }
  }

  @Test
  void routePolicyKeysAreChecked() {
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /a\n    to: http://h/a\n"
        + "    require: 3\n")).hasMessageContaining("routes[0].require: expected any, or a list");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /a\n    to: http://h/a\n"
        + "    identityHeader: \"X Bad\"\n")).hasMessageContaining("not a header name");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /a\n    to: http://h/a\n"
        + "    backendTls:\n      certificate: c.pem\n"))
        .hasMessageContaining("certificate and key go together");
    assertThatThrownBy(() -> Routes.parse("routes:\n  - path: /a\n    to: http://h/a\n"
        + "    backendTls:\n      trust: /no/such/ca.pem\n"))
        .hasMessageContaining("routes[0].backendTls: ").hasMessageContaining("ca.pem");
    assertThat(Routes.parse("routes:\n  - path: /a\n    to: http://h/a\n    require: any\n")
        .routes().get(0).policy().callers()).containsExactly("*");
  }
}
