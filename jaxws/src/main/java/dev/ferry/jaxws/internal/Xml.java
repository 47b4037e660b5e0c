package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.io.IOException;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Source;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.stream.StreamResult;

/**
 * XML copied between forms where raw XML crosses the API (fault details, Provider and Dispatch
 * payloads, handler messages): a subtree of a StAX reader as standalone bytes, any
 * {@link Source} as bytes. The factories are made once.
 */
final class Xml {
  private static final XMLOutputFactory REPAIRING = repairing();
  private static final TransformerFactory TRANSFORMERS = transformers();

  private Xml() {}

  private static XMLOutputFactory repairing() {
    XMLOutputFactory f = XMLOutputFactory.newFactory();
    f.setProperty(XMLOutputFactory.IS_REPAIRING_NAMESPACES, true);
    return f;
  }

  private static TransformerFactory transformers() {
    TransformerFactory f = TransformerFactory.newInstance();
    try {
      f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    } catch (javax.xml.transform.TransformerConfigurationException e) {
      throw new IllegalStateException("the JDK's transformer refuses secure processing", e);
    }
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
    f.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
    return f;
  }

  /**
   * Copies the element {@code r} stands on, with its content, as a document of its own: every
   * namespace it uses is declared, wherever the original declared it. Leaves {@code r} on the
   * element's end tag.
   */
  static ByteString copyElement(XMLStreamReader r) throws XMLStreamException {
    ByteStringBuilder out = new ByteStringBuilder(512);
    XMLStreamWriter w = REPAIRING.createXMLStreamWriter(out.asOutputStream(), "UTF-8");
    int depth = 0;
    do {
      switch (r.getEventType()) {
        case XMLStreamConstants.START_ELEMENT -> {
          depth++;
          start(r, w);
        }
        case XMLStreamConstants.END_ELEMENT -> {
          depth--;
          w.writeEndElement();
        }
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.SPACE ->
            w.writeCharacters(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
        case XMLStreamConstants.CDATA -> w.writeCData(r.getText());
        case XMLStreamConstants.COMMENT -> w.writeComment(r.getText());
        default -> { }
      }
      if (depth > 0) {
        r.next();
      }
    } while (depth > 0);
    w.close();
    return out.toByteString();
  }

  private static void start(XMLStreamReader r, XMLStreamWriter w) throws XMLStreamException {
    String ns = r.getNamespaceURI();
    String prefix = r.getPrefix() == null ? "" : r.getPrefix();
    w.writeStartElement(prefix, r.getLocalName(), ns == null ? "" : ns);
    for (int i = 0; i < r.getNamespaceCount(); i++) {
      String p = r.getNamespacePrefix(i);
      String uri = r.getNamespaceURI(i);
      if (p == null || p.isEmpty()) {
        w.writeDefaultNamespace(uri == null ? "" : uri);
      } else {
        w.writeNamespace(p, uri);
      }
    }
    for (int i = 0; i < r.getAttributeCount(); i++) {
      String ans = r.getAttributeNamespace(i);
      String ap = r.getAttributePrefix(i);
      w.writeAttribute(ap == null ? "" : ap, ans == null ? "" : ans, r.getAttributeLocalName(i),
          r.getAttributeValue(i));
    }
  }

  /** Serializes {@code source} without an XML declaration. */
  static ByteString bytes(Source source) throws IOException {
    ByteStringBuilder out = new ByteStringBuilder(512);
    try {
      Transformer t = TRANSFORMERS.newTransformer();
      t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
      t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      t.transform(source, new StreamResult(out.asOutputStream()));
    } catch (TransformerException e) {
      throw new IOException("cannot serialize the XML source: " + e.getMessage(), e);
    }
    return out.toByteString();
  }

  /** Transforms {@code source} into {@code result} (to a DOM, say). */
  static void transform(Source source, javax.xml.transform.Result result) throws IOException {
    try {
      TRANSFORMERS.newTransformer().transform(source, result);
    } catch (TransformerException e) {
      throw new IOException("cannot transform the XML source: " + e.getMessage(), e);
    }
  }
}
