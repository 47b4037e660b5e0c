package dev.ferry.xop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeLimits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * For a forwarder that holds a package whole and sends its bytes as they came, with only the
 * root's body replaced ({@link XopPackage#spliceRoot}).
 */
class XopPackageRestTest {
  private static final String TYPE = "multipart/related; type=\"application/xop+xml\";"
      + " boundary=b; start=\"<r>\"; start-info=\"text/xml\"";
  private static final String ROOT = "<e xmlns=\"urn:t\"/>";
  private static final int ROOM = 64;

  private static String message(String rest) {
    return "preamble\r\n--b\r\nContent-ID: <x>\r\n\r\nbefore\r\n"
        + "--b\r\nContent-Type: application/xop+xml; type=\"text/xml\"\r\nContent-ID: <r>\r\n\r\n"
        + ROOT + rest;
  }

  /** The message after {@link #ROOM} bytes of room, as a forwarder holds it. */
  private static byte[] held(String message) {
    byte[] m = message.getBytes(StandardCharsets.US_ASCII);
    byte[] held = new byte[ROOM + m.length];
    System.arraycopy(m, 0, held, ROOM, m.length);
    return held;
  }

  private static XopPackage read(XopCodec codec, byte[] held) throws IOException {
    return codec.read(new ByteArrayInputStream(held, ROOM, held.length - ROOM), TYPE);
  }

  private static String string(ByteBuffer b) {
    return new String(b.array(), b.arrayOffset() + b.position(), b.remaining(),
        StandardCharsets.US_ASCII);
  }

  @Test
  void theSplicedPackageIsTheSourceWithTheNewRootAndTheRestChecked() throws IOException {
    String m = message("\r\n--b\r\nContent-ID: <a>\r\n\r\nbytes\r\n--b\r\nContent-ID: <c>\r\n"
        + "\r\nmore\r\n--b--\r\n");
    byte[] held = held(m);
    String newRoot = "<e xmlns=\"urn:t\"><grown/></e>";
    try (XopPackage pkg = read(XopCodec.create(), held)) {
      ByteBuffer head = pkg.spliceRoot(ByteString.encodeUtf8(newRoot), held, ROOM,
          held.length - ROOM);
      String rest = new String(held, head.limit(), held.length - head.limit(),
          StandardCharsets.US_ASCII);
      assertThat(string(head)).endsWith(newRoot);
      assertThat(string(head) + rest).isEqualTo(m.replace(ROOT, newRoot));
      // the rest was read and checked; only the part before the root was kept
      assertThat(pkg.attachments()).extracting(Attachment::contentId).containsExactly("x");
    }
  }

  @Test
  void aPlainMessageOrANewRootWithTheDelimiterOrTooMuchGrowthIsNotSpliced() throws IOException {
    byte[] held = held(message("\r\n--b--\r\n"));
    try (XopPackage pkg = read(XopCodec.create(), held)) {
      assertThat(pkg.spliceRoot(ByteString.encodeUtf8("<e>\r\n--b</e>"), held, ROOM,
          held.length - ROOM)).isNull();
      assertThat(pkg.spliceRoot(ByteString.encodeUtf8("<e>" + "x".repeat(2 * ROOM) + "</e>"), held,
          ROOM, held.length - ROOM)).isNull();
    }
    byte[] plain = held(ROOT);
    try (XopPackage pkg = XopCodec.create().read(
        new ByteArrayInputStream(plain, ROOM, plain.length - ROOM), "text/xml")) {
      assertThat(pkg.spliceRoot(ByteString.encodeUtf8(ROOT), plain, ROOM,
          plain.length - ROOM)).isNull();
    }
  }

  @Test
  void theSpliceFailsOnAMalformedOrOverlongRest() throws IOException {
    byte[] broken = held(message("\r\n--b\r\nContent-ID: <a>\r\n\r\nbytes, and no closing"));
    try (XopPackage pkg = read(XopCodec.create(), broken)) {
      assertThatThrownBy(() -> pkg.spliceRoot(ByteString.encodeUtf8(ROOT), broken, ROOM,
          broken.length - ROOM)).isInstanceOf(MimeException.class);
    }
    XopCodec small = XopCodec.builder().limits(XopLimits.builder()
        .mime(MimeLimits.builder().maxPartBytes(100).build()).build()).build();
    byte[] overlong = held(message("\r\n--b\r\nContent-ID: <a>\r\n\r\n" + "z".repeat(500)
        + "\r\n--b--\r\n"));
    try (XopPackage pkg = read(small, overlong)) {
      assertThatThrownBy(() -> pkg.spliceRoot(ByteString.encodeUtf8(ROOT), overlong, ROOM,
          overlong.length - ROOM)).hasMessageContaining("MimeLimits.maxPartBytes");
    }
  }
}
