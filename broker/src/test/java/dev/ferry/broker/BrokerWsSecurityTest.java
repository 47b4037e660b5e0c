package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

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
}
