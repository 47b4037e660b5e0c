package dev.ferry.bench.soap;

import dev.ferry.bench.Baselines;
import dev.ferry.bytes.ByteSequence;
import dev.ferry.mime.MediaType;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopReader;
import dev.ferry.xop.XopWriter;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Base64;
import java.util.Random;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;

/**
 * The testMtom echo request of CXF's MTOM sample (namespace {@value #NS}): a string
 * {@code name} and a base64Binary {@code attachinfo}, written and read with Ferry.
 */
public final class MtomMessages {
  public static final String NS = "http://cxf.apache.org/mime/types";
  public static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
  public static final String XOP_NS = "http://www.w3.org/2004/08/xop/include";
  public static final String NAME = "ferry-bench";
  private static final MediaType TEXT_XML = MediaType.of("text", "xml");

  private MtomMessages() {}

  /** The same request as JAXB sees it (for Metro). */
  @XmlRootElement(name = "testMtom", namespace = NS)
  @XmlAccessorType(XmlAccessType.FIELD)
  public static class TestMtom {
    @XmlElement(namespace = NS)
    public String name;
    @XmlElement(namespace = NS)
    public byte[] attachinfo;
  }

  public static byte[] blob(int size) {
    byte[] b = new byte[size];
    new Random(size).nextBytes(b);
    return b;
  }

  /** Writes testMtom with Ferry; returns the Content-Type. */
  public static String write(XopCodec codec, OutputStream out, MtomPolicy policy,
      ByteSequence blob) throws IOException, XMLStreamException {
    XopWriter w = codec.newWriter(out, policy, TEXT_XML);
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
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    String contentType = w.contentType();
    w.close();
    return contentType;
  }

  /** A buffer per thread to drain attachments into, as a reader streaming them would keep. */
  private static final ThreadLocal<byte[]> DRAIN = ThreadLocal.withInitial(() -> new byte[65536]);

  /**
   * Reads testMtom with Ferry as a Ferry-aware consumer: an attachment's bytes are streamed (no
   * base64), inline base64 is decoded. Returns the blob's size plus the name's length.
   */
  public static long read(XopCodec codec, InputStream in, String contentType)
      throws IOException, XMLStreamException {
    try (var pkg = codec.read(in, contentType)) {
      XopReader r = pkg.newXmlReader();
      long seen = 0;
      while (r.hasNext()) {
        if (r.next() != XMLStreamConstants.START_ELEMENT) {
          continue;
        }
        if (r.getLocalName().equals("name")) {
          seen += r.getElementText().length();
        } else if (r.getLocalName().equals("attachinfo")) {
          if (r.next() == XMLStreamConstants.CHARACTERS && r.isBinary()) {
            try (InputStream data = r.binary().openStream()) {
              seen += Baselines.drain(data, DRAIN.get(), MtomCodecBenchmark.BLACKHOLE_FREE);
            }
          } else {
            StringBuilder text = new StringBuilder();
            for (int e = r.getEventType(); e != XMLStreamConstants.END_ELEMENT; e = r.next()) {
              text.append(r.getText());
            }
            seen += Base64.getDecoder().decode(text.toString()).length;
          }
        }
      }
      r.close();
      return seen;
    }
  }
}
