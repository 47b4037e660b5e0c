package dev.ferry.mime;

import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class TransferDecodingTest {

  static Part part(String cte, String body) throws IOException {
    String msg = "--b\r\nContent-Transfer-Encoding: " + cte + "\r\n\r\n" + body + "\r\n--b--";
    MultipartReader r = MultipartReader.builder(new ByteArrayInputStream(
        msg.getBytes(StandardCharsets.ISO_8859_1)), "b").build();
    return r.nextPart();
  }

  @Property(tries = 200)
  void base64DecodesWhatTheMimeEncoderWrote(@ForAll byte[] data,
      @ForAll @IntRange(min = 1, max = 100) int readSize) throws IOException {
    String encoded = Base64.getMimeEncoder().encodeToString(data);
    Part p = part("base64", encoded);
    assertThat(readInChunks(p.decodedBody(), readSize)).isEqualTo(data);
  }

  @Property(tries = 200)
  void quotedPrintableDecodesEscapesAndSoftBreaks(@ForAll byte[] data) throws IOException {
    Part p = part("quoted-printable", encodeQp(data));
    assertThat(p.decodedBody().readAllBytes()).isEqualTo(data);
  }

  @Test
  void quotedPrintableDropsTrailingWhiteSpaceAndKeepsHardBreaks() throws IOException {
    Part p = part("Quoted-Printable", "a=3Db  \r\nline two=\r\n joined\t\r\nend=");
    assertThat(new String(p.decodedBody().readAllBytes(), StandardCharsets.ISO_8859_1))
        .isEqualTo("a=b\r\nline two joined\r\nend");
  }

  @Test
  void badBase64NamesTheByteAndOffset() throws IOException {
    Part p = part("base64", "QUJD\r\nR!==");
    MimeException e = assertThrows(MimeException.class, () -> p.decodedBody().readAllBytes());
    assertMentions(e.reason(), "invalid base64 character 0x21 '!'");
    assertEquals(p.bodyOffset() + 7, e.byteOffset());
    assertEquals("part 0 > body", e.context());
  }

  @Test
  void truncatedBase64IsAnError() throws IOException {
    Part p = part("base64", "QUJDR");
    assertMentions(assertThrows(MimeException.class, () -> p.decodedBody().readAllBytes())
        .reason(), "truncated base64");
    assertThat(part("base64", "QUI").decodedBody().readAllBytes()).isEqualTo("AB".getBytes());
  }

  @Test
  void badQuotedPrintableEscape() throws IOException {
    Part p = part("quoted-printable", "ok=ZZ");
    MimeException e = assertThrows(MimeException.class, () -> p.decodedBody().readAllBytes());
    assertMentions(e.reason(), "invalid quoted-printable escape");
    assertEquals(p.bodyOffset() + 2, e.byteOffset());
  }

  @Test
  void unknownTransferEncodingIsRefused() throws IOException {
    Part p = part("x-uuencode", "abc");
    assertMentions(assertThrows(MimeException.class, p::decodedBody).reason(),
        "unsupported Content-Transfer-Encoding \"x-uuencode\"");
    assertThat(part("8bit", "abc").decodedBody().readAllBytes()).isEqualTo("abc".getBytes());
  }

  static byte[] readInChunks(java.io.InputStream in, int size) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[size];
    for (int n; (n = in.read(buf)) >= 0; ) {
      out.write(buf, 0, n);
    }
    return out.toByteArray();
  }

  /** A simple quoted-printable encoder: escapes everything but safe ASCII; 76-char lines. */
  static String encodeQp(byte[] data) {
    StringBuilder s = new StringBuilder();
    int line = 0;
    for (byte b : data) {
      int c = b & 0xff;
      String piece = c >= 33 && c <= 126 && c != '=' ? String.valueOf((char) c)
          : String.format("=%02X", c);
      if (line + piece.length() > 75) {
        s.append("=\r\n");
        line = 0;
      }
      s.append(piece);
      line += piece.length();
    }
    return s.toString();
  }
}
