package dev.ferry.soap;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.bytes.DecodeException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * A SOAP fault of either version, read from a message or written as an envelope.
 *
 * <p>SOAP 1.1: {@code faultcode}, {@code faultstring}, {@code faultactor}, {@code detail}.
 * SOAP 1.2: {@code Code/Value} with {@code Subcode}s, {@code Reason/Text} with {@code xml:lang},
 * {@code Node}, {@code Role}, {@code Detail}. The code is one of the version's own
 * ({@link SoapVersion#senderFaultCode()} and so on).
 */
public final class Fault {
  private final SoapVersion version;
  private final QName code;
  private final List<QName> subcodes;
  private final String reason;
  private final String role;
  private final String detail; // raw XML written inside the detail element; text when read
  private final List<HeaderBlock> headers; // written in the envelope's Header; none when read

  private Fault(SoapVersion version, QName code, List<QName> subcodes, String reason,
      String role, String detail) {
    this(version, code, subcodes, reason, role, detail, List.of());
  }

  private Fault(SoapVersion version, QName code, List<QName> subcodes, String reason,
      String role, String detail, List<HeaderBlock> headers) {
    this.version = version;
    this.code = code;
    this.subcodes = List.copyOf(subcodes);
    this.reason = reason;
    this.role = role;
    this.detail = detail;
    this.headers = List.copyOf(headers);
  }

  /** Ferry's namespace for fault subcodes and details. */
  public static final String FERRY_NS = "urn:dev.ferry:fault";

  /**
   * Returns the fault that answers input that could not be read: VersionMismatch for an
   * envelope of an unknown namespace; else a Sender fault whose reason says what and where, with
   * the subcode {@code ferry:LimitExceeded} and a {@code ferry:limit} detail (name, value, value
   * seen) when a limit was hit.
   */
  public static Fault forBadInput(SoapVersion version, DecodeException e) {
    if (e instanceof VersionMismatchException) {
      return of(version, version.versionMismatchFaultCode(), e.getMessage());
    }
    Fault f = of(version, version.senderFaultCode(), e.getMessage());
    if (e.isLimitExceeded()) {
      f = f.withSubcode(new QName(FERRY_NS, "LimitExceeded", "ferry"))
          .withDetail("<ferry:limit xmlns:ferry=\"" + FERRY_NS + "\" name=\""
              + e.limitName() + "\" value=\"" + e.limitValue() + "\" actual=\""
              + e.actualValue() + "\"/>");
    }
    return f;
  }

  /** Returns a fault of {@code version} with {@code code} and {@code reason}. */
  public static Fault of(SoapVersion version, QName code, String reason) {
    return new Fault(version, code, List.of(), reason, null, null);
  }

  /** Returns a copy with a subcode added (written only in SOAP 1.2). */
  public Fault withSubcode(QName subcode) {
    List<QName> s = new ArrayList<>(subcodes);
    s.add(subcode);
    return new Fault(version, code, s, reason, role, detail, headers);
  }

  /** Returns a copy with the role (1.2) or actor (1.1). */
  public Fault withRole(String role) {
    return new Fault(version, code, subcodes, reason, role, detail, headers);
  }

  /** Returns a copy whose detail element holds {@code xml} (written as it is). */
  public Fault withDetail(String xml) {
    return new Fault(version, code, subcodes, reason, role, xml, headers);
  }

  /**
   * Returns a copy whose envelope carries {@code blocks} in its Header, after any it had (such
   * as the WS-Addressing headers of a fault reply).
   */
  public Fault withHeaders(List<HeaderBlock> blocks) {
    List<HeaderBlock> all = new ArrayList<>(headers);
    all.addAll(blocks);
    return new Fault(version, code, subcodes, reason, role, detail, all);
  }

  /** Returns the header blocks its envelope is written with (none for a fault read). */
  public List<HeaderBlock> headers() {
    return headers;
  }

  public SoapVersion version() {
    return version;
  }

  public QName code() {
    return code;
  }

  public List<QName> subcodes() {
    return subcodes;
  }

  public String reason() {
    return reason;
  }

  public String role() {
    return role;
  }

  /** Returns the detail: the XML given when made, or its text content when read. */
  public String detail() {
    return detail;
  }

  /** Reads the fault in {@code message}'s body, or returns null if the body holds none. */
  public static Fault read(Message message) throws IOException {
    try {
      XMLStreamReader r = message.bodyReader();
      int e = nextTag(r);
      if (e != XMLStreamConstants.START_ELEMENT
          || !r.getName().equals(message.version().qname("Fault"))) {
        return null;
      }
      return message.version() == SoapVersion.SOAP_11 ? read11(r) : read12(r);
    } catch (XMLStreamException e) {
      throw new SoapException("malformed fault: " + e.getMessage(), -1, "Body > Fault", e);
    }
  }

  private static Fault read11(XMLStreamReader r) throws XMLStreamException {
    QName code = null;
    String reason = null;
    String actor = null;
    String detail = null;
    while (nextTag(r) == XMLStreamConstants.START_ELEMENT) {
      switch (r.getLocalName()) {
        case "faultcode" -> code = qnameValue(r, r.getElementText());
        case "faultstring" -> reason = r.getElementText().strip();
        case "faultactor" -> actor = r.getElementText().strip();
        case "detail" -> detail = textOf(r);
        default -> skip(r);
      }
    }
    return new Fault(SoapVersion.SOAP_11, code, List.of(), reason, actor, detail);
  }

  private static Fault read12(XMLStreamReader r) throws XMLStreamException {
    QName code = null;
    List<QName> subcodes = new ArrayList<>();
    String reason = null;
    String role = null;
    String detail = null;
    while (nextTag(r) == XMLStreamConstants.START_ELEMENT) {
      switch (r.getLocalName()) {
        case "Code" -> code = readCode(r, subcodes);
        case "Reason" -> reason = firstText(r);
        case "Role" -> role = r.getElementText().strip();
        case "Detail" -> detail = textOf(r);
        default -> skip(r);
      }
    }
    return new Fault(SoapVersion.SOAP_12, code, subcodes, reason, role, detail);
  }

  /** Reads Code: its Value, and the Values of nested Subcodes into {@code subcodes}. */
  private static QName readCode(XMLStreamReader r, List<QName> subcodes)
      throws XMLStreamException {
    QName value = null;
    while (nextTag(r) == XMLStreamConstants.START_ELEMENT) {
      if (r.getLocalName().equals("Value")) {
        value = qnameValue(r, r.getElementText());
      } else if (r.getLocalName().equals("Subcode")) {
        int at = subcodes.size(); // outer before inner, though the inner are read first
        QName sub = readCode(r, subcodes);
        subcodes.add(at, sub);
      } else {
        skip(r);
      }
    }
    return value;
  }

  private static String firstText(XMLStreamReader r) throws XMLStreamException {
    String text = null;
    while (nextTag(r) == XMLStreamConstants.START_ELEMENT) {
      String t = r.getElementText().strip();
      text = text == null ? t : text;
    }
    return text;
  }

  private static String textOf(XMLStreamReader r) throws XMLStreamException {
    StringBuilder s = new StringBuilder();
    for (int depth = 1; depth > 0; ) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      } else if (e == XMLStreamConstants.CHARACTERS || e == XMLStreamConstants.CDATA) {
        s.append(r.getText());
      }
    }
    return s.toString().strip();
  }

  private static QName qnameValue(XMLStreamReader r, String value) {
    String v = value.strip();
    int colon = v.indexOf(':');
    String prefix = colon < 0 ? XMLConstants.DEFAULT_NS_PREFIX : v.substring(0, colon);
    String ns = r.getNamespaceContext().getNamespaceURI(prefix);
    return new QName(ns == null ? "" : ns, v.substring(colon + 1), prefix);
  }

  private static int nextTag(XMLStreamReader r) throws XMLStreamException {
    int e;
    do {
      e = r.next();
    } while (e != XMLStreamConstants.START_ELEMENT && e != XMLStreamConstants.END_ELEMENT
        && e != XMLStreamConstants.END_DOCUMENT);
    return e;
  }

  private static void skip(XMLStreamReader r) throws XMLStreamException {
    for (int depth = 1; depth > 0; ) {
      int e = r.next();
      depth += e == XMLStreamConstants.START_ELEMENT ? 1 : e == XMLStreamConstants.END_ELEMENT
          ? -1 : 0;
    }
  }

  /** Writes this fault as a whole envelope of its version. */
  public ByteString toEnvelope(SoapCodec codec) throws IOException {
    ByteStringBuilder out = new ByteStringBuilder(512);
    try {
      XMLStreamWriter w = codec.xop().newXmlWriter(out.asOutputStream());
      String env = version.namespace();
      w.writeStartDocument("UTF-8", "1.0");
      w.writeStartElement("soap", "Envelope", env);
      w.writeNamespace("soap", env);
      if (!headers.isEmpty()) {
        w.writeStartElement("soap", "Header", env);
        w.writeCharacters(""); // close the start tag before raw XML
        for (HeaderBlock h : headers) {
          raw(w, h.xml().utf8());
        }
        w.writeEndElement();
      }
      w.writeStartElement("soap", "Body", env);
      w.writeStartElement("soap", "Fault", env);
      if (version == SoapVersion.SOAP_11) {
        write11(w);
      } else {
        write12(w, env);
      }
      w.writeEndElement();
      w.writeEndElement();
      w.writeEndElement();
      w.writeEndDocument();
      w.close();
    } catch (XMLStreamException e) {
      throw new IOException("cannot write fault", e);
    }
    return out.toByteString();
  }

  private void write11(XMLStreamWriter w) throws XMLStreamException {
    w.writeStartElement("faultcode");
    w.writeCharacters(qualify(w, code));
    w.writeEndElement();
    element(w, null, "faultstring", reason);
    if (role != null) {
      element(w, null, "faultactor", role);
    }
    if (detail != null) {
      w.writeStartElement("detail");
      w.writeCharacters(""); // close the start tag before raw XML
      raw(w, detail);
      w.writeEndElement();
    }
  }

  private void write12(XMLStreamWriter w, String env) throws XMLStreamException {
    w.writeStartElement("soap", "Code", env);
    element(w, env, "Value", qualify(w, code));
    for (QName sub : subcodes) {
      w.writeStartElement("soap", "Subcode", env);
      element(w, env, "Value", qualify(w, sub));
    }
    for (int i = 0; i < subcodes.size(); i++) {
      w.writeEndElement();
    }
    w.writeEndElement();
    w.writeStartElement("soap", "Reason", env);
    w.writeStartElement("soap", "Text", env);
    w.writeAttribute("xml", XMLConstants.XML_NS_URI, "lang", "en");
    w.writeCharacters(reason == null ? "" : reason);
    w.writeEndElement();
    w.writeEndElement();
    if (role != null) {
      element(w, env, "Role", role);
    }
    if (detail != null) {
      w.writeStartElement("soap", "Detail", env);
      w.writeCharacters("");
      raw(w, detail);
      w.writeEndElement();
    }
  }

  private static void element(XMLStreamWriter w, String ns, String local, String text)
      throws XMLStreamException {
    if (ns == null) {
      w.writeStartElement(local);
    } else {
      w.writeStartElement("soap", local, ns);
    }
    w.writeCharacters(text == null ? "" : text);
    w.writeEndElement();
  }

  /** Writes a QName value, declaring its namespace on the current element if needed. */
  private static String qualify(XMLStreamWriter w, QName q) throws XMLStreamException {
    Objects.requireNonNull(q, "fault code");
    String prefix = w.getPrefix(q.getNamespaceURI());
    if (prefix == null) {
      prefix = q.getPrefix().isEmpty() ? "c" : q.getPrefix();
      w.writeNamespace(prefix, q.getNamespaceURI());
    }
    return prefix.isEmpty() ? q.getLocalPart() : prefix + ":" + q.getLocalPart();
  }

  /** Writes pre-serialized XML through the writer (Woodstox: raw, without escaping). */
  private static void raw(XMLStreamWriter w, String xml) throws XMLStreamException {
    if (w instanceof org.codehaus.stax2.XMLStreamWriter2 w2) {
      w2.writeRaw(xml);
    } else {
      w.writeCharacters(xml);
    }
  }

  @Override
  public String toString() {
    return "Fault[" + code + ": " + reason + "]";
  }
}
