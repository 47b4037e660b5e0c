package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Envelopes built to mislead a reader that finds the Body by name or by the envelope's tail:
 * Body-named elements in headers and inside the Body, the Body's end tag in comments and CDATA,
 * a second Body with the same or another prefix, an element after the Body. The index and the
 * Body's check accept exactly the envelopes whose children are an optional Header and one Body
 * (as the JDK's DOM parser sees them), and {@link Message#bodyReader} then reads the Body DOM
 * has there.
 */
class OneBodyProperties {
  static final SoapCodec SOAP = SoapCodec.create();
  static final String WRAP = "<w:Wrap xmlns:w=\"urn:w\">%s</w:Wrap>";

  /** Pieces of an envelope: {@code P} stands for its prefix, {@code NS} its namespace. */
  record Shape(boolean soap12, String prefix, String header, String firstBody, String after) {}

  @Property(tries = 600)
  void theIndexAndTheBodyReaderAgreeWithDom(@ForAll("shapes") Shape shape) throws Exception {
    String xml = envelope(shape);
    Element domBody = onlyBody(xml);
    if (domBody == null) {
      assertThatThrownBy(() -> SOAP.parse(ByteString.encodeUtf8(xml)).checkBody())
          .as(xml).isInstanceOf(SoapException.class);
      return;
    }
    MessageBuffer buffer = SOAP.parse(ByteString.encodeUtf8(xml));
    buffer.checkBody();
    XMLStreamReader r = buffer.toMessage().bodyReader();
    assertThat(r.getNamespaceURI()).isEqualTo(domBody.getNamespaceURI());
    Element first = firstElement(domBody);
    String read = null;
    for (int e = r.next(); e != XMLStreamConstants.END_ELEMENT; e = r.next()) {
      if (e == XMLStreamConstants.START_ELEMENT) {
        read = r.getLocalName();
        break;
      }
    }
    assertThat(read).as(xml).isEqualTo(first == null ? null : first.getLocalName());
    assertThat(buffer.bodyElement() == null ? null : buffer.bodyElement().getLocalPart())
        .isEqualTo(read);
  }

  /**
   * The shape check accepts exactly what DOM sees as [Header] Body with no element called Body
   * in the Header, whether the bytes settle it or a parse must.
   */
  @Property(tries = 600)
  void theShapeCheckAgreesWithDom(@ForAll("shapes") Shape shape) throws Exception {
    String xml = envelope(shape);
    Element domBody = onlyBody(xml);
    boolean wellShaped = domBody != null && !bodyInHeader(domBody);
    MessageBuffer buffer;
    try {
      buffer = SOAP.parse(ByteString.encodeUtf8(xml));
    } catch (SoapException e) {
      assertThat(domBody).as(xml).isNull(); // the index refused a second Body it parsed to
      return;
    }
    if (wellShaped) {
      buffer.checkShape();
    } else {
      assertThatThrownBy(buffer::checkShape).as(xml).isInstanceOf(SoapException.class);
    }
  }

  private static boolean bodyInHeader(Element body) {
    Node header = body.getPreviousSibling();
    while (header != null && !(header instanceof Element)) {
      header = header.getPreviousSibling();
    }
    return header instanceof Element h && h.getElementsByTagNameNS("*", "Body").getLength() > 0;
  }

  static String envelope(Shape s) {
    String ns = s.soap12() ? SoapVersion.SOAP_12.namespace() : SoapVersion.SOAP_11.namespace();
    String p = s.prefix().isEmpty() ? "" : s.prefix() + ":";
    String decl = s.prefix().isEmpty() ? "xmlns=\"" + ns + "\""
        : "xmlns:" + s.prefix() + "=\"" + ns + "\"";
    String body = (s.header() + s.firstBody() + s.after()).replace("P:", p)
        .replace("NS", ns).replace("xmlns:=", "xmlns=");
    return "<" + p + "Envelope " + decl + ">" + body + "</" + p + "Envelope>";
  }

  /** The Envelope's Body if its element children are [Header] Body, else null. */
  static Element onlyBody(String xml) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    DocumentBuilder b = f.newDocumentBuilder();
    b.setErrorHandler(null);
    Document d = b.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    Element env = d.getDocumentElement();
    List<Element> children = new ArrayList<>();
    for (Node n = env.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) {
        children.add(e);
      }
    }
    String ns = env.getNamespaceURI();
    int i = 0;
    if (i < children.size() && isSoap(children.get(i), ns, "Header")) {
      i++;
    }
    if (children.size() != i + 1 || !isSoap(children.get(i), ns, "Body")) {
      return null;
    }
    return children.get(i);
  }

  private static boolean isSoap(Element e, String ns, String local) {
    return ns.equals(e.getNamespaceURI()) && local.equals(e.getLocalName());
  }

  private static Element firstElement(Element e) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c) {
        return c;
      }
    }
    return null;
  }

  @Provide
  Arbitrary<Shape> shapes() {
    Arbitrary<String> decoy = Arbitraries.of(
        "<P:Body><m:evil xmlns:m=\"urn:m\"/></P:Body>",
        String.format(WRAP, "<P:Body><m:evil xmlns:m=\"urn:m\"/></P:Body>"),
        "<q:Body xmlns:q=\"NS\"><m:evil xmlns:m=\"urn:m\"/></q:Body>",
        "<m:Body xmlns:m=\"urn:m\">x</m:Body>",
        "<!-- </P:Body> -->",
        "<m:t xmlns:m=\"urn:m\"><![CDATA[</P:Body><P:Body>]]></m:t>",
        "<m:t xmlns:m=\"urn:m\">&lt;/P:Body&gt;</m:t>",
        "<m:t xmlns:m=\"urn:m\"><P:Body xmlns:P=\"urn:other\">y</P:Body></m:t>",
        "<m:good xmlns:m=\"urn:m\"/>");
    Arbitrary<String> content = decoy.list().ofMaxSize(3).map(l -> String.join("", l));
    Arbitrary<String> header = Arbitraries.oneOf(Arbitraries.just(""),
        Arbitraries.just("<P:Header/>"),
        content.map(c -> "<P:Header>" + c + "</P:Header>"));
    Arbitrary<String> firstBody = Arbitraries.oneOf(
        Arbitraries.just("<P:Body/>"), Arbitraries.just("<P:Body>text</P:Body>"),
        content.map(c -> "<P:Body><m:op xmlns:m=\"urn:m\">" + c + "</m:op>" + c + "</P:Body>"),
        content.map(c -> "<b:Body xmlns:b=\"NS\"><m:op xmlns:m=\"urn:m\">" + c
            + "</m:op></b:Body>"));
    Arbitrary<String> after = Arbitraries.of("", " ", "<!-- c -->",
        "<P:Body><m:evil xmlns:m=\"urn:m\"/></P:Body>",
        "<q:Body xmlns:q=\"NS\"><m:evil xmlns:m=\"urn:m\"/></q:Body>",
        " <P:Body/> ", "<m:Other xmlns:m=\"urn:m\"/>", "<P:Header/>");
    return net.jqwik.api.Combinators.combine(Arbitraries.of(true, false),
        Arbitraries.of("s", "soap", "SOAP-ENV", ""), header, firstBody, after).as(Shape::new);
  }
}
