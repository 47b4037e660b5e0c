package dev.ferry.xop;

import dev.ferry.mime.MediaType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.ContentIds;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Attachments queued by a serializer that writes its own xop:Include elements. */
class XopWriterAttachTest {
  @Test
  void attachedContentIsThePartTheCallersIncludeNames() throws Exception {
    byte[] streamed = {1, 2, 3, 4, 5};
    ByteString held = ByteString.encodeUtf8("held bytes");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    XopWriter w = XopCodec.create().newWriter(out, MtomPolicy.ALWAYS,
        MediaType.of("text", "xml"));
    w.writeStartElement("m");
    for (String id : List.of(w.attach(new ByteArrayInputStream(streamed), "image/png"),
        w.attach(held, "application/octet-stream"))) {
      w.writeStartElement("b");
      w.writeStartElement("xop", "Include", XopReader.XOP_NS);
      w.writeNamespace("xop", XopReader.XOP_NS);
      w.writeAttribute("href", ContentIds.toCidUrl(id));
      w.writeEndElement();
      w.writeEndElement();
    }
    w.writeEndElement();
    w.close();

    assertThat(w.attachmentCount()).isEqualTo(2);
    try (XopPackage pkg = XopCodec.create().read(new ByteArrayInputStream(out.toByteArray()),
        w.contentType())) {
      XopReader r = pkg.newXmlReader();
      List<String> texts = XopTestSupport.texts(r);
      assertThat(texts).containsExactly("b=" + ByteString.of(streamed).base64(),
          "b=" + held.base64());
      assertThat(pkg.attachments()).extracting(a -> a.contentType().baseType())
          .containsExactly("image/png", "application/octet-stream");
    }
  }

  @Test
  void nothingCanBeAttachedToPlainXml() throws Exception {
    XopWriter w = XopCodec.create().newWriter(new ByteArrayOutputStream(), MtomPolicy.NEVER,
        MediaType.of("text", "xml"));
    assertThatThrownBy(() -> w.attach(ByteString.EMPTY, "application/octet-stream"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not an MTOM package");
  }
}
