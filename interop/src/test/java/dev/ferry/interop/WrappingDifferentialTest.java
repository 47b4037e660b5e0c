package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.sample.EchoService;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.cxf.Bus;
import org.apache.cxf.ws.security.wss4j.DefaultCryptoCoverageChecker;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.wss4j.common.crypto.Merlin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The wrapping corpus against CXF 4 with WSS4J's DOM engine, configured as its users do (the
 * {@code Timestamp Signature} actions and the coverage checker that requires the Body and the
 * Timestamp signed), beside Ferry's server under the same policy: each attack, on a testMtom
 * request Ferry signed for it, sent to both echo services. Ferry never echoes the attacker's
 * content; where the two disagree the table goes to the test's output and the documented
 * classification is asserted.
 */
class WrappingDifferentialTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final WsSecurityPolicy SIGNED = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().build();
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();

  /** What a receiver did with one request. */
  enum Verdict { REFUSED, SIGNED_CONTENT, ATTACKER_CONTENT }

  private static TestPki pki;
  private static TestPki.Credential alice;
  private static Bus bus;
  private static org.apache.cxf.endpoint.Server cxf;
  private static SoapServer ferry;
  private static URI cxfUri;
  private static WsSecurity signer;

  @BeforeAll
  static void start() throws Exception {
    pki = TestPki.create("CN=XSW Differential CA", TestPki.KeyType.RSA);
    alice = pki.issue("CN=alice,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    TestPki.Credential service = pki.issue("CN=service,O=Ferry")
        .keyType(TestPki.KeyType.RSA).make();
    bus = CxfPeer.newBus();
    cxfUri = URI.create("http://127.0.0.1:" + JaxWsStack.freePort() + "/echo");
    Merlin crypto = CxfSecurity.merlin(pki, service, alice.certificate());
    var factory = CxfSecurity.echoService(bus, cxfUri, false);
    factory.getInInterceptors().add(new WSS4JInInterceptor(CxfSecurity.in(
        "Timestamp Signature", crypto, "unused")));
    factory.getInInterceptors().add(new DefaultCryptoCoverageChecker());
    cxf = factory.create();
    WsSecurity guard = WsSecurity.builder().inbound(SIGNED).credentials(WsSecurityCredentials
        .builder().trust(TrustMaterial.of(pki.certificate())).build()).build();
    ferry = SoapServer.builder().port(0).endpoint("/echo", Dispatcher.builder().guard(guard)
        .element(EchoService.REQUEST, EchoService::echo).build()).build().start();
    signer = WsSecurity.builder().outbound(SIGNED).credentials(WsSecurityCredentials.builder()
        .key(KeyMaterial.of(alice.key(), alice.chain())).build()).build();
  }

  @AfterAll
  static void stop() throws Exception {
    ferry.close();
    cxf.destroy();
    bus.shutdown(true);
  }

  /** A testMtom request named "order", signed by alice now. */
  private static String signed() throws Exception {
    Payload p = EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.NEVER, "order",
        ByteString.encodeUtf8("signed bytes"));
    ByteStringBuilder b = new ByteStringBuilder(4096);
    p.writeTo(b.asOutputStream());
    Message m = CODEC.read(b.toByteString(), p.contentType()).toMessage();
    return signer.protect(m).toByteString().utf8();
  }

  private static Verdict send(URI uri, String envelope) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"\"")
        .POST(HttpRequest.BodyPublishers.ofString(envelope)).build();
    HttpResponse<String> reply = HTTP.send(r, HttpResponse.BodyHandlers.ofString());
    if (reply.statusCode() != 200 || reply.body().contains("Fault>")) {
      return Verdict.REFUSED;
    }
    if (reply.body().contains(WrappingCorpus.EVIL)) {
      return Verdict.ATTACKER_CONTENT;
    }
    assertThat(reply.body()).contains(">order<");
    return Verdict.SIGNED_CONTENT;
  }

  @Test
  void ferryNeverEchoesTheAttackerAndDisagreesWithCxfOnlyByRefusingMore() throws Exception {
    assertThat(send(ferry.uri("/echo"), WrappingCorpus.control(signed())))
        .isEqualTo(Verdict.SIGNED_CONTENT);
    assertThat(send(cxfUri, WrappingCorpus.control(signed()))).isEqualTo(Verdict.SIGNED_CONTENT);
    Map<Verdict, Integer> ferryCounts = new EnumMap<>(Verdict.class);
    Map<Verdict, Integer> cxfCounts = new EnumMap<>(Verdict.class);
    List<String> disagreements = new ArrayList<>();
    for (WrappingCorpus.Attack attack : WrappingCorpus.attacks()) {
      WrappingCorpus.Variant v = attack.apply(signed());
      if (v == null) {
        continue;
      }
      Verdict f = send(ferry.uri("/echo"), v.envelope());
      Verdict c = send(cxfUri, attack.apply(signed()).envelope());
      ferryCounts.merge(f, 1, Integer::sum);
      cxfCounts.merge(c, 1, Integer::sum);
      if (f != c) {
        disagreements.add(String.format("%-16s %-16s %s", f, c, v.name()));
      }
    }
    System.out.println("wrapping corpus, Ferry " + ferryCounts + ", CXF (WSS4J DOM) "
        + cxfCounts + "\nFerry            CXF              attack\n"
        + String.join("\n", disagreements));
    assertThat(ferryCounts).doesNotContainKey(Verdict.ATTACKER_CONTENT);
    // where they differ, Ferry refuses what CXF reads as signed, never the other way round
    assertThat(disagreements).allMatch(d -> d.startsWith(Verdict.REFUSED.name()));
  }
}
