package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A route's XSLT on the reply's payload, from Ferry's echo server back through the broker: the
 * caller gets the transformed Body, attachments untouched (inline and MTOM, SOAP 1.1 and 1.2),
 * while the backend saw the request as sent; a stylesheet's error, an output past the cap and a
 * reply too long to read whole are Receiver faults; a fault reply goes back as it came; a
 * stylesheet with a DOCTYPE is refused as the routes load.
 */
class BrokerReplyXsltTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final String UPPER = BrokerXsltTest.UPPER;

  @AutoClose
  final Closer open = new Closer();
  private final SoapClient client = open.keep(SoapClient.builder()
      .timeout(Duration.ofSeconds(20)).build());
  private final List<String> seen = Collections.synchronizedList(new ArrayList<>());
  @TempDir
  Path dir;

  private SoapServer backend() throws IOException {
    return open.keep(SoapServer.builder().endpoint("/echo", Dispatcher.builder().fallback(r -> {
      seen.add(r.body().utf8());
      return EchoService.echo(r);
    }).build()).build().start());
  }

  private Broker broker(String stylesheet) throws IOException {
    Files.writeString(dir.resolve("t.xsl"), stylesheet);
    return open.keep(Broker.builder().routes(routes("reply")).build().start());
  }

  private Routes routes(String key) throws IOException {
    return Routes.load(Files.writeString(dir.resolve("routes.yaml"), "routes:\n"
        + "  - path: /echo\n    to: " + backend().uri("/echo") + "\n    xslt: {" + key
        + ": t.xsl}\n"));
  }

  private SoapResponse call(Broker b, SoapVersion v, String name, ByteString blob)
      throws IOException {
    return client.call(b.uri("/echo"), EchoService.request(CODEC, v, blob.size() > 2048
        ? MtomPolicy.ALWAYS : MtomPolicy.NEVER, name, blob), null);
  }

  @Test
  void theCallerGetsTheTransformedReplyWithItsAttachmentsUntouched() throws Exception {
    Broker b = broker(UPPER);
    for (SoapVersion v : SoapVersion.values()) {
      for (int size : new int[] {1_000, 30_000}) { // inline, MTOM (held whole)
        ByteString blob = ByteString.of(Blobs.random(size, size));
        try (SoapResponse r = call(b, v, "quiet name " + size, blob)) {
          assertThat(r.status()).isEqualTo(200);
          EchoService.Echo e = EchoService.readEcho(r.message());
          assertThat(e.name()).isEqualTo("QUIET NAME " + size);
          assertThat(e.attachinfo()).isEqualTo(blob);
        }
      }
    }
    assertThat(seen).hasSize(4).allSatisfy(s -> assertThat(s).contains("quiet name"));
    assertThat(seen.get(1)).contains("xop:Include");
  }

  @Test
  void aStylesheetsErrorOnTheReplyIsAReceiverFault() throws Exception {
    Broker b = broker(UPPER);
    try (SoapResponse r = call(b, SoapVersion.SOAP_12, "bad", ByteString.encodeUtf8("x"))) {
      assertThat(r.status()).isEqualTo(500);
      assertThat(r.fault().code().getLocalPart()).isEqualTo("Receiver");
      assertThat(r.fault().reason()).isEqualTo("the transformation of /echo failed: no bad"
          + " names");
    }
    assertThat(seen).hasSize(1); // the request went; its reply did not come back
  }

  @Test
  void aReplyLongerThanHoldBytesIsAFaultNotAnUntransformedReply() throws Exception {
    Broker b = broker(UPPER);
    ByteString blob = ByteString.of(Blobs.random(200_000, 7));
    try (SoapResponse r = call(b, SoapVersion.SOAP_11, "long", blob)) {
      assertThat(r.status()).isEqualTo(500);
      assertThat(r.fault().reason()).isEqualTo("the reply of the service behind /echo is over"
          + " 65536 bytes, the most the route's reply transformation reads"
          + " (BrokerOptions.holdBytes)");
    }
    ByteString small = ByteString.encodeUtf8("after");
    try (SoapResponse r = call(b, SoapVersion.SOAP_11, "next", small)) { // the broker is fine
      assertThat(EchoService.readEcho(r.message()).name()).isEqualTo("NEXT");
    }
  }

  @Test
  void anOutputPastTheCapIsAFault() throws Exception {
    Broker b = broker(BrokerXsltTest.OVERFLOW);
    try (SoapResponse r = call(b, SoapVersion.SOAP_11, "n", ByteString.encodeUtf8("x"))) {
      assertThat(r.fault().reason()).isEqualTo("the transformation of /echo wrote more than"
          + " 16777216 bytes (RouteTransform.MAX_OUTPUT_BYTES)");
    }
  }

  @Test
  void aFaultReplyGoesBackAsItCame() throws Exception {
    Broker b = broker(UPPER);
    try (SoapResponse r = client.call(b.uri("/echo"), CODEC.payload(SoapVersion.SOAP_11,
        MtomPolicy.NEVER, List.of(), w -> {
          w.writeStartElement("t", "other", "urn:t");
          w.writeNamespace("t", "urn:t");
          w.writeEndElement();
        }), null)) {
      assertThat(r.fault().code().getLocalPart()).isEqualTo("Client");
      assertThat(r.fault().reason()).startsWith("expected one of");
    }
  }

  @Test
  void aReplyStylesheetWithADoctypeIsRefusedAsTheRoutesLoad() throws Exception {
    Files.writeString(dir.resolve("t.xsl"), "<!DOCTYPE x [<!ENTITY e SYSTEM"
        + " \"file:///etc/passwd\">]>" + UPPER);
    assertThatThrownBy(() -> routes("reply")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 4: routes[0].xslt.reply: the stylesheet t.xsl does not"
            + " compile: ").hasMessageNotContaining("root:");
    assertThatThrownBy(() -> routes("response")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("response");
  }
}
