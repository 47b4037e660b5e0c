package dev.ferry.wssecurity.internal;

import dev.ferry.bytes.ByteString;
import java.io.InputStream;
import java.io.OutputStream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * The StAX factories envelopes are read and written with here (Woodstox; no DTDs, no external
 * entities), made once, and the copy of one document's events from a reader to a writer.
 */
public final class Stax {
  /** An envelope up to this size is read with buffers of 1 KiB, not Woodstox's 12 KB. */
  private static final int SMALL_BYTES = 8192;
  private static final XMLInputFactory IN = inputFactory(0);
  private static final XMLInputFactory SMALL_IN = inputFactory(1024);
  private static final XMLOutputFactory OUT = new com.ctc.wstx.stax.WstxOutputFactory();

  private Stax() {}

  private static XMLInputFactory inputFactory(int bufferChars) {
    XMLInputFactory f = new com.ctc.wstx.stax.WstxInputFactory();
    if (bufferChars > 0) {
      f.setProperty(com.ctc.wstx.api.WstxInputProperties.P_INPUT_BUFFER_LENGTH, bufferChars);
    }
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    f.setProperty(XMLInputFactory.IS_COALESCING, false);
    return f;
  }

  public static XMLStreamReader reader(InputStream in) throws XMLStreamException {
    return IN.createXMLStreamReader(in, "UTF-8");
  }

  /** A reader over an envelope held in memory, its buffers sized for it. */
  public static XMLStreamReader reader(ByteString envelope) throws XMLStreamException {
    return (envelope.size() <= SMALL_BYTES ? SMALL_IN : IN).createXMLStreamReader(
        envelope.asInputStream(), "UTF-8");
  }

  public static XMLStreamWriter writer(OutputStream out) throws XMLStreamException {
    return OUT.createXMLStreamWriter(out, "UTF-8");
  }

  /** Copies every event of {@code r} to {@code w} (null: only reads them), to the end. */
  public static void copy(XMLStreamReader r, XMLStreamWriter w) throws XMLStreamException {
    copy(r, w, null);
  }

  /** {@link #copy(XMLStreamReader, XMLStreamWriter)}, showing every element to {@code shape}. */
  static void copy(XMLStreamReader r, XMLStreamWriter w, EnvelopeShape shape)
      throws XMLStreamException {
    for (int e = r.getEventType(); ; e = r.next()) {
      if (w != null) {
        copyEvent(r, w, e);
      }
      if (shape != null) {
        if (e == XMLStreamConstants.START_ELEMENT) {
          shape.start(r);
        } else if (e == XMLStreamConstants.END_ELEMENT) {
          shape.end();
        }
      }
      if (e == XMLStreamConstants.END_DOCUMENT || !r.hasNext()) {
        break;
      }
    }
    if (w != null) {
      w.flush();
    }
  }

  private static void copyEvent(XMLStreamReader r, XMLStreamWriter w, int event)
      throws XMLStreamException {
    switch (event) {
      case XMLStreamConstants.START_DOCUMENT -> w.writeStartDocument("UTF-8",
          r.getVersion() == null ? "1.0" : r.getVersion());
      case XMLStreamConstants.START_ELEMENT -> startElement(r, w);
      case XMLStreamConstants.END_ELEMENT -> w.writeEndElement();
      case XMLStreamConstants.CHARACTERS, XMLStreamConstants.SPACE ->
          w.writeCharacters(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
      case XMLStreamConstants.CDATA -> w.writeCData(r.getText());
      case XMLStreamConstants.COMMENT -> w.writeComment(r.getText());
      case XMLStreamConstants.PROCESSING_INSTRUCTION -> w.writeProcessingInstruction(
          r.getPITarget(), r.getPIData());
      case XMLStreamConstants.END_DOCUMENT -> w.writeEndDocument();
      default -> { } // DTDs and entities cannot occur: the reader refuses them
    }
  }

  private static void startElement(XMLStreamReader r, XMLStreamWriter w)
      throws XMLStreamException {
    String prefix = r.getPrefix() == null ? "" : r.getPrefix();
    String ns = r.getNamespaceURI() == null ? "" : r.getNamespaceURI();
    w.writeStartElement(prefix, r.getLocalName(), ns);
    for (int i = 0; i < r.getNamespaceCount(); i++) {
      String p = r.getNamespacePrefix(i);
      String uri = r.getNamespaceURI(i) == null ? "" : r.getNamespaceURI(i);
      if (p == null || p.isEmpty()) {
        w.writeDefaultNamespace(uri);
      } else {
        w.writeNamespace(p, uri);
      }
    }
    for (int i = 0; i < r.getAttributeCount(); i++) {
      String p = r.getAttributePrefix(i);
      String uri = r.getAttributeNamespace(i);
      if (uri == null || uri.isEmpty()) {
        w.writeAttribute(r.getAttributeLocalName(i), r.getAttributeValue(i));
      } else {
        w.writeAttribute(p == null ? "" : p, uri, r.getAttributeLocalName(i),
            r.getAttributeValue(i));
      }
    }
  }
}
