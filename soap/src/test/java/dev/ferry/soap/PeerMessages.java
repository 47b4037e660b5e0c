package dev.ferry.soap;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MediaType;
import dev.ferry.xop.Attachment;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopReader;
import dev.ferry.xop.XopWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Shared fixtures of the peer interop tests: the blobs, the testMtom echo envelope (CXF's
 * {@code http://cxf.apache.org/mime/types} sample) written by Ferry, and what Ferry reads back.
 */
final class PeerMessages {
  static final String TYPES_NS = "http://cxf.apache.org/mime/types";

  private PeerMessages() {}

  /** 1 MiB in which every byte value occurs, in an order no codec could guess. */
  static byte[] everyByteValue() {
    byte[] b = new byte[1 << 20];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i * 31 + (i >>> 8));
    }
    return b;
  }

  /** A package written by Ferry: its bytes and its Content-Type. */
  record Written(byte[] bytes, String contentType) {}

  /** Writes testMtom(name, attachinfo) as an MTOM package with every binary attached. */
  static Written ferryTestMtom(SoapVersion version, String name, byte[] blob)
      throws IOException, XMLStreamException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    XopWriter w = XopCodec.create().newWriter(out, MtomPolicy.ALWAYS,
        MediaType.parse(version.mediaType()));
    String soap = version.namespace();
    w.writeStartDocument();
    w.writeStartElement("soap", "Envelope", soap);
    w.writeNamespace("soap", soap);
    w.writeStartElement("soap", "Body", soap);
    w.writeStartElement("t", "testMtom", TYPES_NS);
    w.writeNamespace("t", TYPES_NS);
    w.writeStartElement("t", "name", TYPES_NS);
    w.writeCharacters(name);
    w.writeEndElement();
    w.writeStartElement("t", "attachinfo", TYPES_NS);
    w.writeBinary(blob, 0, blob.length, "application/octet-stream");
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    String contentType = w.contentType();
    w.close();
    return new Written(out.toByteArray(), contentType);
  }

  /** One xop:Include as Ferry resolved it: the element it stood in and the attachment. */
  record Include(String element, String contentId, ByteString bytes) {}

  /** Walks a message's body with Ferry's reader; returns every resolved xop:Include. */
  static List<Include> includes(Message m) throws IOException, XMLStreamException {
    List<Include> found = new ArrayList<>();
    XMLStreamReader r = m.bodyReader();
    String element = null;
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        element = r.getLocalName();
      } else if (r instanceof XopReader x && x.isBinary()) {
        Attachment a = x.binary();
        found.add(new Include(element, a.contentId(), a.bytes()));
      }
    }
    return found;
  }

  /** Returns the text of the first element called {@code localName} in the body, or null. */
  static String bodyText(Message m, String localName) throws IOException, XMLStreamException {
    XMLStreamReader r = m.bodyReader();
    while (r.hasNext()) {
      if (r.next() == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals(localName)) {
        return r.getElementText();
      }
    }
    return null;
  }
}
