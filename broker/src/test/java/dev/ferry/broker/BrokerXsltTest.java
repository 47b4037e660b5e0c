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
 * A route's XSLT on the request's payload, through the broker to Ferry's echo server: the
 * transformed Body reaches the backend, attachments untouched (held and streamed, inline and
 * MTOM, SOAP 1.1 and 1.2); a stylesheet's error, an output past the cap and a stylesheet that
 * reaches for a file are faults that never reach the backend; a stylesheet with a DOCTYPE or a
 * mistake is refused as the routes load.
 */
class BrokerXsltTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  static final String HEAD = "<xsl:stylesheet version=\"1.0\""
      + " xmlns:xsl=\"http://www.w3.org/1999/XSL/Transform\" xmlns:t=\""
      + EchoService.NAMESPACE + "\">\n";
  private static final String IDENTITY = "<xsl:template match=\"@*|node()\"><xsl:copy>"
      + "<xsl:apply-templates select=\"@*|node()\"/></xsl:copy></xsl:template>\n";
  /** Upper-cases the name; a name "bad" stops the transformation with a message. */
  static final String UPPER = HEAD + IDENTITY
      + "<xsl:template match=\"t:name/text()\">\n"
      + "  <xsl:if test=\". = 'bad'\"><xsl:message terminate=\"yes\">no bad names"
      + "</xsl:message></xsl:if>\n"
      + "  <xsl:value-of select=\"translate(., 'abcdefghijklmnopqrstuvwxyz',"
      + " 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')\"/>\n</xsl:template>\n</xsl:stylesheet>\n";
  /** Writes 32 MiB, past {@link RouteTransform#MAX_OUTPUT_BYTES}, by doubling a KiB 15 times. */
  static final String OVERFLOW = HEAD + "<xsl:template match=\"/\"><t:big><xsl:call-template"
      + " name=\"emit\"><xsl:with-param name=\"n\" select=\"15\"/></xsl:call-template>"
      + "</t:big></xsl:template>\n<xsl:template name=\"emit\"><xsl:param name=\"n\"/>"
      + "<xsl:choose><xsl:when test=\"$n > 0\"><xsl:call-template name=\"emit\">"
      + "<xsl:with-param name=\"n\" select=\"$n - 1\"/></xsl:call-template>"
      + "<xsl:call-template name=\"emit\"><xsl:with-param name=\"n\" select=\"$n - 1\"/>"
      + "</xsl:call-template></xsl:when><xsl:otherwise>" + "x".repeat(1024)
      + "</xsl:otherwise></xsl:choose></xsl:template>\n</xsl:stylesheet>\n";

  @AutoClose
  final Closer open = new Closer();
  private final SoapClient client = open.keep(SoapClient.builder()
      .timeout(Duration.ofSeconds(20)).build());
  private final List<String> seen = Collections.synchronizedList(new ArrayList<>());
  @TempDir
  Path dir;

  private SoapServer backend() throws IOException {
    return open.keep(SoapServer.builder().endpoint("/echo", Dispatcher.builder()
        .wsdl(EchoService.wsdl()).fallback(r -> {
          seen.add(r.body().utf8());
          return EchoService.echo(r);
        }).build()).build().start());
  }

  private Broker broker(String stylesheet, SoapServer backend) throws IOException {
    Files.writeString(dir.resolve("t.xsl"), stylesheet);
    return open.keep(Broker.builder().routes(Routes.load(Files.writeString(
        dir.resolve("routes.yaml"), "routes:\n  - path: /echo\n    to: "
            + backend.uri("/echo") + "\n    xslt: {request: t.xsl}\n"))).build().start());
  }

  private SoapResponse call(Broker b, SoapVersion v, String name, ByteString blob)
      throws IOException {
    return client.call(b.uri("/echo"), EchoService.request(CODEC, v, blob.size() > 2048
        ? MtomPolicy.ALWAYS : MtomPolicy.NEVER, name, blob), null);
  }

  @Test
  void theBackendGetsTheTransformedPayloadWithItsAttachmentsUntouched() throws Exception {
    Broker b = broker(UPPER, backend());
    for (SoapVersion v : SoapVersion.values()) {
      for (int size : new int[] {1_000, 200_000}) { // held inline, streamed MTOM
        ByteString blob = ByteString.of(Blobs.random(size, size));
        try (SoapResponse r = call(b, v, "quiet name " + size, blob)) {
          EchoService.Echo e = EchoService.readEcho(r.message());
          assertThat(e.name()).isEqualTo("QUIET NAME " + size);
          assertThat(e.attachinfo()).isEqualTo(blob);
        }
      }
    }
    assertThat(seen).hasSize(4);
    assertThat(seen.get(1)).contains("xop:Include"); // the attachment left as it came
  }

  @Test
  void aStylesheetsErrorIsAFaultThatNeverReachesTheBackend() throws Exception {
    Broker b = broker(UPPER, backend());
    try (SoapResponse r = call(b, SoapVersion.SOAP_12, "bad", ByteString.encodeUtf8("x"))) {
      assertThat(r.status()).isEqualTo(500);
      assertThat(r.fault().code().getLocalPart()).isEqualTo("Receiver");
      assertThat(r.fault().reason()).isEqualTo("the transformation of /echo failed: no bad"
          + " names");
    }
    assertThat(seen).isEmpty();
  }

  @Test
  void anOutputPastTheCapIsAFault() throws Exception {
    Broker b = broker(OVERFLOW, backend());
    try (SoapResponse r = call(b, SoapVersion.SOAP_11, "n", ByteString.encodeUtf8("x"))) {
      assertThat(r.fault().reason()).isEqualTo("the transformation of /echo wrote more than"
          + " 16777216 bytes (RouteTransform.MAX_OUTPUT_BYTES)");
    }
    assertThat(seen).isEmpty();
  }

  @Test
  void aStylesheetReachesNoFile() throws Exception {
    Path secret = Files.writeString(dir.resolve("secret.xml"), "<s>SECRET-42</s>");
    Broker b = broker(HEAD + "<xsl:template match=\"/\"><t:testMtom><t:name><xsl:value-of"
        + " select=\"document('" + secret.toUri() + "')\"/></t:name><t:attachinfo>eA=="
        + "</t:attachinfo></t:testMtom></xsl:template>\n</xsl:stylesheet>\n", backend());
    try (SoapResponse r = call(b, SoapVersion.SOAP_11, "n", ByteString.encodeUtf8("x"))) {
      if (!r.isFault()) {
        assertThat(EchoService.readEcho(r.message()).name()).doesNotContain("SECRET");
      }
    }
    assertThat(String.join("", seen)).doesNotContain("SECRET");
  }

  @Test
  void aStylesheetWithADoctypeOrAMistakeIsRefusedAsTheRoutesLoad() throws Exception {
    SoapServer backend = backend();
    assertThatThrownBy(() -> broker("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
        + UPPER, backend)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 4: routes[0].xslt.request: the stylesheet t.xsl does not"
            + " compile: ").hasMessageNotContaining("root:");
    assertThatThrownBy(() -> broker(HEAD + "<xsl:template match=\"t:name[\"/>"
        + "</xsl:stylesheet>", backend)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("routes[0].xslt.request: the stylesheet t.xsl does not compile:");
    Files.writeString(dir.resolve("t.xsl"), UPPER);
    assertThatThrownBy(() -> Routes.load(Files.writeString(dir.resolve("v.yaml"),
        "routes:\n  - path: /echo\n    to: http://127.0.0.1:1/echo\n    xslt: {request: t.xsl}\n"
        + "    wsSecurity:\n      inbound: {timestamp: 5m}\n")))
        .hasMessageContaining("a transformed Body would fail the signature at the backend");
  }
}
