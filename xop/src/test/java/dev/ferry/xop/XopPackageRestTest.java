package dev.ferry.xop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeLimits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * For a forwarder that sends a package's bytes as they came: where the root's body is in the
 * source, and the rest checked and skipped without being kept.
 */
class XopPackageRestTest {
  private static final String TYPE = "multipart/related; type=\"application/xop+xml\";"
      + " boundary=b; start=\"<r>\"; start-info=\"text/xml\"";
  private static final String ROOT = "<e xmlns=\"urn:t\"/>";

  private static String message(String rest) {
    return "preamble\r\n--b\r\nContent-ID: <x>\r\n\r\nbefore\r\n"
        + "--b\r\nContent-Type: application/xop+xml; type=\"text/xml\"\r\nContent-ID: <r>\r\n\r\n"
        + ROOT + rest;
  }

  private static XopPackage read(XopCodec codec, String message) throws IOException {
    return codec.read(new ByteArrayInputStream(message.getBytes(StandardCharsets.US_ASCII)),
        TYPE);
  }

  @Test
  void theRootOffsetIsWhereItsBodyBeginsInTheSource() throws IOException {
    String m = message("\r\n--b\r\nContent-ID: <a>\r\n\r\nbytes\r\n--b--\r\n");
    try (XopPackage pkg = read(XopCodec.builder().build(), m)) {
      assertThat(pkg.rootOffset()).isEqualTo(m.indexOf(ROOT));
      assertThat(pkg.root().utf8()).isEqualTo(ROOT);
    }
    try (XopPackage plain = XopCodec.builder().build().read(
        new ByteArrayInputStream(ROOT.getBytes(StandardCharsets.US_ASCII)), "text/xml")) {
      assertThat(plain.rootOffset()).isEqualTo(-1);
    }
  }

  @Test
  void skipRestChecksThePartsAfterTheRootAndKeepsNone() throws IOException {
    String m = message("\r\n--b\r\nContent-ID: <a>\r\n\r\nbytes\r\n--b\r\nContent-ID: <c>\r\n"
        + "\r\nmore\r\n--b--\r\n");
    try (XopPackage pkg = read(XopCodec.builder().build(), m)) {
      assertThat(pkg.skipRest()).isEqualTo(2);
      assertThat(pkg.skipRest()).isZero();
      // only the part before the root was kept
      assertThat(pkg.attachments()).extracting(Attachment::contentId).containsExactly("x");
    }
  }

  @Test
  void skipRestFailsOnAMalformedOrOverlongRest() throws IOException {
    try (XopPackage pkg = read(XopCodec.builder().build(),
        message("\r\n--b\r\nContent-ID: <a>\r\n\r\nbytes, and no closing delimiter"))) {
      assertThatThrownBy(pkg::skipRest).isInstanceOf(MimeException.class);
    }
    XopCodec small = XopCodec.builder().limits(XopLimits.builder()
        .mime(MimeLimits.builder().maxPartBytes(100).build()).build()).build();
    try (XopPackage pkg = read(small, message("\r\n--b\r\nContent-ID: <a>\r\n\r\n"
        + "z".repeat(500) + "\r\n--b--\r\n"))) {
      assertThatThrownBy(pkg::skipRest).hasMessageContaining("MimeLimits.maxPartBytes");
    }
  }
}
