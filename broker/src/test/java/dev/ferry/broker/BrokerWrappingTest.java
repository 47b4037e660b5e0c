package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.security.KeyMaterial;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Addressing;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.testkit.WrappingCorpus;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.xop.MtomPolicy;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * The wrapping corpus through the broker's verify, resign and terminate modes, to a backend
 * that records what a parser taking the first element called Body (as DOM's, SAAJ's and lxml's
 * users often do) would read of each forwarded request: the attacker's content never gets
 * there.
 */
class BrokerWrappingTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final WsSecurityPolicy SIGNED = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().signHeader(Addressing.TO)
      .build();
  private static TestPki pki;
  private static TestPki.Credential alice;
  private static TestPki.Credential broker;
  private final List<String> received = Collections.synchronizedList(new ArrayList<>());
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
      .build();
  @AutoClose
  final Closer open = new Closer();

  @TempDir
  Path dir;

  @BeforeAll
  static void keys() {
    pki = TestPki.create("CN=Broker XSW CA", TestPki.KeyType.RSA);
    alice = pki.issue("CN=alice,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    broker = pki.issue("CN=broker,O=Ferry").keyType(TestPki.KeyType.RSA).make();
  }

  /** A backend with no checks of its own: it records the first Body by name and echoes it. */
  private SoapServer backend() throws IOException {
    return open.keep(SoapServer.builder().endpoint("/shop", Dispatcher.builder()
        .understands(Addressing.TO).understands(Forwarding.TRACE)
        .understands(Forwarding.SECURITY)
        .fallback(request -> {
          received.add(firstBodyByName(request.toByteString()));
          return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), w -> {
            w.writeStartElement("o", "done", "urn:shop");
            w.writeNamespace("o", "urn:shop");
            w.writeEndElement();
          });
        }).build()).build().start());
  }

  /** The text of the first element called Body, as a name-searching DOM reader sees it. */
  static String firstBodyByName(ByteString envelope) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    Document d = f.newDocumentBuilder().parse(new ByteArrayInputStream(envelope.toByteArray()));
    return d.getElementsByTagNameNS("*", "Body").item(0).getTextContent();
  }

  private Broker broker(String mode, String to) throws IOException {
    TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    broker.writeChainPem(dir.resolve("broker.pem"));
    broker.writeKeyPem(dir.resolve("broker.key"));
    String inbound = "      inbound:\n        timestamp: 5m\n        signBody: true\n"
        + "        signTimestamp: true\n        signHeaders: [\"{" + Addressing.NS + "}To\"]\n"
        + "      trust: ca.pem\n";
    String resign = "      outbound:\n        timestamp: 5m\n        signBody: true\n"
        + "      certificate: broker.pem\n      key: broker.key\n";
    Path routes = Files.writeString(dir.resolve(mode + ".yaml"), "routes:\n  - path: /shop\n"
        + "    to: " + to + "\n    wsSecurity:\n" + inbound + switch (mode) {
          case "resign" -> resign;
          case "terminate" -> "      terminate: true\n";
          default -> "";
        });
    return open.keep(Broker.builder().routes(Routes.load(routes)).build().start());
  }

  private static String signed(SoapVersion v) throws IOException {
    Payload order = CODEC.payload(v, MtomPolicy.NEVER, List.of(), w -> {
      w.writeStartElement("o", "order", "urn:shop");
      w.writeNamespace("o", "urn:shop");
      w.writeStartElement("o", "item", "urn:shop");
      w.writeCharacters("tea & biscuits");
      w.writeEndElement();
      w.writeEndElement();
    });
    ByteStringBuilder b = new ByteStringBuilder(4096);
    order.writeTo(b.asOutputStream());
    Message m = CODEC.read(b.toByteString(), order.contentType()).toMessage();
    m.addressing().setTo("http://shop.example/orders");
    WsSecurity.builder().outbound(SIGNED).credentials(WsSecurityCredentials.builder()
        .key(KeyMaterial.of(alice.key(), alice.chain())).build()).build().protect(m);
    return m.toByteString().utf8();
  }

  private HttpResponse<String> post(Broker b, SoapVersion v, String envelope) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(b.uri("/shop")).timeout(Duration.ofSeconds(30))
        .header("Content-Type", v == SoapVersion.SOAP_11 ? "text/xml; charset=utf-8"
            : "application/soap+xml; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofString(envelope, StandardCharsets.UTF_8)).build();
    return http.send(r, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void verifyResignAndTerminateForwardOnlySignedBodies() throws Exception {
    SoapServer backend = backend();
    for (String mode : new String[] {"verify", "resign", "terminate"}) {
      Broker b = broker(mode, backend.uri("/shop").toString());
      for (SoapVersion v : SoapVersion.values()) {
        String signed = signed(v);
        received.clear();
        HttpResponse<String> control = post(b, v, WrappingCorpus.control(signed));
        assertThat(control.statusCode()).as(mode + " " + v + ": " + control.body())
            .isEqualTo(200);
        assertThat(received).singleElement().asString().contains("tea & biscuits");
        int refused = 0;
        for (WrappingCorpus.Attack attack : WrappingCorpus.attacks()) {
          // each to a message signed for it: the same signed timestamp twice is a replay
          WrappingCorpus.Variant variant = attack.apply(signed(v));
          if (variant == null) {
            continue;
          }
          HttpResponse<String> r = post(b, v, variant.envelope());
          if (r.statusCode() != 200) {
            assertThat(r.body()).as(variant.name()).contains("Fault").doesNotContain("replay");
            refused++;
          }
        }
        assertThat(refused).isPositive();
        assertThat(received).as(mode + " " + v).noneMatch(s -> s.contains(WrappingCorpus.EVIL));
      }
    }
  }
}
