package dev.ferry.testkit;

import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * XML Signature Wrapping variants of a signed SOAP envelope, after the published taxonomy
 * (McIntosh and Austel, "XML Signature Element Wrapping Attacks and Countermeasures", 2005;
 * Somorovsky et al., "On Breaking SAML", 2012): the signed Body moved, copied, nested and
 * duplicated, with and without its Id; the attacker's Body before, after and around it, in the
 * Header, in a wrapper, in {@code wsse:Security}, in the Body; Id attributes of other namespaces;
 * prefix and namespace tricks; a second Timestamp, a second Security header, signed headers
 * duplicated. Every attacker element carries {@link #EVIL} in its text: a receiver is safe when
 * it refuses the variant or its application never reads that text.
 *
 * <p>The envelope must have a Header with a {@code wsse:Security} header and a Body with a
 * {@code wsu:Id} (as WS-Security signs it); the Body's first element is the operation.
 */
public final class WrappingCorpus {
  /** The text of every attacker element (also valid base64, for typed endpoints' binaries). */
  public static final String EVIL = "EVILEVIL";
  /** The address attacker-added addressing headers carry. */
  public static final String EVIL_ADDRESS = "http://evil.example/" + EVIL;

  static final String WSU = "http://docs.oasis-open.org/wss/2004/01/"
      + "oasis-200401-wss-wssecurity-utility-1.0.xsd";
  static final String WSSE = "http://docs.oasis-open.org/wss/2004/01/"
      + "oasis-200401-wss-wssecurity-secext-1.0.xsd";
  static final String WSA = "http://www.w3.org/2005/08/addressing";
  static final String XMLNS = "http://www.w3.org/2000/xmlns/";
  static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
  static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";

  /** One variant: what was done, and the envelope it made. */
  public record Variant(String name, String envelope) {
    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * One attack: what it does, done to any signed envelope. A receiver that remembers signed
   * timestamps refuses a second message with the same one as a replay, so tests that send every
   * attack to one receiver apply each to a message signed for it.
   */
  public record Attack(String name, Consumer<Document> change) {
    /** The variant of {@code signedEnvelope} this attack makes, or null if it changes nothing. */
    public Variant apply(String signedEnvelope) {
      Document d = parse(signedEnvelope);
      change.accept(d);
      String out = write(d);
      return out.equals(control(signedEnvelope)) ? null : new Variant(name, out);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** How the attacker's Body names itself. */
  enum Id { NONE, SAME, UNQUALIFIED, XML_ID, OTHER_NAMESPACE }

  /** Where an element goes. */
  enum Place {
    HEADER_FIRST, HEADER_LAST, HEADER_WRAPPER, HEADER_OPTIONAL, SECURITY_AFTER_TIMESTAMP,
    SECURITY_FIRST, SECURITY_WRAPPER, BODY_WRAPPER, ENVELOPE_BEFORE_BODY, ENVELOPE_AFTER_BODY
  }

  private final List<Attack> attacks = new ArrayList<>();

  private WrappingCorpus() {}

  /**
   * {@code signedEnvelope} unchanged but written as the variants are (a receiver must accept it:
   * else the corpus's refusals prove nothing).
   */
  public static String control(String signedEnvelope) {
    return write(parse(signedEnvelope));
  }

  /** Every variant of {@code signedEnvelope}. */
  public static List<Variant> of(String signedEnvelope) {
    List<Variant> variants = new ArrayList<>();
    for (Attack a : attacks()) {
      Variant v = a.apply(signedEnvelope);
      if (v != null) {
        variants.add(v);
      }
    }
    return variants;
  }

  /** Every attack. */
  public static List<Attack> attacks() {
    WrappingCorpus c = new WrappingCorpus();
    c.moveTheSignedBody();
    c.addAnAttackerBody();
    c.nest();
    c.namespaceTricks();
    c.timestamps();
    c.securityHeaders();
    c.signedHeaders();
    return List.copyOf(c.attacks);
  }

  /** The signed Body moved to {@code place}; the attacker's Body where the Body was. */
  private void moveTheSignedBody() {
    for (Place place : Place.values()) {
      if (place == Place.ENVELOPE_BEFORE_BODY || place == Place.ENVELOPE_AFTER_BODY) {
        continue; // those leave two Bodies: addAnAttackerBody has them
      }
      for (Id id : Id.values()) {
        add("signed Body moved to " + place + ", attacker Body in place, its Id " + id, d -> {
          Element body = body(d);
          Element evil = attackerBody(d, body, id);
          body.getParentNode().replaceChild(evil, body);
          put(d, body, place, evil);
        });
      }
    }
  }

  /** The signed Body where it is; an attacker's Body (or a copy of the signed one) elsewhere. */
  private void addAnAttackerBody() {
    for (Place place : Place.values()) {
      for (Id id : Id.values()) {
        add("attacker Body at " + place + ", its Id " + id, d -> {
          Element body = body(d);
          put(d, attackerBody(d, body, id), place, body);
        });
      }
      add("a changed copy of the signed Body at " + place, d -> {
        Element body = body(d);
        Element copy = (Element) body.cloneNode(true);
        replaceTexts(firstElement(copy));
        put(d, copy, place, body);
      });
    }
  }

  /** The attacker's Body inside the signed one, and the signed one inside the attacker's. */
  private void nest() {
    add("attacker Body inside the signed Body", d -> {
      Element body = body(d);
      body.appendChild(attackerBody(d, body, Id.NONE));
    });
    add("attacker payload after the signed operation in the signed Body", d -> {
      Element body = body(d);
      body.appendChild(attackerPayload(d, body));
    });
    add("signed operation moved into a header, attacker payload in the signed Body", d -> {
      Element body = body(d);
      Element op = firstElement(body);
      body.replaceChild(attackerPayload(d, body), op);
      header(d).appendChild(op);
    });
  }

  private void namespaceTricks() {
    add("attacker Body of the other SOAP version before the signed Body", d -> {
      Element body = body(d);
      String other = SOAP11.equals(body.getNamespaceURI()) ? SOAP12 : SOAP11;
      Element evil = d.createElementNS(other, "o12:Body");
      evil.setAttributeNS(XMLNS, "xmlns:o12", other);
      evil.appendChild(attackerPayload(d, body));
      body.getParentNode().insertBefore(evil, body);
    });
    add("attacker Body under another prefix of the SOAP namespace, after the signed Body", d -> {
      Element body = body(d);
      Element evil = d.createElementNS(body.getNamespaceURI(), "alt:Body");
      evil.setAttributeNS(XMLNS, "xmlns:alt", body.getNamespaceURI());
      evil.appendChild(attackerPayload(d, body));
      body.getParentNode().insertBefore(evil, body.getNextSibling());
    });
    add("a header redeclaring the envelope's prefix, holding a Body of that prefix", d -> {
      Element body = body(d);
      Element wrapper = d.createElementNS("urn:evil", "w:Notes");
      wrapper.setAttributeNS(XMLNS, "xmlns:w", "urn:evil");
      String prefix = body.getPrefix() == null ? "" : body.getPrefix();
      Element fake = d.createElementNS("urn:not-soap", prefix.isEmpty() ? "Body"
          : prefix + ":Body");
      fake.setAttributeNS(XMLNS, prefix.isEmpty() ? "xmlns" : "xmlns:" + prefix,
          "urn:not-soap");
      fake.appendChild(attackerPayload(d, body));
      wrapper.appendChild(fake);
      header(d).appendChild(wrapper);
    });
    add("the signed Body's wsu:Id moved to an Id of another namespace", d -> {
      Element body = body(d);
      String id = body.getAttributeNS(WSU, "Id");
      body.removeAttributeNS(WSU, "Id");
      body.setAttributeNS("urn:evil", "e:Id", id);
      body.setAttributeNS(XMLNS, "xmlns:e", "urn:evil");
    });
    add("a second Id on the signed Body pointing the attacker's way", d -> {
      Element body = body(d);
      body.setAttributeNS(null, "Id", body.getAttributeNS(WSU, "Id"));
      Element evil = attackerBody(d, body, Id.SAME);
      put(d, evil, Place.HEADER_WRAPPER, body);
    });
  }

  private void timestamps() {
    add("a second, unsigned Timestamp before the signed one", d -> {
      Element ts = timestamp(d);
      if (ts != null) {
        Element evil = (Element) ts.cloneNode(true);
        evil.removeAttributeNS(WSU, "Id");
        ts.getParentNode().insertBefore(evil, ts);
      }
    });
    add("the signed Timestamp moved into a wrapper, a fresh unsigned one in its place", d -> {
      Element ts = timestamp(d);
      if (ts != null) {
        Element fresh = (Element) ts.cloneNode(true);
        fresh.removeAttributeNS(WSU, "Id");
        ts.getParentNode().replaceChild(fresh, ts);
        Element wrapper = wrapper(d);
        wrapper.appendChild(ts);
        header(d).appendChild(wrapper);
      }
    });
  }

  private void securityHeaders() {
    add("a second Security header for the same role, holding an attacker Body", d -> {
      Element security = security(d);
      Element second = d.createElementNS(WSSE, "wsse2:Security");
      second.setAttributeNS(XMLNS, "xmlns:wsse2", WSSE);
      second.appendChild(attackerBody(d, body(d), Id.SAME));
      security.getParentNode().insertBefore(second, security);
    });
    add("a second, empty Security header for the same role after the first", d -> {
      Element security = security(d);
      Element second = d.createElementNS(WSSE, "wsse2:Security");
      second.setAttributeNS(XMLNS, "xmlns:wsse2", WSSE);
      security.getParentNode().insertBefore(second, security.getNextSibling());
    });
  }

  /** wsa:To and wsa:Action, signed or not, with the attacker's before and after them. */
  private void signedHeaders() {
    for (String local : new String[] {"To", "Action"}) {
      add("an attacker wsa:" + local + " before the message's", d -> {
        Element h = addressing(d, local);
        Element evil = evilAddressing(d, local);
        if (h != null) {
          h.getParentNode().insertBefore(evil, h);
        } else {
          header(d).insertBefore(evil, header(d).getFirstChild());
        }
      });
      add("the message's wsa:" + local + " moved into a wrapper, the attacker's in place", d -> {
        Element h = addressing(d, local);
        if (h != null) {
          Element evil = evilAddressing(d, local);
          h.getParentNode().replaceChild(evil, h);
          Element wrapper = wrapper(d);
          wrapper.appendChild(h);
          header(d).appendChild(wrapper);
        }
      });
    }
  }

  /** Puts {@code e} at {@code place}; {@code body} is the element at the Envelope's Body. */
  private static void put(Document d, Element e, Place place, Element body) {
    Element header = header(d);
    switch (place) {
      case HEADER_FIRST -> header.insertBefore(e, header.getFirstChild());
      case HEADER_LAST -> header.appendChild(e);
      case HEADER_WRAPPER -> {
        Element w = wrapper(d);
        w.appendChild(e);
        header.appendChild(w);
      }
      case HEADER_OPTIONAL -> {
        Element w = wrapper(d);
        String soap = body.getNamespaceURI();
        boolean v11 = SOAP11.equals(soap);
        w.setAttributeNS(soap, body.getPrefix() + ":mustUnderstand", v11 ? "0" : "false");
        w.setAttributeNS(soap, body.getPrefix() + (v11 ? ":actor" : ":role"), "urn:nobody");
        w.appendChild(e);
        header.appendChild(w);
      }
      case SECURITY_AFTER_TIMESTAMP -> {
        Element ts = timestamp(d);
        Element security = security(d);
        security.insertBefore(e, ts == null ? security.getFirstChild() : ts.getNextSibling());
      }
      case SECURITY_FIRST -> security(d).insertBefore(e, security(d).getFirstChild());
      case SECURITY_WRAPPER -> {
        Element w = wrapper(d);
        w.appendChild(e);
        security(d).appendChild(w);
      }
      case BODY_WRAPPER -> {
        Element w = wrapper(d);
        w.appendChild(e);
        body.insertBefore(w, body.getFirstChild());
      }
      case ENVELOPE_BEFORE_BODY -> body.getParentNode().insertBefore(e, body);
      case ENVELOPE_AFTER_BODY -> body.getParentNode().insertBefore(e, body.getNextSibling());
      default -> throw new AssertionError(place);
    }
  }

  private void add(String name, Consumer<Document> change) {
    attacks.add(new Attack(name, change));
  }

  /** An attacker's Body: the signed Body's name and namespace, the attacker's payload. */
  private static Element attackerBody(Document d, Element body, Id id) {
    Element evil = d.createElementNS(body.getNamespaceURI(), body.getTagName());
    String prefix = body.getPrefix();
    evil.setAttributeNS(XMLNS, prefix == null ? "xmlns" : "xmlns:" + prefix,
        body.getNamespaceURI());
    String signedId = body.getAttributeNS(WSU, "Id");
    switch (id) {
      case SAME -> {
        evil.setAttributeNS(XMLNS, "xmlns:wsu", WSU);
        evil.setAttributeNS(WSU, "wsu:Id", signedId);
      }
      case UNQUALIFIED -> evil.setAttributeNS(null, "Id", signedId);
      case XML_ID -> evil.setAttributeNS("http://www.w3.org/XML/1998/namespace", "xml:id",
          signedId);
      case OTHER_NAMESPACE -> {
        evil.setAttributeNS(XMLNS, "xmlns:e", "urn:evil");
        evil.setAttributeNS("urn:evil", "e:Id", signedId);
      }
      default -> { }
    }
    evil.appendChild(attackerPayload(d, body));
    return evil;
  }

  /** The signed operation element's shape, every text in it {@link #EVIL}. */
  private static Element attackerPayload(Document d, Element body) {
    Element evil = (Element) firstElement(body).cloneNode(true);
    evil.removeAttributeNS(WSU, "Id");
    replaceTexts(evil);
    if (firstChildElement(evil) == null) {
      setText(evil, EVIL);
    }
    return evil;
  }

  private static void replaceTexts(Element e) {
    boolean leaf = firstChildElement(e) == null;
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c) {
        replaceTexts(c);
      }
    }
    if (leaf) {
      setText(e, EVIL);
    }
  }

  private static Element firstChildElement(Element parent) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) {
        return e;
      }
    }
    return null;
  }

  private static Element evilAddressing(Document d, String local) {
    Element e = d.createElementNS(WSA, "evilwsa:" + local);
    e.setAttributeNS(XMLNS, "xmlns:evilwsa", WSA);
    e.setTextContent(local.equals("To") ? EVIL_ADDRESS : "urn:" + EVIL);
    return e;
  }

  private static Element wrapper(Document d) {
    Element w = d.createElementNS("urn:evil", "w:Wrapper");
    w.setAttributeNS(XMLNS, "xmlns:w", "urn:evil");
    return w;
  }

  private static void setText(Element e, String text) {
    while (e.getFirstChild() != null) {
      e.removeChild(e.getFirstChild());
    }
    e.setTextContent(text);
  }

  private static Element envelopeChild(Document d, String local) {
    for (Node n = d.getDocumentElement().getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && local.equals(e.getLocalName())) {
        return e;
      }
    }
    throw new IllegalArgumentException("the signed envelope has no " + local);
  }

  private static Element body(Document d) {
    return envelopeChild(d, "Body");
  }

  private static Element header(Document d) {
    return envelopeChild(d, "Header");
  }

  private static Element security(Document d) {
    for (Node n = header(d).getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && WSSE.equals(e.getNamespaceURI())
          && "Security".equals(e.getLocalName())) {
        return e;
      }
    }
    throw new IllegalArgumentException("the signed envelope has no wsse:Security header");
  }

  private static Element timestamp(Document d) {
    for (Node n = security(d).getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && WSU.equals(e.getNamespaceURI())
          && "Timestamp".equals(e.getLocalName())) {
        return e;
      }
    }
    return null;
  }

  private static Element addressing(Document d, String local) {
    for (Node n = header(d).getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && WSA.equals(e.getNamespaceURI())
          && local.equals(e.getLocalName())) {
        return e;
      }
    }
    return null;
  }

  private static Element firstElement(Element parent) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e) {
        return e;
      }
    }
    throw new IllegalArgumentException(parent.getTagName() + " holds no element");
  }

  private static Document parse(String xml) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      return f.newDocumentBuilder().parse(new ByteArrayInputStream(
          xml.getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new IllegalArgumentException("not an envelope: " + e, e);
    }
  }

  private static String write(Document d) {
    try {
      var t = TransformerFactory.newInstance().newTransformer();
      t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
      StringWriter out = new StringWriter();
      t.transform(new DOMSource(d), new StreamResult(out));
      return out.toString();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
