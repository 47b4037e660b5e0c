package dev.ferry.cli;

import dev.ferry.bytes.ByteString;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopPackage;
import dev.ferry.xop.XopReader;
import dev.ferry.xop.XopWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;

/**
 * The testMtom echo request of CXF's MTOM sample (a {@code name} string and a base64Binary
 * {@code attachinfo}), written to memory and read back in this process: what one call costs a
 * sender and a receiver with no network in between. The blob travels inline as base64 or as an
 * MTOM attachment, as the policy says; the reader takes an attachment as bytes and decodes
 * inline base64, as a Ferry-aware receiver does.
 */
final class TestMtomRoundTrip {
  static final String NS = "http://cxf.apache.org/mime/types";
  private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
  private static final String NAME = "ferry-bench";

  private final XopCodec codec = XopCodec.create();
  private final ReusableBuffer buffer = new ReusableBuffer();

  /** Writes the request with {@code blob}, reads it back and returns its size on the wire. */
  int run(MtomPolicy policy, ByteString blob) throws IOException, XMLStreamException {
    buffer.reset();
    String contentType = write(buffer, policy, blob);
    ByteString received = readBlob(buffer.asInputStream(), contentType, null);
    if (received == null || received.size() != blob.size()) {
      throw new IllegalStateException("the round trip lost bytes of a " + blob.size()
          + " byte blob with " + policy);
    }
    return buffer.size();
  }

  /** Like {@link #run}, and also checks every byte that came back (slower: not for timing). */
  void check(MtomPolicy policy, byte[] blob) throws IOException, XMLStreamException {
    buffer.reset();
    String contentType = write(buffer, policy, ByteString.of(blob));
    readBlob(buffer.asInputStream(), contentType, blob);
  }

  private String write(OutputStream out, MtomPolicy policy, ByteString blob)
      throws IOException, XMLStreamException {
    XopWriter w = codec.newWriter(out, policy, "text/xml");
    w.writeStartDocument();
    w.writeStartElement("soap", "Envelope", SOAP11);
    w.writeNamespace("soap", SOAP11);
    w.writeStartElement("soap", "Body", SOAP11);
    w.writeStartElement("t", "testMtom", NS);
    w.writeNamespace("t", NS);
    w.writeStartElement("t", "name", NS);
    w.writeCharacters(NAME);
    w.writeEndElement();
    w.writeStartElement("t", "attachinfo", NS);
    w.writeBinary(blob, "application/octet-stream");
    w.writeEndElement(); // attachinfo
    w.writeEndElement(); // testMtom
    w.writeEndElement(); // Body
    w.writeEndElement(); // Envelope
    w.writeEndDocument();
    String contentType = w.contentType();
    w.close();
    return contentType;
  }

  /**
   * Reads the request and returns its attachinfo blob, or null if it has none; if
   * {@code expected} is given, fails unless the blob has exactly those bytes (checked before
   * the package is closed, while an attachment's bytes are still its own).
   */
  private ByteString readBlob(InputStream in, String contentType, byte[] expected)
      throws IOException, XMLStreamException {
    try (XopPackage pkg = codec.read(in, contentType)) {
      XopReader r = pkg.newXmlReader();
      ByteString blob = null;
      while (r.hasNext()) {
        if (r.next() == XMLStreamConstants.START_ELEMENT
            && r.getLocalName().equals("attachinfo")) {
          blob = readBinary(r);
        }
      }
      r.close();
      if (expected != null && (blob == null
          || !blob.contentEquals(expected, 0, expected.length))) {
        throw new IllegalStateException("the round trip changed a " + expected.length
            + " byte blob");
      }
      return blob;
    }
  }

  /** On the start of an element holding binary content: its bytes, however they travelled. */
  private static ByteString readBinary(XopReader r) throws IOException, XMLStreamException {
    int event = r.next();
    if (event == XMLStreamConstants.CHARACTERS && r.isBinary()) {
      return r.binary().bytes();
    }
    StringBuilder base64 = new StringBuilder();
    for (; event != XMLStreamConstants.END_ELEMENT; event = r.next()) {
      base64.append(r.getText());
    }
    return ByteString.decodeBase64(base64);
  }

  /** One array written over and over: the timing measures the codec, not buffer growth. */
  private static final class ReusableBuffer extends ByteArrayOutputStream {
    ReusableBuffer() {
      super(64 * 1024);
    }

    InputStream asInputStream() {
      return new ByteArrayInputStream(buf, 0, count);
    }
  }
}
