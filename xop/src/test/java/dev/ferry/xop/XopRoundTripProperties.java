package dev.ferry.xop;

import dev.ferry.mime.MediaType;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.xml.stream.XMLStreamConstants;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** XopWriter then XopReader: text and binary fields come back equal, MTOM on or off. */
class XopRoundTripProperties {
  static final XopCodec XOP = XopCodec.create();

  /** A field: text, or binary passed in one of three ways. */
  record Field(String text, byte[] binary, int passAs) {}

  @Property(tries = 200)
  void fieldsSurviveWhateverThePolicy(@ForAll("fields") List<Field> fields,
      @ForAll("policies") MtomPolicy policy, @ForAll boolean soap12) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MediaType rootType = MediaType.parse(soap12 ? "application/soap+xml" : "text/xml");
    XopWriter w = XOP.newWriter(out, policy, rootType);
    String contentType = w.contentType();
    w.writeStartDocument();
    w.writeStartElement("m", "msg", "urn:m");
    w.writeNamespace("m", "urn:m");
    for (Field f : fields) {
      w.writeStartElement("m", "f", "urn:m");
      w.writeAttribute("kind", f.text() != null ? "text" : "binary"); // the start tag still open
      if (f.text() != null) {
        w.writeCharacters(f.text());
      } else if (f.passAs() == 0) {
        w.writeBinary(f.binary(), 0, f.binary().length, "application/octet-stream");
      } else {
        w.writeBinary(new ByteArrayInputStream(f.binary()),
            f.passAs() == 1 ? f.binary().length : -1, "image/png");
      }
      w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndDocument();
    w.close();

    long expectedAttachments = fields.stream().filter(f -> f.binary() != null
        && policy.attaches(f.binary().length)).count();
    assertThat(w.attachmentCount()).isEqualTo(expectedAttachments);
    assertThat(contentType).startsWith(policy.isMtom() ? "multipart/related" : rootType.baseType());

    try (XopPackage pkg = XOP.read(new ByteArrayInputStream(out.toByteArray()), contentType)) {
      assertThat(pkg.isXop()).isEqualTo(policy.isMtom());
      List<Value> values = readFields(pkg.newXmlReader());
      assertThat(values).hasSameSizeAs(fields);
      for (int i = 0; i < fields.size(); i++) {
        Field f = fields.get(i);
        Value v = values.get(i);
        if (f.text() != null) {
          assertThat(v.binary()).isNull();
          assertThat(v.text()).as("field " + i).isEqualTo(f.text());
        } else {
          // inline: a consumer decodes the base64 text, as its schema says base64Binary
          byte[] got = v.binary() != null ? v.binary() : Base64.getDecoder().decode(v.text());
          assertThat(got).as("field " + i).isEqualTo(f.binary());
          assertThat(v.binary() != null).isEqualTo(policy.attaches(f.binary().length));
        }
      }
    }
  }

  /** What one field read back as: its text, or the bytes of its attachment. */
  record Value(String text, byte[] binary) {}

  static List<Value> readFields(XopReader r) throws Exception {
    List<Value> out = new ArrayList<>();
    StringBuilder chars = new StringBuilder();
    byte[] binary = null;
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT && r.getLocalName().equals("f")) {
        chars.setLength(0);
        binary = null;
      } else if (e == XMLStreamConstants.CHARACTERS && r.isBinary()) {
        binary = r.binary().bytes().toByteArray();
      } else if (e == XMLStreamConstants.CHARACTERS) {
        chars.append(r.getText());
      } else if (e == XMLStreamConstants.END_ELEMENT && r.getLocalName().equals("f")) {
        out.add(new Value(chars.toString(), binary));
      }
    }
    return out;
  }

  @Provide
  Arbitrary<MtomPolicy> policies() {
    return Arbitraries.oneOf(Arbitraries.of(MtomPolicy.NEVER, MtomPolicy.ALWAYS,
        MtomPolicy.DEFAULT), Arbitraries.integers().between(0, 5000).map(MtomPolicy::threshold));
  }

  @Provide
  Arbitrary<List<Field>> fields() {
    Arbitrary<Field> text = Arbitraries.strings().withCharRange(' ', '\uD7FF').ofMaxLength(50)
        .map(s -> new Field(s, null, 0));
    Arbitrary<Field> binary = Combinators.combine(
        Arbitraries.bytes().array(byte[].class).ofMaxSize(9000), Arbitraries.integers()
            .between(0, 2)).as((b, how) -> new Field(null, b, how));
    return Arbitraries.oneOf(text, binary).list().ofMaxSize(6);
  }
}
