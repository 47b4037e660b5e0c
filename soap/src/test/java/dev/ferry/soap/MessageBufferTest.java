package dev.ferry.soap;

import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.bytes.ByteString;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamReader;
import org.junit.jupiter.api.Test;

class MessageBufferTest {
  static final SoapCodec SOAP = SoapCodec.create();
  static final String S11 = "http://schemas.xmlsoap.org/soap/envelope/";
  static final String S12 = "http://www.w3.org/2003/05/soap-envelope";

  static final String ENVELOPE = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      + "<soap:Envelope xmlns:soap=\"" + S12 + "\" xmlns:wsa=\"" + Addressing.NS + "\">\n"
      + "  <soap:Header>\n"
      + "    <wsa:To>http://example.org/in</wsa:To>\n"
      + "    <wsa:Action soap:mustUnderstand=\"true\">urn:echo</wsa:Action>\n"
      + "    <wsa:ReplyTo><wsa:Address>" + Addressing.ANONYMOUS + "</wsa:Address></wsa:ReplyTo>\n"
      + "    <x:Trace xmlns:x=\"urn:x\" soap:role=\"urn:role\">a &amp; b</x:Trace>\n"
      + "  </soap:Header>\n"
      + "  <soap:Body><m:echo xmlns:m=\"urn:m\"><m:v>42</m:v></m:echo></soap:Body>\n"
      + "</soap:Envelope>\n";

  static final String MTOM_TYPE = "multipart/related; type=\"application/xop+xml\";"
      + " boundary=\"b\"; start=\"<root>\"; start-info=\"text/xml\"";

  /** {@code envelope} as the root of an XOP package with no attachments. */
  static String mtom(String envelope) {
    String xop = envelope.replace("<b/>", "<b><xop:Include xmlns:xop="
        + "\"http://www.w3.org/2004/08/xop/include\" href=\"cid:a\"/></b>");
    return "--b\r\nContent-Type: application/xop+xml; type=\"text/xml\"\r\n"
        + "Content-ID: <root>\r\n\r\n" + xop + "\r\n--b\r\nContent-ID: <a>\r\n\r\nbytes"
        + "\r\n--b--\r\n";
  }

  static MessageBuffer parse(String xml) throws Exception {
    return SOAP.parse(ByteString.encodeUtf8(xml));
  }

  @Test
  void indexesHeaderBlocksAsSlicesAndTheBodyUnparsed() throws Exception {
    MessageBuffer buf = parse(ENVELOPE);
    assertThat(buf.version()).isEqualTo(SoapVersion.SOAP_12);
    assertThat(buf.headers()).extracting(HeaderBlock::name).containsExactly(Addressing.TO,
        Addressing.ACTION, Addressing.REPLY_TO, new QName("urn:x", "Trace"));
    HeaderBlock action = buf.headers().get(1);
    assertThat(action.mustUnderstand()).isTrue();
    assertThat(action.xml().utf8())
        .isEqualTo("<wsa:Action soap:mustUnderstand=\"true\">urn:echo</wsa:Action>");
    assertThat(buf.headers().get(3).role()).isEqualTo("urn:role");
    assertThat(buf.headers().get(3).text()).isEqualTo("a & b");
    assertThat(buf.body().utf8()).isEqualTo(
        "<soap:Body><m:echo xmlns:m=\"urn:m\"><m:v>42</m:v></m:echo></soap:Body>");
    Message m = buf.toMessage();
    assertThat(m.addressing().to()).isEqualTo("http://example.org/in");
    assertThat(m.addressing().action()).isEqualTo("urn:echo");
    assertThat(m.addressing().replyTo()).isEqualTo(Addressing.ANONYMOUS);
  }

  @Test
  void anUntouchedMessageIsWrittenAsReceived() throws Exception {
    MessageBuffer buf = parse(ENVELOPE);
    assertThat(buf.toMessage().toByteString().utf8()).isEqualTo(ENVELOPE);
    assertThat(buf.toMessage().copy().toByteString().utf8()).isEqualTo(ENVELOPE);
  }

  @Test
  void copyThenModifyLeavesTheOriginalIntact() throws Exception {
    Message original = parse(ENVELOPE).toMessage();
    Message copy = original.copy();
    copy.addressing().setTo("http://backend/svc").setMessageId("urn:uuid:1");
    copy.removeHeaders(new QName("urn:x", "Trace"));
    assertThat(original.toByteString().utf8()).isEqualTo(ENVELOPE);
    String written = copy.toByteString().utf8();
    assertThat(written).isEqualTo(ENVELOPE
        .replace("<wsa:To>http://example.org/in</wsa:To>",
            "<wsa:To xmlns:wsa=\"" + Addressing.NS + "\">http://backend/svc</wsa:To>")
        .replace("\n    <x:Trace xmlns:x=\"urn:x\" soap:role=\"urn:role\">a &amp; b</x:Trace>",
            "<wsa:MessageID xmlns:wsa=\"" + Addressing.NS + "\">urn:uuid:1</wsa:MessageID>"));
    Message reread = SOAP.parse(ByteString.encodeUtf8(written)).toMessage();
    assertThat(reread.addressing().to()).isEqualTo("http://backend/svc");
    assertThat(reread.addressing().messageId()).isEqualTo("urn:uuid:1");
    assertThat(reread.buffer().body()).isEqualTo(original.buffer().body());
  }

  @Test
  void headerIsCreatedWhenTheEnvelopeHasNone() throws Exception {
    String xml = "<e:Envelope xmlns:e=\"" + S11 + "\"><e:Body><a/></e:Body></e:Envelope>";
    Message m = parse(xml).toMessage();
    assertThat(m.headers()).isEmpty();
    m.addressing().setAction("urn:a");
    assertThat(m.toByteString().utf8()).isEqualTo("<e:Envelope xmlns:e=\"" + S11 + "\">"
        + "<e:Header><wsa:Action xmlns:wsa=\"" + Addressing.NS + "\">urn:a</wsa:Action>"
        + "</e:Header><e:Body><a/></e:Body></e:Envelope>");
  }

  @Test
  void defaultNamespaceEnvelopeAndEmptyBody() throws Exception {
    String xml = "<Envelope xmlns=\"" + S11 + "\"><Header/><Body/></Envelope>";
    MessageBuffer buf = parse(xml);
    assertThat(buf.version()).isEqualTo(SoapVersion.SOAP_11);
    assertThat(buf.body().utf8()).isEqualTo("<Body/>");
    assertThat(buf.toMessage().toByteString().utf8()).isEqualTo(xml);
  }

  @Test
  void anUnusualTailFallsBackToParsingTheBody() throws Exception {
    String xml = "<s:Envelope xmlns:s=\"" + S11 + "\"><s:Body><a>x</a></s:Body><!-- c -->"
        + "</s:Envelope>";
    assertThat(parse(xml).body().utf8()).isEqualTo("<s:Body><a>x</a></s:Body>");
  }

  @Test
  void replacedBodyAndBodyReader() throws Exception {
    Message m = parse(ENVELOPE).toMessage();
    XMLStreamReader r = m.bodyReader();
    assertThat(r.getLocalName()).isEqualTo("Body");
    r.nextTag();
    assertThat(r.getLocalName()).isEqualTo("echo");
    m.replaceBody(ByteString.encodeUtf8("<n:other xmlns:n=\"urn:n\"/>"));
    assertThat(m.body().utf8()).isEqualTo("<soap:Body><n:other xmlns:n=\"urn:n\"/></soap:Body>");
    XMLStreamReader r2 = m.bodyReader();
    r2.nextTag();
    assertThat(r2.getLocalName()).isEqualTo("other");
  }

  @Test
  void mustUnderstandProcessing() throws Exception {
    Message m = parse(ENVELOPE).toMessage();
    assertThat(m.notUnderstood(Set.of(), Set.of())).extracting(HeaderBlock::name)
        .containsExactly(Addressing.ACTION);
    assertThat(m.notUnderstood(Set.of(Addressing.ACTION), Set.of())).isEmpty();
  }

  @Test
  void notAnEnvelope() {
    SoapException e = assertThrows(SoapException.class, () -> parse("<a/>"));
    assertMentions(e.reason(), "not a SOAP envelope", "a");
    VersionMismatchException v = assertThrows(VersionMismatchException.class,
        () -> parse("<s:Envelope xmlns:s=\"urn:x\"/>"));
    assertMentions(v.reason(), "unknown SOAP envelope namespace \"urn:x\"");
    assertThat(v.namespace()).isEqualTo("urn:x");
    e = assertThrows(SoapException.class, () -> parse("<s:Envelope xmlns:s=\"" + S11
        + "\"><s:Header/><s:Other/></s:Envelope>"));
    assertMentions(e.reason(), "expected {" + S11 + "}Body");
    assertThat(e.byteOffset()).isEqualTo(75); // the "<" of <s:Other/>
    e = assertThrows(SoapException.class, () -> parse("<s:Envelope xmlns:s=\"" + S11
        + "\">text<s:Body/></s:Envelope>"));
    assertMentions(e.reason(), "text outside header blocks");
  }

  @Test
  void theIndexReadsTheBodysFirstElementAndTheCheckItsShape() throws Exception {
    String open = "<s:Envelope xmlns:s=\"" + S11 + "\">";
    assertThat(parse(open + "<s:Body><!-- c --><m:op xmlns:m=\"urn:m\"><a/></m:op><m:b"
        + " xmlns:m=\"urn:m\"/></s:Body></s:Envelope>").bodyElement())
        .isEqualTo(new javax.xml.namespace.QName("urn:m", "op"));
    // an empty Body, or one with comments only, is a SOAP message whose Body holds nothing
    assertThat(parse(open + "<s:Body/></s:Envelope>").bodyElement()).isNull();
    assertThat(parse(open + "<s:Body> <!-- nothing --> </s:Body></s:Envelope>").bodyElement())
        .isNull();
    // a second Body (the tail makes both one Body) is refused where it starts, by the check
    String two = open + "<s:Body><a/></s:Body><s:Body><b/></s:Body></s:Envelope>";
    MessageBuffer twoBodies = parse(two);
    SoapException e = assertThrows(SoapException.class, twoBodies::checkBody);
    assertMentions(e.reason(), "after the Body");
    assertThat(e.byteOffset()).isEqualTo(two.indexOf("<s:Body><b/>"));
    MessageBuffer broken = parse(open + "<s:Body><a></s:Body></s:Envelope>");
    e = assertThrows(SoapException.class, broken::checkBody);
    assertMentions(e.reason(), "malformed Body");
  }

  @Test
  void anEnvelopeHasOneBodyItsLastChildWhateverTheBodiesLookLike() {
    String open = "<s:Envelope xmlns:s=\"" + S11 + "\">";
    String[] refused = {
        open + "<s:Body/><s:Body><b/></s:Body></s:Envelope>",
        open + "<s:Body>text</s:Body><s:Body><b/></s:Body></s:Envelope>",
        open + "<s:Body><a/></s:Body><t:Body xmlns:t=\"" + S11 + "\"><b/></t:Body></s:Envelope>",
        open + "<s:Header/><s:Body><a/></s:Body> <!-- c --> <s:Body><b/></s:Body></s:Envelope>",
        open + "<s:Body><a/></s:Body><x:Other xmlns:x=\"urn:x\"/></s:Envelope>",
        open + "<s:Body><a/></s:Body><s:Body><b/></s:Body><!-- tail --></s:Envelope>",
    };
    for (String xml : refused) { // by the index where it reads past the Body, else the check
      SoapException e = assertThrows(SoapException.class, () -> parse(xml).checkBody(), xml);
      assertMentions(e.reason(), "after the Body");
    }
    // the same through the index that reads the Body through (an XOP package's root)
    SoapException e = assertThrows(SoapException.class, () -> SOAP.read(
        new java.io.ByteArrayInputStream(mtom(refused[2]).getBytes(
            java.nio.charset.StandardCharsets.UTF_8)), MTOM_TYPE));
    assertMentions(e.reason(), "after the Body");
  }

  @Test
  void theShapeCheckRefusesWhatAReaderByNameWouldTakeForTheBody() throws Exception {
    String open = "<s:Envelope xmlns:s=\"" + S11 + "\">";
    String two = open + "<s:Body><a/></s:Body><s:Body><b/></s:Body></s:Envelope>";
    SoapException e = assertThrows(SoapException.class, () -> parse(two).checkShape());
    assertMentions(e.reason(), "child 2 is {" + S11 + "}Body");
    assertThat(e.byteOffset()).isEqualTo(two.indexOf("<s:Body><b/>"));
    String inHeader = open + "<s:Header><h xmlns=\"urn:h\"><Body>x</Body></h></s:Header>"
        + "<s:Body><a/></s:Body></s:Envelope>";
    e = assertThrows(SoapException.class, () -> parse(inHeader).checkShape());
    assertMentions(e.reason(), "called Body in the Header");
    assertThat(e.byteOffset()).isEqualTo(inHeader.indexOf("<Body>"));
    // the bytes Body where they do no harm: settled by a parse, accepted
    parse(open + "<s:Header><h xmlns=\"urn:h\">Body</h></s:Header><s:Body><a><Body/>"
        + "<!-- </s:Body> --></a></s:Body></s:Envelope>").checkShape();
    parse(open + "<s:Body><a>no name in here</a></s:Body> </s:Envelope>").checkShape();
    parse(open + "<s:Body/></s:Envelope>").checkShape();
  }

  @Test
  void theBodyXmlReaderLeavesIncludesToThePackage() throws Exception {
    String xml = "<s:Envelope xmlns:s=\"" + S11 + "\"><s:Body><m:op xmlns:m=\"urn:m\"><b/>"
        + "</m:op></s:Body></s:Envelope>";
    try (MessageBuffer b = SOAP.read(new java.io.ByteArrayInputStream(mtom(xml).getBytes(
        java.nio.charset.StandardCharsets.UTF_8)), MTOM_TYPE)) {
      XMLStreamReader r = b.toMessage().bodyXmlReader();
      assertThat(r.getLocalName()).isEqualTo("Body");
      StringBuilder names = new StringBuilder();
      while (r.hasNext()) {
        if (r.next() == XMLStreamReader.START_ELEMENT) {
          names.append(r.getLocalName()).append(' ');
        }
      }
      assertThat(names).hasToString("op b Include ");
      // the attachment is still the package's, unread
      assertThat(b.attachments().attachments()).singleElement()
          .satisfies(a -> assertThat(a.bytes().utf8()).isEqualTo("bytes"));
    }
  }

  @Test
  void theBodysOwnNameInsideItIsNotASecondBody() throws Exception {
    String open = "<s:Envelope xmlns:s=\"" + S11 + "\">";
    String[] accepted = {
        open + "<s:Body><a><s:Body xmlns:s=\"urn:other\">x</s:Body></a></s:Body></s:Envelope>",
        open + "<s:Body><a><!-- </s:Body><s:Body> --></a></s:Body></s:Envelope>",
        open + "<s:Body><a><![CDATA[</s:Body>]]></a></s:Body></s:Envelope>",
        open + "<s:Body><a>&lt;/s:Body&gt;</a></s:Body>  </s:Envelope>",
    };
    for (String xml : accepted) {
      MessageBuffer b = parse(xml);
      assertThat(b.bodyElement()).isEqualTo(new QName("a"));
      assertThat(b.body().utf8()).isEqualTo(xml.substring(xml.indexOf("<s:Body>"),
          xml.lastIndexOf("</s:Body>") + 9));
      b.checkBody();
    }
  }

  @Test
  void theBodyReaderFindsTheBodyByStructureNotByName() throws Exception {
    String xml = "<s:Envelope xmlns:s=\"" + S12 + "\"><s:Header>"
        + "<w:Wrap xmlns:w=\"urn:w\"><s:Body><evil/></s:Body></w:Wrap>"
        + "<s:Body><evil/></s:Body></s:Header>"
        + "<s:Body><good/></s:Body></s:Envelope>";
    Message m = parse(xml).toMessage();
    XMLStreamReader r = m.bodyReader();
    assertThat(r.getName()).isEqualTo(new QName(S12, "Body"));
    r.nextTag();
    assertThat(r.getLocalName()).isEqualTo("good");
    assertThat(m.isFault()).isFalse();
    String fault = xml.replace("<good/>", "<s:Fault><s:Code><s:Value>s:Sender</s:Value>"
        + "</s:Code><s:Reason><s:Text xml:lang=\"en\">real</s:Text></s:Reason></s:Fault>")
        .replace("<evil/>", "<s:Fault><s:Code><s:Value>s:Receiver</s:Value></s:Code><s:Reason>"
        + "<s:Text xml:lang=\"en\">evil</s:Text></s:Reason></s:Fault>");
    Message f = parse(fault).toMessage();
    assertThat(f.isFault()).isTrue();
    assertThat(Fault.read(f).reason()).isEqualTo("real");
    Message plain = parse(xml.replace("<good/>", "")).toMessage();
    assertThat(plain.isFault()).isFalse();
    assertThat(Fault.read(plain)).isNull();
  }

  @Test
  void theBodyCheckAppliesTheXmlLimitsToTheBody() {
    SoapCodec shallow = SoapCodec.create(SoapLimits.builder().xop(dev.ferry.xop.XopLimits
        .builder().xml(dev.ferry.xop.XmlLimits.builder().maxDepth(10).maxAttributeBytes(100)
            .build()).build()).build(), dev.ferry.xop.XopCodec.builder());
    String open = "<s:Envelope xmlns:s=\"" + S11 + "\"><s:Body>";
    String deep = open + "<a>".repeat(9) + "</a>".repeat(9) + "</s:Body></s:Envelope>";
    SoapException e = assertThrows(SoapException.class,
        () -> shallow.parse(dev.ferry.bytes.ByteString.encodeUtf8(deep)).checkBody());
    assertThat(e.limitName()).isEqualTo("XmlLimits.maxDepth");
    assertThat(e.byteOffset()).isPositive();
    String wide = open + "<a x=\"" + "y".repeat(200) + "\"/></s:Body></s:Envelope>";
    e = assertThrows(SoapException.class,
        () -> shallow.parse(dev.ferry.bytes.ByteString.encodeUtf8(wide)).checkBody());
    assertThat(e.limitName()).isEqualTo("XmlLimits.maxAttributeBytes");
  }

  @Test
  void headerBlockLimit() throws Exception {
    SoapCodec small = SoapCodec.create(SoapLimits.builder().maxHeaderBlocks(2).build(),
        dev.ferry.xop.XopCodec.builder());
    String two = "<s:Envelope xmlns:s=\"" + S11 + "\"><s:Header><a/><b/></s:Header><s:Body/>"
        + "</s:Envelope>";
    assertThat(small.parse(ByteString.encodeUtf8(two)).headers()).hasSize(2);
    SoapException e = assertThrows(SoapException.class,
        () -> small.parse(ByteString.encodeUtf8(two.replace("<b/>", "<b/><c/>"))));
    assertThat(e.limitName()).isEqualTo("SoapLimits.maxHeaderBlocks");
  }

  @Test
  void dtdIsRefused() {
    SoapException e = assertThrows(SoapException.class, () -> parse("<!DOCTYPE x []>"
        + "<s:Envelope xmlns:s=\"" + S11 + "\"><s:Body/></s:Envelope>"));
    assertMentions(e.reason(), "DTD not allowed");
  }
}
