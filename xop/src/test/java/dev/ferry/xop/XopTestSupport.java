package dev.ferry.xop;

import dev.ferry.testkit.Vectors;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;

/** Loads captured packages and flattens what a StAX consumer sees. */
final class XopTestSupport {
  private XopTestSupport() {}

  static String contentTypeOf(String file) {
    for (Map<String, String> row : Vectors.tsv("mime/shared/MANIFEST.tsv")) {
      if (row.get("file").equals(file)) {
        return row.get("content_type");
      }
    }
    throw new AssertionError("not in the manifest: " + file);
  }

  static XopPackage open(XopCodec codec, String file) throws IOException {
    return codec.read(new ByteArrayInputStream(Vectors.bytes("mime/shared/" + file)),
        contentTypeOf(file));
  }

  static XopPackage read(XopCodec codec, String contentType, String message) throws IOException {
    InputStream in = new ByteArrayInputStream(message.getBytes(
        java.nio.charset.StandardCharsets.ISO_8859_1));
    return codec.read(in, contentType);
  }

  /** The text content of each element that has text, in document order: "name=text". */
  static List<String> texts(XopReader r) throws XMLStreamException {
    List<String> out = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    String current = null;
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        current = r.getLocalName();
        text.setLength(0);
      } else if (e == XMLStreamConstants.CHARACTERS || e == XMLStreamConstants.CDATA) {
        text.append(r.getText());
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        if (!text.toString().isBlank()) {
          out.add(current + "=" + text);
        }
        text.setLength(0);
      }
    }
    return out;
  }
}
