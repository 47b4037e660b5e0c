package dev.ferry.wssecurity;

import static dev.ferry.wssecurity.WsSecurityTest.CODEC;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Addressing;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.WrappingCorpus;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The wrapping corpus through the server: an endpoint behind a guard that signs Body, Timestamp,
 * wsa:To and wsa:Action reads each request through every accessor, and never reads the
 * attacker's content; and the dispatch of signed requests follows what was signed.
 */
class WrappingOverHttpTest {
  private static final String SHOP = "urn:shop";
  private static final List<String> seen = Collections.synchronizedList(new ArrayList<>());
  private static SoapServer server;
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void start() throws IOException {
    WsSecurityTest.keys();
    Endpoint order = recorder("order");
    Endpoint refund = recorder("refund");
    Dispatcher shop = Dispatcher.builder().guard(WsSecurityTest.in(WrappingCorpusTest.BODY))
        .element(new QName(SHOP, "order"), order).element(new QName(SHOP, "refund"), refund)
        .soapAction("urn:shop:order", order).soapAction("urn:shop:refund", refund)
        .action("urn:shop:refund", refund)
        .build();
    Dispatcher addressed = Dispatcher.builder()
        .guard(WsSecurityTest.in(WrappingCorpusTest.ADDRESSED))
        .element(new QName(SHOP, "order"), recorder("order")).build();
    server = SoapServer.builder().port(0).endpoint("/shop", shop)
        .endpoint("/addressed", addressed).build().start();
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** An endpoint that reads what an application reads, records it, and answers its name. */
  private static Endpoint recorder(String operation) {
    return request -> {
      seen.add(operation + ": " + WrappingCorpusTest.read(request, true));
      return CODEC.payload(request.version(), MtomPolicy.NEVER, List.of(), w -> {
        w.writeStartElement("o", "done", SHOP);
        w.writeNamespace("o", SHOP);
        w.writeCharacters(operation);
        w.writeEndElement();
      });
    };
  }

  private static HttpResponse<String> post(String path, SoapVersion v, String envelope,
      String soapAction) throws IOException, InterruptedException {
    HttpRequest.Builder r = HttpRequest.newBuilder(server.uri(path))
        .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(envelope));
    if (v == SoapVersion.SOAP_11) {
      r.header("Content-Type", "text/xml; charset=utf-8")
          .header("SOAPAction", soapAction == null ? "\"\"" : "\"" + soapAction + "\"");
    } else {
      r.header("Content-Type", "application/soap+xml; charset=utf-8"
          + (soapAction == null ? "" : "; action=\"" + soapAction + "\""));
    }
    return HTTP.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void everyVariantIsRefusedOrReadAsSigned() throws Exception {
    for (SoapVersion v : SoapVersion.values()) {
      String signed = WrappingCorpusTest.signed(v, WrappingCorpusTest.ADDRESSED);
      seen.clear();
      HttpResponse<String> control = post("/addressed", v, WrappingCorpus.control(signed), null);
      assertThat(control.statusCode()).as(control.body()).isEqualTo(200);
      int refused = 0;
      for (WrappingCorpus.Attack attack : WrappingCorpus.attacks()) {
        // each to a message signed for it: the same signed timestamp twice is a replay
        WrappingCorpus.Variant variant = attack.apply(WrappingCorpusTest.signed(v,
            WrappingCorpusTest.ADDRESSED));
        if (variant == null) {
          continue;
        }
        HttpResponse<String> r = post("/addressed", v, variant.envelope(), null);
        if (r.statusCode() != 200) {
          assertThat(r.body()).as(variant.name()).contains("Fault").doesNotContain("Exception")
              .doesNotContain("replay");
          refused++;
        }
      }
      assertThat(refused).isPositive();
      assertThat(seen).isNotEmpty().noneMatch(s -> s.contains(WrappingCorpus.EVIL));
    }
  }

  @Test
  void aSignedBodyGoesWhereItsElementSaysWhateverTheUnsignedActionSays() throws Exception {
    for (SoapVersion v : SoapVersion.values()) {
      String order = signedOrder(v, null);
      // the action of the Body's own operation, or none: dispatched
      assertThat(post("/shop", v, order, "urn:shop:order").body()).contains(">order<");
      assertThat(post("/shop", v, signedOrder(v, null), null).body()).contains(">order<");
      // SOAPAction or an unsigned wsa:Action naming another operation: refused
      HttpResponse<String> r = post("/shop", v, signedOrder(v, null), "urn:shop:refund");
      assertThat(r.statusCode()).isIn(400, 500);
      assertThat(r.body()).contains("signed Body").doesNotContain(">refund<");
      r = post("/shop", v, signedOrder(v, "urn:shop:refund"), null);
      assertThat(r.body()).contains("signed Body").doesNotContain(">refund<");
    }
  }

  @Test
  void aSignedActionChoosesTheOperation() throws Exception {
    WsSecurityPolicy signsAction = WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .signBody().signTimestamp().signHeader(Addressing.ACTION).build();
    Message m = WsSecurityTest.wire(WsSecurityTest.order(SoapVersion.SOAP_12, MtomPolicy.NEVER,
        null));
    m.addHeader(HeaderBlock.text(Addressing.ACTION, "urn:shop:refund"));
    WsSecurityTest.out(signsAction).protect(m);
    // the signer asked for a refund of this order: the signed action says so
    assertThat(post("/shop", SoapVersion.SOAP_12, m.toByteString().utf8(), null).body())
        .contains(">refund<");
  }

  /** A signed order, with an unsigned wsa:Action if {@code action} is not null. */
  private static String signedOrder(SoapVersion v, String action) throws IOException {
    Message m = WsSecurityTest.wire(WsSecurityTest.order(v, MtomPolicy.NEVER, null));
    WsSecurityTest.out(WrappingCorpusTest.BODY).protect(m);
    if (action != null) {
      m.addressing().setAction(action);
    }
    return m.toByteString().utf8();
  }
}
