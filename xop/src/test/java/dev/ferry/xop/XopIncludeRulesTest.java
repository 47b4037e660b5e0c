package dev.ferry.xop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.mime.MultipartWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * What an {@code xop:Include} may point at: a part of its package, by a {@code cid:} URL. The
 * href is checked when the package is read; that it names a part, when the package has been read
 * to its end, so that a forwarder streaming the parts on never ends the package it sends.
 */
class XopIncludeRulesTest {
  private static final String ROOT = "Content-Type: " + InteropTrapsTest.ROOT_TYPE
      + "\r\nContent-ID: <root@x>";
  private static final String TYPE = InteropTrapsTest.mtomType("<root@x>");

  private static XopPackage read(String href, String attachmentId) throws IOException {
    return XopTestSupport.read(XopCodec.create(), TYPE,
        InteropTrapsTest.message(ROOT, href, attachmentId));
  }

  @Test
  void anIncludeOfAPartResolves() throws IOException {
    try (XopPackage pkg = read("cid:a@b", "<a@b>")) {
      assertThat(pkg.attachments()).hasSize(1);
    }
  }

  @Test
  void otherSchemesAreRefusedWhenThePackageIsReadAndNeverFetched() {
    for (String href : new String[] {"file:///etc/passwd", "http://127.0.0.1:1/x",
        "https://example.org/a", "mid:a@b"}) {
      assertThatThrownBy(() -> read(href, "<a@b>")).as(href)
          .isInstanceOf(XopException.class)
          .hasMessageContaining("not a cid: URL")
          .hasMessageContaining(href);
    }
  }

  @Test
  void anIncludeOfTheRootItselfIsRefused() {
    assertThatThrownBy(() -> read("cid:root@x", "<a@b>"))
        .isInstanceOf(XopException.class)
        .hasMessageContaining("refers to the root part itself");
  }

  @Test
  void anIncludeOfAMissingPartFailsOnceThePackageIsRead() throws IOException {
    try (XopPackage pkg = read("cid:missing@x", "<a@b>")) {
      assertThatThrownBy(pkg::attachments)
          .isInstanceOf(XopException.class)
          .hasMessageContaining("Content-ID <missing@x>, which no part of the package has");
    }
  }

  @Test
  void aForwarderFindingAMissingPartFailsBeforeItEndsThePackage() throws IOException {
    try (XopPackage pkg = read("cid:missing@x", "<a@b>")) {
      ByteArrayOutputStream sink = new ByteArrayOutputStream();
      MultipartWriter out = new MultipartWriter(sink);
      assertThatThrownBy(() -> pkg.forwardAttachments(out))
          .isInstanceOf(XopException.class)
          .hasMessageContaining("missing@x");
      // the part was forwarded, the closing delimiter never
      assertThat(sink.toString()).contains("hello").doesNotContain("--" + out.boundary() + "--");
    }
  }

  @Test
  void outsideAnXopPackageAnIncludeIsAnOrdinaryElement() throws IOException {
    String swa = "multipart/related; boundary=b; type=\"text/xml\"; start=\"<root@x>\"";
    try (XopPackage pkg = XopTestSupport.read(XopCodec.create(), swa,
        InteropTrapsTest.message("Content-Type: text/xml\r\nContent-ID: <root@x>",
            "file:///etc/passwd", "<a@b>"))) {
      assertThat(pkg.attachments()).hasSize(1);
    }
  }
}
