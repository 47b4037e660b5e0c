package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.Attachment;
import dev.ferry.xop.XopReader;
import dev.ferry.xop.XopWriter;
import jakarta.activation.DataHandler;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.attachment.AttachmentMarshaller;
import jakarta.xml.bind.attachment.AttachmentUnmarshaller;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;

/**
 * Reads and writes the parts of an operation's message with JAXB: the Body's parts straight
 * from and to Ferry's StAX reader and {@link XopWriter} (attachments through
 * {@link XopAttachmentMarshaller} and {@link XopAttachmentUnmarshaller}, never base64), header
 * parts as header blocks. One pass over the envelope reads headers and body. Thread-safe.
 */
public final class MessageBinder {
  private static final String WRAPPER_PREFIX = "ns2"; // as the JAXB RI (so CXF, Metro) names it

  private final SoapCodec codec;

  public MessageBinder(SoapCodec codec) {
    this.codec = codec;
  }

  /**
   * Writes the body parts among {@code parts} (values aligned with them; a null value writes no
   * element), inside {@code wrapper} unless it is null.
   */
  public void writeBody(XopWriter body, QName wrapper, List<Part> parts, Object[] values)
      throws XMLStreamException {
    AttachmentMarshaller am = new XopAttachmentMarshaller(body);
    if (wrapper != null) {
      startElement(body, wrapper);
    }
    for (int i = 0; i < values.length; i++) {
      Part p = parts.get(i);
      if (p.isHeader() || values[i] == null) {
        continue;
      }
      if (p.isRepeated()) {
        for (Object item : p.items(values[i])) {
          write(p, item, body, am);
        }
      } else {
        write(p, values[i], body, am);
      }
    }
    if (wrapper != null) {
      body.writeEndElement();
    }
  }

  /** Returns the header blocks of the header parts among {@code parts} that have a value. */
  public List<HeaderBlock> headers(List<Part> parts, Object[] values) throws IOException {
    List<HeaderBlock> blocks = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      Part p = parts.get(i);
      if (p.isHeader() && values[i] != null) {
        ByteStringBuilder xml = new ByteStringBuilder(256);
        try {
          XMLStreamWriter w = codec.xop().newXmlWriter(xml.asOutputStream());
          write(p, values[i], w, null);
          w.close();
        } catch (XMLStreamException e) {
          throw new IOException("cannot write header " + p.element() + ": " + e.getMessage(), e);
        }
        blocks.add(HeaderBlock.element(p.element(), xml.toByteString()));
      }
    }
    return blocks;
  }

  /**
   * Writes an element named {@code name} holding {@code parts} (values aligned with them; null
   * writes nothing, a repeated part one element per item), such as a code-first fault's detail.
   */
  static void writeElement(XMLStreamWriter w, QName name, List<Part> parts, Object[] values)
      throws XMLStreamException {
    startElement(w, name);
    for (int i = 0; i < values.length; i++) {
      Part p = parts.get(i);
      if (values[i] != null) {
        for (Object item : p.isRepeated() ? p.items(values[i]) : List.of(values[i])) {
          write(p, item, w, null);
        }
      }
    }
    w.writeEndElement();
  }

  /**
   * Reads the children of the element {@code r} stands on as the values of {@code parts}
   * (aligned with them; a repeated part's items collected, a missing part null).
   */
  static Object[] readElement(XMLStreamReader r, List<Part> parts, AttachmentUnmarshaller au)
      throws XMLStreamException {
    Object[] values = new Object[parts.size()];
    readChildren(r, parts, false, values, au);
    collect(parts, values);
    return values;
  }

  private static void collect(List<Part> parts, Object[] values) {
    for (int i = 0; i < values.length; i++) {
      if (parts.get(i).isRepeated()) {
        @SuppressWarnings("unchecked")
        List<Object> items = values[i] == null ? new ArrayList<>() : (List<Object>) values[i];
        values[i] = parts.get(i).collect(items);
      }
    }
  }

  /** Starts an element of {@code name}, declaring its namespace. */
  static void startElement(XMLStreamWriter w, QName name) throws XMLStreamException {
    if (name.getNamespaceURI().isEmpty()) {
      w.writeStartElement(name.getLocalPart());
    } else {
      w.writeStartElement(WRAPPER_PREFIX, name.getLocalPart(), name.getNamespaceURI());
      w.writeNamespace(WRAPPER_PREFIX, name.getNamespaceURI());
    }
  }

  private static void write(Part p, Object value, XMLStreamWriter out, AttachmentMarshaller am)
      throws XMLStreamException {
    try {
      p.write(value, out, am);
    } catch (JAXBException e) {
      throw new XMLStreamException("cannot write " + p.element() + " (" + value.getClass()
          .getName() + "): " + e, e);
    }
  }

  /**
   * Reads the values of {@code parts} from {@code message} (aligned with them; null for a part
   * that is missing): headers from its header blocks, the body's parts from inside
   * {@code wrapper} (null: bare, the Body's children). Attachments are handed out as
   * {@code handlers} makes them.
   *
   * @throws WebServiceException if the Body does not start with {@code wrapper}, or a part does
   *     not bind
   */
  public Object[] read(Message message, QName wrapper, List<Part> parts,
      Function<Attachment, DataHandler> handlers) throws IOException {
    Object[] values = new Object[parts.size()];
    AttachmentUnmarshaller au = new XopAttachmentUnmarshaller(message.attachments(), handlers);
    try {
      XMLStreamReader r = envelopeReader(message);
      r.nextTag(); // Envelope
      int e = r.nextTag();
      if (e == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals("Header")) {
        readChildren(r, parts, true, values, au);
        e = r.nextTag();
      }
      if (wrapper != null) {
        e = r.nextTag();
        if (e != XMLStreamConstants.START_ELEMENT || !wrapper.equals(r.getName())) {
          throw new WebServiceException("expected " + wrapper + " in the Body but found "
              + (e == XMLStreamConstants.START_ELEMENT ? r.getName() : "no element"));
        }
      }
      readChildren(r, parts, false, values, au);
      readToEnvelopeEnd(r, wrapper != null);
      collect(parts, values);
      return values;
    } catch (XMLStreamException e) {
      throw new WebServiceException("malformed message: " + e.getMessage(), e);
    }
  }

  /**
   * Reads the rest of the Body (past the wrapper, if {@code inWrapper}, whatever follows it) and
   * checks that the Envelope ends after it: the whole Body is read within the codec's limits,
   * and an envelope with a second Body is refused, as the server's check of the Body would
   * (which it leaves to endpoints that read this way: {@code Endpoint.readsWholeBody}).
   */
  private static void readToEnvelopeEnd(XMLStreamReader r, boolean inWrapper)
      throws XMLStreamException {
    if (inWrapper) {
      for (int e = r.nextTag(); e == XMLStreamConstants.START_ELEMENT; e = r.nextTag()) {
        skipElement(r);
      }
    }
    if (r.nextTag() != XMLStreamConstants.END_ELEMENT) {
      throw new WebServiceException("unexpected " + r.getName() + " after the Body (an"
          + " envelope has one Body, its last child)");
    }
  }

  /** A plain StAX reader over the envelope: xop:Include elements are JAXB's to resolve. */
  private XMLStreamReader envelopeReader(Message message) throws IOException,
      XMLStreamException {
    var xml = message.toByteString();
    if (message.attachments() != null) {
      XopReader x = message.attachments().newXmlReader(xml, "UTF-8");
      return x.getParent();
    }
    return codec.xop().newXmlReader(xml, "UTF-8");
  }

  /** Reads the children of the element {@code r} stands on into the matching parts' values. */
  private static void readChildren(XMLStreamReader r, List<Part> parts, boolean headers,
      Object[] values, AttachmentUnmarshaller au) throws XMLStreamException {
    int e = r.nextTag();
    while (e == XMLStreamConstants.START_ELEMENT) {
      int i = indexOf(parts, r.getName(), headers);
      if (i < 0) {
        skipElement(r);
        e = r.nextTag();
        continue;
      }
      Part p = parts.get(i);
      try {
        Object value = p.read(r, au);
        if (p.isRepeated()) {
          @SuppressWarnings("unchecked")
          List<Object> items = values[i] == null ? new ArrayList<>() : (List<Object>) values[i];
          items.add(value);
          value = items;
        }
        values[i] = value;
      } catch (JAXBException x) {
        throw new WebServiceException("cannot read " + p.element() + " as "
            + p.valueType().getTypeName() + ": " + reason(x), x);
      }
      e = r.getEventType();
      if (e != XMLStreamConstants.START_ELEMENT && e != XMLStreamConstants.END_ELEMENT) {
        e = r.nextTag();
      }
    }
  }

  /**
   * What went wrong, in the words of the deepest cause that has any: JAXB wraps a parser's
   * message in exceptions whose {@code toString} names internal classes
   * ({@code com.sun.istack.SAXParseException2}), which a caller must not see.
   */
  static String reason(Throwable t) {
    String reason = null;
    for (Throwable c = t; c != null; c = c.getCause() != c ? c.getCause() : null) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        reason = c.getMessage();
      }
      if (c instanceof JAXBException j && j.getLinkedException() != null
          && j.getLinkedException() != j.getCause()) {
        String linked = reason(j.getLinkedException());
        reason = linked != null ? linked : reason;
        break;
      }
    }
    return reason == null ? "the value does not bind" : reason;
  }

  /** The part called {@code name}, or else the only one with its local name; -1 if none. */
  private static int indexOf(List<Part> parts, QName name, boolean headers) {
    int byLocalName = -1;
    for (int i = 0; i < parts.size(); i++) {
      Part p = parts.get(i);
      if (p.isHeader() != headers) {
        continue;
      }
      if (p.element().equals(name)) {
        return i;
      }
      if (!headers && p.element().getLocalPart().equals(name.getLocalPart())) {
        byLocalName = byLocalName == -1 ? i : -2;
      }
    }
    return byLocalName >= 0 ? byLocalName : -1;
  }

  static void skipElement(XMLStreamReader r) throws XMLStreamException {
    for (int depth = 1; depth > 0; ) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      }
    }
  }
}
