package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

/** What a SOAP 1.1 message's Content-Type must look like with MTOM on and with MTOM off. */
final class WireAssertions {
  private WireAssertions() {}

  /**
   * MTOM on: an XOP package, multipart/related whose root is application/xop+xml carrying
   * text/xml (SOAP 1.1). MTOM off: a plain SOAP 1.1 envelope, text/xml.
   */
  static void assertMtom(String contentType, boolean mtom) {
    assertThat(contentType).as("Content-Type on the wire").isNotNull();
    String lower = contentType.toLowerCase(java.util.Locale.ROOT);
    if (mtom) {
      assertThat(lower).startsWith("multipart/related")
          .contains("type=\"application/xop+xml\"")
          .contains("start-info=\"text/xml\"");
    } else {
      assertThat(lower).startsWith("text/xml");
    }
  }
}
