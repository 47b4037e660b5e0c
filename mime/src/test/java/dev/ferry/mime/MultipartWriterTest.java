package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MultipartWriterTest {

  @Test
  void writesTheRfcLayoutExactly() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MultipartWriter w = new MultipartWriter(out, "b");
    w.writePart(MimeHeaders.builder().add("Content-Type", "text/plain").build(),
        "one".getBytes());
    try (OutputStream body = w.startPart(MimeHeaders.EMPTY)) {
      body.write("two".getBytes());
    }
    w.close();
    assertThat(out.toString(StandardCharsets.ISO_8859_1)).isEqualTo(
        "--b\r\nContent-Type: text/plain\r\n\r\none\r\n--b\r\n\r\ntwo\r\n--b--\r\n");
  }

  @Test
  void headerLinesKeepTheirOrderWhateverTheirEncoding() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MultipartWriter w = new MultipartWriter(out, "b");
    String longValue = "v".repeat(600); // longer than the writer's header buffer
    w.writePart(MimeHeaders.builder().add("A", "1").add("Content-Description", "Grüße")
        .add("B", longValue).add("C", "3").build(), new byte[0]);
    w.close();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("--b\r\nA: 1\r\n"
        + "Content-Description: Grüße\r\nB: " + longValue + "\r\nC: 3\r\n\r\n\r\n--b--\r\n");
  }

  @Test
  void writesParsedAndCombinedHeadersAsTheyCame() throws Exception {
    byte[] section = "X-Name: caf\u00e9\r\nContent-ID: <p@x>\r\n\r\n"
        .getBytes(StandardCharsets.UTF_8);
    MimeHeaders parsed = MimeHeaders.readFrom(new ByteArrayInputStream(section),
        MimeLimits.DEFAULTS, false);
    MimeHeaders ascii = MimeHeaders.builder().add("A", "1").build();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MultipartWriter w = new MultipartWriter(out, "b");
    w.writePart(ascii, new byte[0]);
    w.writePart(parsed, new byte[0]); // parsed: found to be not ASCII on first use
    w.writePart(MimeHeaders.builder().addAll(ascii).addAll(parsed).build(), new byte[0]);
    w.close();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("--b\r\nA: 1\r\n\r\n"
        + "\r\n--b\r\nX-Name: caf\u00e9\r\nContent-ID: <p@x>\r\n\r\n"
        + "\r\n--b\r\nA: 1\r\nX-Name: caf\u00e9\r\nContent-ID: <p@x>\r\n\r\n"
        + "\r\n--b--\r\n");
  }

  @Test
  void headerValuesAreCheckedPastTheirFirstUnusualCharacter() throws Exception {
    // a tab sends the check to its slow part: what follows it must still be judged there
    assertThatThrownBy(() -> MimeHeaders.builder().add("X", "a\tb\nInjected: 1"))
        .hasMessageContaining("line break at index 3");
    assertThatThrownBy(() -> MimeHeaders.builder().add("X", "caf\u00e9\r"))
        .hasMessageContaining("line break at index 4");
    assertThatThrownBy(() -> MimeHeaders.builder().add(new String("Content:Type"), "x"))
        .hasMessageContaining("not a header name");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MultipartWriter w = new MultipartWriter(out, "b");
    w.writePart(MimeHeaders.builder().add("Content-Type", "text/plain;\tcharset=utf-8")
        .add("X", "\tcaf\u00e9").build(), new byte[0]);
    w.close();
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("--b\r\n"
        + "Content-Type: text/plain;\tcharset=utf-8\r\nX: caf\u00e9\r\n\r\n\r\n--b--\r\n");
  }

  @Test
  void boundaryAndContentIdsComeFromOneRandomValuePerMessage() {
    MultipartWriter a = new MultipartWriter(new ByteArrayOutputStream());
    MultipartWriter b = new MultipartWriter(new ByteArrayOutputStream());
    assertThat(a.boundary()).startsWith("MIMEBoundary_").hasSize(13 + 32)
        .isNotEqualTo(b.boundary());
    String first = a.nextContentId();
    String second = a.nextContentId();
    assertThat(first).startsWith("1.").endsWith("@ferry.dev");
    assertThat(second).startsWith("2.").isEqualTo("2" + first.substring(1));
    assertThat(a.contentType("related", "type", "application/xop+xml").toString())
        .isEqualTo("multipart/related; boundary=" + a.boundary()
            + "; type=\"application/xop+xml\"");
  }

  @Test
  void contentTypeQuotesWhatTheCallerGaveEvenInPlaceOfTheBoundary() {
    MultipartWriter w = new MultipartWriter(new ByteArrayOutputStream());
    MediaType t = w.contentType("related", "start", "<1.x@y>", "boundary", "a b");
    assertThat(t.toString()).isEqualTo("multipart/related; boundary=\"a b\"; start=\"<1.x@y>\"")
        .isSameAs(t.toString());
    assertThat(w.contentType("mixed").toString())
        .isEqualTo("multipart/mixed; boundary=" + w.boundary());
    assertThat(new MultipartWriter(new ByteArrayOutputStream(), "a:b").contentType("mixed"))
        .hasToString("multipart/mixed; boundary=\"a:b\"");
    assertThatThrownBy(() -> w.contentType("related", "type"))
        .hasMessageContaining("name, value pairs");
    // header injection through a parameter value, by either call
    assertThatThrownBy(() -> w.contentType("related", "start", "<a>\r\nX-Injected: 1"))
        .hasMessageContaining("line break");
    assertThatThrownBy(() -> w.relatedContentType("text/xml\r\nX-Injected: 1", "a", null))
        .hasMessageContaining("line break");
    assertThatThrownBy(() -> w.relatedContentType("text/xml", "a", "x/y\nX-Injected: 1"))
        .hasMessageContaining("line break");
    assertThatThrownBy(() -> MediaType.of("text", "xml").withParameter("a", "b\rc"))
        .hasMessageContaining("line break");
  }

  @Test
  void relatedContentTypeIsTheGeneralOneMadeInOneStep() throws MimeException {
    MultipartWriter w = new MultipartWriter(new ByteArrayOutputStream());
    String root = w.nextContentId();
    String[][] cases = {
        {"application/xop+xml", "text/xml"}, // MTOM, SOAP 1.1
        {"application/xop+xml", null}, // no start-info
        {"text", "text/xml"}, // a token: unquoted, as toString does (the general path)
        {"application/xop+xml", "a \"quoted\" b"}, // needs escapes (the general path)
    };
    for (String[] c : cases) {
      MediaType general = c[1] == null
          ? w.contentType("related", "type", c[0], "start", "<" + root + ">")
          : w.contentType("related", "type", c[0], "start", "<" + root + ">", "start-info", c[1]);
      MediaType fast = w.relatedContentType(c[0], root, c[1]);
      assertThat(fast).as("%s, %s", c[0], c[1]).isEqualTo(general)
          .hasSameHashCodeAs(general).hasToString(general.toString());
      assertThat(MediaType.parse(fast.toString())).isEqualTo(general);
    }
    MultipartWriter named = new MultipartWriter(new ByteArrayOutputStream(), "a:b");
    assertThat(named.relatedContentType("application/xop+xml", "r@x", "text/xml")).hasToString(
        "multipart/related; boundary=\"a:b\"; type=\"application/xop+xml\"; start=\"<r@x>\";"
            + " start-info=\"text/xml\"");
  }

  @Test
  void partsWithTheUsualThreeHeadersAreWrittenAsTheHeadersWouldBe() throws Exception {
    String[][] parts = {
        {"application/octet-stream", "1.a@b"},
        {" text/plain; charset=utf-8 ", "2.a@b"}, // stripped, as the builder does
        {"text/plain; name=\"caf\u00e9\"", "3.a@b"}, // not ASCII: UTF-8, as the builder
    };
    ByteArrayOutputStream viaHeaders = new ByteArrayOutputStream();
    ByteArrayOutputStream direct = new ByteArrayOutputStream();
    MultipartWriter a = new MultipartWriter(viaHeaders, "b");
    MultipartWriter b = new MultipartWriter(direct, "b");
    for (String[] p : parts) {
      a.writePart(MimeHeaders.builder().add("Content-Type", p[0])
          .add("Content-Transfer-Encoding", "binary").add("Content-ID", "<" + p[1] + ">").build(),
          p[1].getBytes(StandardCharsets.UTF_8));
      b.writePart(p[0], p[1], p[1].getBytes(StandardCharsets.UTF_8));
    }
    try (OutputStream body = a.startPart(MimeHeaders.builder().add("Content-Type", "x/y")
        .add("Content-Transfer-Encoding", "binary").add("Content-ID", "<4.a@b>").build())) {
      body.write(7);
    }
    try (OutputStream body = b.startPart("x/y", "4.a@b")) {
      body.write(7);
    }
    a.close();
    b.close();
    assertThat(direct.toString(StandardCharsets.UTF_8))
        .isEqualTo(viaHeaders.toString(StandardCharsets.UTF_8))
        .contains("\r\n--b\r\nContent-Type: text/plain; name=\"caf\u00e9\"\r\n"
            + "Content-Transfer-Encoding: binary\r\nContent-ID: <3.a@b>\r\n\r\n3.a@b");
    assertThatThrownBy(() -> b.writePart("x/y", "1@x\r\nInjected: 1", new byte[0]))
        .hasMessageContaining("line break");
  }

  @Test
  void misuseIsRefused() throws Exception {
    MultipartWriter w = new MultipartWriter(new ByteArrayOutputStream(), "b");
    assertThatThrownBy(w::close).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("at least one part");
    OutputStream body = w.startPart(MimeHeaders.EMPTY);
    assertThatThrownBy(() -> w.startPart(MimeHeaders.EMPTY))
        .hasMessageContaining("body of part 0 is still open");
    body.close();
    assertThatThrownBy(() -> body.write(1)).hasMessageContaining("closed");
    w.writePart(MimeHeaders.EMPTY, new ByteArrayInputStream(new byte[3]));
    w.close();
    assertThatThrownBy(() -> w.startPart(MimeHeaders.EMPTY))
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> new MultipartWriter(new ByteArrayOutputStream(), "a\nb"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MimeHeaders.builder().add("X", "a\r\nInjected: 1"))
        .hasMessageContaining("line break");
  }
}
