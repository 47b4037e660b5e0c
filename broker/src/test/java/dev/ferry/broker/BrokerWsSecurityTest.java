package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Addressing;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.testkit.TestPki;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A route's WS-Security: the broker verifies and forwards without breaking the signature (the
 * backend verifies it again), never rewrites a signed wsa:To, refuses what fails, and with an
 * outbound section signs the changed message anew with its own key.
 */
class BrokerWsSecurityTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final WsSecurityPolicy SIGNED = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().signHeader(Addressing.TO)
      .build();
  private static TestPki pki;
  private static TestPki.Credential alice;
  private static TestPki.Credential broker;
  @AutoClose
  final Closer open = new Closer();

  @TempDir
  Path dir;

  @BeforeAll
  static void keys() {
    pki = TestPki.create("CN=Broker WSS CA", TestPki.KeyType.RSA);
    alice = pki.issue("CN=alice,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    broker = pki.issue("CN=broker,O=Ferry").keyType(TestPki.KeyType.RSA).make();
  }

  private <T extends AutoCloseable> T keep(T c) {
    return open.keep(c);
  }

  /** A backend that verifies the signature itself, and echoes who signed and the wsa:To. */
  private SoapServer backend() throws IOException {
    WsSecurity verify = WsSecurity.builder().inbound(WsSecurityPolicy.builder()
        .timestamp(Duration.ofMinutes(5)).signBody().build()).credentials(
            WsSecurityCredentials.builder().trust(TrustMaterial.of(pki.certificate())).build())
        .build();
    return keep(SoapServer.builder().endpoint("/echo", Dispatcher.builder().guard(verify)
        .understands(Addressing.TO).fallback(new Endpoint() {
          @Override
          public Payload handle(Message request) {
            throw new AssertionError();
          }

          @Override
          public Payload handle(Message request, HttpServletRequest http) throws Exception {
            EchoService.Echo e = EchoService.readEcho(request);
            return EchoService.request(CODEC, request.version(), MtomPolicy.ALWAYS,
                http.getUserPrincipal().getName() + " to " + request.addressing().to(),
                e.attachinfo());
          }
        }).build()).build().start());
  }

  private static Payload signedRequest(String to, byte[] blob) throws IOException {
    WsSecurity alicesKey = WsSecurity.builder().outbound(SIGNED).credentials(
        WsSecurityCredentials.builder().key(KeyMaterial.of(alice.key(), alice.chain())).build())
        .build();
    Payload p = CODEC.payload(SoapVersion.SOAP_11, MtomPolicy.ALWAYS, List.of(
        HeaderBlock.text(Addressing.TO, to)), w -> {
          w.writeStartElement("t", "testMtom", EchoService.NAMESPACE);
          w.writeNamespace("t", EchoService.NAMESPACE);
          w.writeStartElement("t", "name", EchoService.NAMESPACE);
          w.writeCharacters("n");
          w.writeEndElement();
          w.writeStartElement("t", "attachinfo", EchoService.NAMESPACE);
          w.writeBinary(blob, 0, blob.length, "application/octet-stream");
          w.writeEndElement();
          w.writeEndElement();
        });
    return alicesKey.protect(p);
  }

  private Broker broker(String wsSecurity, String to) throws IOException {
    TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    broker.writeChainPem(dir.resolve("broker.pem"));
    broker.writeKeyPem(dir.resolve("broker.key"));
    Path routes = Files.writeString(dir.resolve("routes.yaml"), "routes:\n  - path: /echo\n"
        + "    to: " + to + "\n    wsSecurity:\n" + wsSecurity);
    return keep(Broker.builder().routes(Routes.load(routes)).build().start());
  }

  @Test
  void verifiesAndForwardsWithTheSignatureIntactAndTheSignedToUnchanged() throws IOException {
    SoapServer backend = backend();
    Broker b = broker("      inbound:\n        timestamp: 5m\n        signBody: true\n"
        + "        signTimestamp: true\n      trust: ca.pem\n", backend.uri("/echo").toString());
    SoapClient c = keep(SoapClient.builder().timeout(Duration.ofSeconds(20)).build());
    for (int size : new int[] {1_000, 200_000}) { // held whole, then streamed
      byte[] blob = Blobs.random(size, size);
      try (SoapResponse r = c.call(b.uri("/echo"), signedRequest("urn:signed-to", blob),
          null)) {
        EchoService.Echo e = EchoService.readEcho(r.message());
        assertThat(e.name()).isEqualTo("CN=alice,O=Ferry to urn:signed-to");
        assertThat(e.attachinfo().toByteArray()).isEqualTo(blob);
      }
    }
    // an unsigned request is refused by the broker and never reaches the backend
    try (SoapResponse r = c.call(b.uri("/echo"), EchoService.request(CODEC,
        SoapVersion.SOAP_11, MtomPolicy.NEVER, "n", ByteString.encodeUtf8("x")), null)) {
      assertThat(r.fault().code().getLocalPart()).isEqualTo("InvalidSecurity");
      assertThat(r.fault().reason()).contains("no wsse:Security header");
    }
    assertThat(backend.metrics().scrape()).doesNotContain("status=\"500\"");
  }

  @Test
  void aRouteThatSignsAnewReplacesTheCallersSignatureWithItsOwn() throws IOException {
    SoapServer backend = backend();
    Broker b = broker("      inbound:\n        timestamp: 5m\n        signBody: true\n"
        + "      trust: ca.pem\n      outbound:\n        timestamp: 5m\n        signBody: true\n"
        + "      certificate: broker.pem\n      key: broker.key\n",
        backend.uri("/echo").toString());
    SoapClient c = keep(SoapClient.builder().timeout(Duration.ofSeconds(20)).build());
    byte[] blob = Blobs.random(5_000, 1);
    try (SoapResponse r = c.call(b.uri("/echo"), signedRequest("urn:signed-to", blob), null)) {
      EchoService.Echo e = EchoService.readEcho(r.message());
      // the broker's signature now; wsa:To rewritten, since nothing it signs anew forbids it
      assertThat(e.name()).isEqualTo("CN=broker,O=Ferry to " + backend.uri("/echo"));
      assertThat(e.attachinfo().toByteArray()).isEqualTo(blob);
    }
  }

  /** A backend with no WS-Security: it records each envelope it gets and echoes the blob. */
  private SoapServer plainBackend(List<String> envelopes) throws IOException {
    return keep(SoapServer.builder().endpoint("/echo", Dispatcher.builder()
        .understands(Addressing.TO).understands(Forwarding.TRACE).fallback(request -> {
          envelopes.add(request.toByteString().utf8());
          EchoService.Echo e = EchoService.readEcho(request);
          return EchoService.request(CODEC, request.version(), MtomPolicy.ALWAYS,
              e.name() + " to " + request.addressing().to(), e.attachinfo());
        }).build()).build().start());
  }

  private static Payload signedAndEncryptedRequest(SoapVersion v, MtomPolicy mtom, byte[] blob)
      throws IOException {
    WsSecurity alicesKey = WsSecurity.builder().outbound(WsSecurityPolicy.builder()
        .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().encryptBody().build())
        .credentials(WsSecurityCredentials.builder().key(KeyMaterial.of(alice.key(),
            alice.chain())).recipient(broker.chain()[0]).build()).build();
    return alicesKey.protect(EchoService.request(CODEC, v, mtom, "secret name",
        dev.ferry.bytes.ByteString.of(blob)));
  }

  @Test
  void aRouteThatEndsWsSecurityForwardsThePlainDecryptedMessage() throws Exception {
    List<String> seen = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    SoapServer backend = plainBackend(seen);
    Broker b = broker("      inbound:\n        timestamp: 5m\n        signBody: true\n"
        + "        signTimestamp: true\n        encryptBody: true\n      trust: ca.pem\n"
        + "      certificate: broker.pem\n      key: broker.key\n      terminate: true\n",
        backend.uri("/echo").toString());
    SoapClient c = keep(SoapClient.builder().timeout(Duration.ofSeconds(20)).build());
    int n = 0;
    for (SoapVersion v : SoapVersion.values()) {
      for (int size : new int[] {1_000, 200_000}) { // held whole, then streamed
        MtomPolicy mtom = size > 2048 ? MtomPolicy.ALWAYS : MtomPolicy.NEVER;
        byte[] blob = Blobs.random(size, size);
        Payload p = signedAndEncryptedRequest(v, mtom, blob);
        try (SoapResponse r = c.call(b.uri("/echo"), p, null)) {
          EchoService.Echo e = EchoService.readEcho(r.message());
          assertThat(e.name()).startsWith("secret name to ");
          assertThat(e.attachinfo().toByteArray()).isEqualTo(blob);
        }
        String forwarded = seen.get(n++);
        assertThat(forwarded).as("what the backend got").doesNotContain("Security")
            .doesNotContain("EncryptedData").doesNotContain("Signature")
            .contains(">secret name<");
      }
    }
    // a signed part changed on the way (the Timestamp's Created) fails, and goes no further
    String tampered = tamperCreated(signedAndEncryptedRequest(SoapVersion.SOAP_11,
        MtomPolicy.NEVER, Blobs.random(100, 1)));
    try (SoapResponse r = c.call(b.uri("/echo"), CODEC.read(dev.ferry.bytes.ByteString
        .encodeUtf8(tampered), "text/xml; charset=utf-8").toMessage().toPayload(), null)) {
      assertThat(r.fault().code().getLocalPart()).isIn("FailedCheck", "InvalidSecurity");
    }
    // so does a message signed but not encrypted, as the route requires
    try (SoapResponse r = c.call(b.uri("/echo"), signedRequest("urn:x", Blobs.random(10, 2)),
        null)) {
      assertThat(r.fault().code().getLocalPart()).isEqualTo("InvalidSecurity");
    }
    assertThat(seen).hasSize(n);
  }

  /** {@code p}'s envelope with one digit of its Timestamp's Created changed. */
  private static String tamperCreated(Payload p) throws IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    p.writeTo(out);
    String s = out.toString(java.nio.charset.StandardCharsets.UTF_8);
    int at = s.indexOf("Created>") + "Created>".length() + 17; // the seconds' last digit
    char d = s.charAt(at);
    return s.substring(0, at) + (d == '0' ? '1' : '0') + s.substring(at + 1);
  }

  @Test
  void terminateGoesWithoutOutbound() {
    assertThatThrownBy(() -> broker("      inbound:\n        signBody: true\n"
        + "      trust: ca.pem\n      outbound:\n        signBody: true\n"
        + "      certificate: broker.pem\n      key: broker.key\n      terminate: true\n",
        "http://127.0.0.1:1/echo")).hasMessageContaining("wsSecurity.terminate: terminate"
            + " forwards the message without WS-Security, outbound signs it anew: one of them");
  }
}
