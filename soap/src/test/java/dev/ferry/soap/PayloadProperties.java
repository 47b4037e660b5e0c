package dev.ferry.soap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.xop.Attachment;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Messages sent on as payloads: a composed message read back holds what was written; a received
 * package forwarded (some attachments read first, the rest streamed) and read again holds the
 * same attachments under a new boundary, with the header change applied.
 */
class PayloadProperties {
  private static final SoapCodec SOAP = SoapCodec.create();

  @Property(tries = 200)
  void composedThenForwardedKeepsEveryBlob(@ForAll boolean soap12, @ForAll boolean mtom,
      @ForAll @Size(max = 5) List<@IntRange(max = 20_000) Integer> sizes,
      @ForAll @IntRange(max = 5) int readFirst, @ForAll long seed) throws Exception {
    SoapVersion v = soap12 ? SoapVersion.SOAP_12 : SoapVersion.SOAP_11;
    List<ByteString> blobs = blobs(sizes, seed);
    Payload composed = SOAP.payload(v, mtom ? MtomPolicy.threshold(1000) : MtomPolicy.NEVER,
        List.of(HeaderBlock.text(Addressing.TO, "urn:first")), body -> {
          body.writeStartElement("p", "blobs", "urn:p");
          body.writeNamespace("p", "urn:p");
          for (ByteString b : blobs) {
            body.writeStartElement("p", "blob", "urn:p");
            body.writeBinary(b, "application/octet-stream");
            body.writeEndElement();
          }
          body.writeEndElement();
        });
    ByteString wire = write(composed);
    assertThat(composed.contentType()).startsWith(mtom ? "multipart/related"
        : v.mediaType());
    try (MessageBuffer received = SOAP.read(wire.asInputStream(), composed.contentType())) {
      assertThat(readBlobs(received.toMessage())).isEqualTo(blobs);
    }
    try (MessageBuffer held = SOAP.read(wire, composed.contentType())) { // read where it is
      assertThat(readBlobs(held.toMessage())).isEqualTo(blobs);
    }
    try (MessageBuffer received = SOAP.read(wire.asInputStream(), composed.contentType())) {
      readSome(received.toMessage(), readFirst); // these are spooled, the rest stream
      Message forward = received.toMessage().copy();
      forward.addressing().setTo("urn:second");
      Payload out = forward.toPayload();
      ByteString again = write(out);
      try (MessageBuffer reread = SOAP.read(again.asInputStream(), out.contentType())) {
        Message m = reread.toMessage();
        assertThat(m.addressing().to()).isEqualTo("urn:second");
        assertThat(readBlobs(m)).isEqualTo(blobs);
        assertThat(m.version()).isEqualTo(v);
      }
    }
  }

  /** Resolves the first {@code n} xop:Includes, which reads their parts into spools. */
  private static void readSome(Message m, int n) throws IOException, XMLStreamException {
    XMLStreamReader r = m.bodyReader();
    int seen = 0;
    while (seen < n && r.hasNext()) {
      r.next();
      if (r instanceof XopReader x && x.isBinary()) {
        seen++;
      }
    }
  }

  private static List<ByteString> blobs(List<Integer> sizes, long seed) {
    Random r = new Random(seed);
    List<ByteString> out = new ArrayList<>();
    for (int size : sizes) {
      byte[] b = new byte[size];
      r.nextBytes(b);
      out.add(ByteString.of(b));
    }
    return out;
  }

  private static ByteString write(Payload p) throws IOException {
    ByteStringBuilder b = new ByteStringBuilder(1024);
    p.writeTo(b.asOutputStream());
    return b.toByteString();
  }

  /** Reads each p:blob's content, attached or inline. */
  static List<ByteString> readBlobs(Message m) throws IOException, XMLStreamException {
    List<ByteString> out = new ArrayList<>();
    XMLStreamReader r = m.bodyReader();
    while (r.hasNext()) {
      if (r.next() == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals("blob")) {
        ByteStringBuilder blob = new ByteStringBuilder(64);
        StringBuilder base64 = new StringBuilder();
        for (int e = r.next(); e != XMLStreamConstants.END_ELEMENT; e = r.next()) {
          if (r instanceof XopReader x && x.isBinary()) {
            Attachment a = x.binary();
            blob.append(a.bytes());
          } else if (e == XMLStreamConstants.CHARACTERS) {
            base64.append(r.getText());
          }
        }
        if (!base64.isEmpty()) {
          blob.append(ByteString.decodeBase64(base64));
        }
        out.add(blob.toByteString());
      }
    }
    return out;
  }
}
