package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Routes chosen by content, between Ferry's client and two of Ferry's echo servers: by the
 * Body (held and streamed requests, inline and MTOM, SOAP 1.1 and 1.2), by an HTTP header and a
 * SOAP header, else a configured fault; and a request whose Body is not the one every reader
 * finds is refused before any backend sees it.
 */
class BrokerRoutingTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final String NS = EchoService.NAMESPACE;
  private static final String S11 = "http://schemas.xmlsoap.org/soap/envelope/";
  @AutoClose
  final Closer open = new Closer();
  private final AtomicInteger hitsA = new AtomicInteger();
  private final AtomicInteger hitsB = new AtomicInteger();
  private final SoapClient client = open.keep(SoapClient.builder()
      .timeout(Duration.ofSeconds(20)).build());

  private SoapServer backend(AtomicInteger hits) throws IOException {
    return open.keep(SoapServer.builder().endpoint("/echo", Dispatcher.builder().fallback(r -> {
      hits.incrementAndGet();
      return EchoService.echo(r);
    }).build()).build().start());
  }

  private Broker broker(String routes) throws IOException {
    return open.keep(Broker.builder().routes(Routes.parse(routes)).build().start());
  }

  /** Two backends, a route to each by the Body's name, and a fault for the rest. */
  private Broker byBody() throws IOException {
    SoapServer a = backend(hitsA);
    SoapServer b = backend(hitsB);
    return broker("routes:\n"
        + "  - path: /echo\n    name: a\n    namespaces: {t: \"" + NS + "\"}\n"
        + "    when: {body: \"/t:testMtom/t:name = 'to-a'\"}\n    to: " + a.uri("/echo") + "\n"
        + "  - path: /echo\n    name: b\n    namespaces: {t: \"" + NS + "\"}\n"
        + "    when: {body: \"//t:name[. = 'to-b']\"}\n    to: " + b.uri("/echo") + "\n"
        + "  - path: /echo\n    fault: {code: Sender, reason: no backend for this name}\n");
  }

  @ParameterizedTest(name = "{0} bytes, mtom={1}, {2}")
  @CsvSource({"100, false, SOAP_11", "5000, true, SOAP_12", "300000, true, SOAP_11",
      "300000, false, SOAP_12"})
  void theBodyChoosesTheBackendAndTheRestGetTheFault(int size, boolean mtom,
      SoapVersion version) throws Exception {
    Broker broker = byBody();
    ByteString blob = ByteString.of(Blobs.random(size, size));
    MtomPolicy policy = mtom ? MtomPolicy.ALWAYS : MtomPolicy.NEVER;
    for (String name : new String[] {"to-a", "to-b", "to-b", "to-a", "to-a"}) {
      try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
          version, policy, name, blob), null)) {
        EchoService.Echo e = EchoService.readEcho(r.message());
        assertThat(e.name()).isEqualTo(name);
        assertThat(e.attachinfo()).isEqualTo(blob);
      }
    }
    assertThat(hitsA).hasValue(3);
    assertThat(hitsB).hasValue(2);
    try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC, version,
        policy, "to-c", blob), null)) {
      assertThat(r.fault().code()).isEqualTo(version.senderFaultCode());
      assertThat(r.fault().reason()).isEqualTo("no backend for this name");
    }
    assertThat(hitsA.get() + hitsB.get()).isEqualTo(5);
    Settled.awaitMetric(broker, "route=\"/echo\",status=\""
        + (version == SoapVersion.SOAP_12 ? 400 : 500));
    assertThat(broker.scrape()).contains("route=\"a\",status=\"200\"} 3.0");
  }

  @Test
  void anHttpHeaderOrASoapHeaderChoosesTheBackend() throws IOException {
    SoapServer a = backend(hitsA);
    SoapServer b = backend(hitsB);
    Broker broker = broker("routes:\n"
        + "  - path: /echo\n    when: {header: {name: X-Tenant, matches: \"acme-.*\"}}\n"
        + "    to: " + a.uri("/echo") + "\n"
        + "  - path: /echo\n    namespaces: {h: \"urn:h\"}\n"
        + "    when: {soapHeader: {name: \"h:Tier\", equals: gold}}\n"
        + "    to: " + b.uri("/echo") + "\n"
        + "  - path: /echo\n    fault: {code: Receiver, reason: closed}\n");
    ByteString blob = ByteString.encodeUtf8("x");
    try (SoapResponse r = client.call(SoapRequest.builder(broker.uri("/echo"),
        EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.NEVER, "n", blob))
        .header("X-Tenant", "acme-7").build())) {
      assertThat(EchoService.readEcho(r.message()).name()).isEqualTo("n");
    }
    Payload gold = CODEC.payload(SoapVersion.SOAP_11, MtomPolicy.NEVER,
        List.of(HeaderBlock.text(new QName("urn:h", "Tier", "h"), "gold")), w -> {
          w.writeStartElement("t", "testMtom", NS);
          w.writeNamespace("t", NS);
          w.writeStartElement("t", "name", NS);
          w.writeCharacters("g");
          w.writeEndElement();
          w.writeEndElement();
        });
    try (SoapResponse r = client.call(broker.uri("/echo"), gold, null)) {
      assertThat(r.isFault()).isFalse();
    }
    try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
        SoapVersion.SOAP_11, MtomPolicy.NEVER, "n", blob), null)) {
      assertThat(r.fault().code()).isEqualTo(SoapVersion.SOAP_11.receiverFaultCode());
    }
    assertThat(hitsA).hasValue(1);
    assertThat(hitsB).hasValue(1);
  }

  /**
   * The index finds the Body's end from the envelope's tail, so an envelope with a second Body
   * after the first reads as one Body to it; a route chosen by the first Body must not send a
   * backend the second. Refused, as is a Body in the Header that a reader by name would take.
   */
  @Test
  void aBodyRoutedRequestWhoseBodyIsNotTheOneEveryReaderFindsIsRefused() throws Exception {
    Broker broker = byBody();
    String op = "<t:testMtom xmlns:t=\"" + NS + "\"><t:name>%s</t:name><t:attachinfo>eA=="
        + "</t:attachinfo></t:testMtom>";
    String[] misleading = {
        "<s:Body>" + op.formatted("to-a") + "</s:Body><s:Body>" + op.formatted("evil")
            + "</s:Body>",
        "<s:Header><w xmlns=\"urn:w\"><s:Body>" + op.formatted("evil") + "</s:Body></w>"
            + "</s:Header><s:Body>" + op.formatted("to-a") + "</s:Body>",
    };
    try (HttpClient raw = HttpClient.newHttpClient()) {
      for (String inside : misleading) {
        for (int pad : new int[] {0, 100_000}) { // held whole, and streamed
          String xml = "<s:Envelope xmlns:s=\"" + S11 + "\">" + inside.replace("eA==",
              "eA==" + " ".repeat(pad)) + "</s:Envelope>";
          HttpResponse<String> r = raw.send(HttpRequest.newBuilder(broker.uri("/echo"))
              .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"\"")
              .POST(HttpRequest.BodyPublishers.ofString(xml)).build(),
              HttpResponse.BodyHandlers.ofString());
          assertThat(r.statusCode()).as(inside).isEqualTo(500);
          assertThat(r.body()).contains("Client").contains("Body");
        }
      }
    }
    assertThat(hitsA.get() + hitsB.get()).isZero();
  }
}
