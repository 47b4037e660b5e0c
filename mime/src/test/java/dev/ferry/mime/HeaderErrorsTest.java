package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.testkit.Chunking;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Malformed header fields and Content-Types in a part: strict parsing fails the message at the
 * offending byte, lenient header parsing reads past and reports each one.
 */
class HeaderErrorsTest {

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<MimeEvents.ParsedPart> parse(String message, boolean lenient)
      throws MimeException {
    return MimeEvents.parse(bytes(message), Chunking.fixed(3),
        MultipartParser.builder("b").lenientHeaders(lenient));
  }

  @Test
  void aMalformedContentTypeFailsTheMessageAtItsAbsoluteOffset() {
    // "--b\r\nA: 1\r\n" is 11 bytes; "Content-Type: " 14 more; '/' is missing at byte 29
    MimeException e = assertThrows(MimeException.class,
        () -> parse("--b\r\nA: 1\r\nContent-Type: text\r\n\r\nx\r\n--b--", false));
    assertEquals("expected '/'", e.reason());
    assertEquals(29, e.byteOffset());
    assertEquals("part 0 > headers > header \"Content-Type\"", e.context());
  }

  @Test
  void theOffsetOfAnErrorAfterAFoldCountsTheFold() {
    // the value's second line starts at byte 33 (after CRLF); its " x=\"open" quote is at 37
    String message = "--b\r\nContent-Type: text/plain;\r\n x=\"open\r\n\r\nx\r\n--b--";
    MimeException e = assertThrows(MimeException.class, () -> parse(message, false));
    assertEquals("unterminated quoted string", e.reason());
    assertEquals(message.indexOf('"'), e.byteOffset());
    assertEquals("part 0 > headers > header \"Content-Type\" > parameter \"x\"", e.context());
  }

  @Test
  void theOffsetCountsUtf8BytesBeforeTheError() {
    String message = "--b\r\nContent-Type: a/b; n=\"ä\" x\r\n\r\n\r\n--b--";
    MimeException e = assertThrows(MimeException.class, () -> parse(message, false));
    assertEquals("expected ';'", e.reason());
    assertEquals(bytes(message.substring(0, message.indexOf(" x"))).length + 1, e.byteOffset());
  }

  @Test
  void strictParsingRejectsAnEightBitFieldName() {
    MimeException e = assertThrows(MimeException.class,
        () -> parse("--b\r\nA: 1\r\nGr\u00f6\u00dfe: 2\r\n\r\nx\r\n--b--", false));
    assertThat(e.reason()).startsWith("invalid byte 0xC3 in header name");
    assertEquals(13, e.byteOffset());
  }

  @Test
  void lenientParsingLeavesOutMalformedFieldsAndSaysWhere() throws Exception {
    String message = "--b\r\nGr\u00f6\u00dfe: 2\r\n continued\r\nA: 1\r\nno colon\r\n"
        + " \tcontinued\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--";
    var parts = parse(message, true);
    MimeHeaders h = parts.get(0).headers();
    assertThat(h.fields()).extracting(MimeHeaders.Field::name)
        .containsExactly("A", "Content-Type");
    assertThat(h.contentType().baseType()).isEqualTo("text/plain");
    assertThat(h.warnings()).hasSize(2);
    MimeWarning first = h.warnings().get(0);
    assertEquals("invalid byte 0xC3 in header name; field left out", first.reason());
    assertEquals(7, first.byteOffset());
    assertEquals("part 0 > headers", first.context());
    assertThat(h.warnings().get(1).reason()).isEqualTo("header line without ':'; field left out");
    assertEquals(bytes(message).length - bytes(message.substring(message.indexOf("no colon")))
        .length, h.warnings().get(1).byteOffset());
    assertThat(first.toString()).isEqualTo("invalid byte 0xC3 in header name; field left out"
        + " at byte 7 [part 0 > headers]");
    assertThat(new String(parts.get(0).body())).isEqualTo("x");
  }

  @Test
  void lenientParsingKeepsAnUnquotedEncodedWordAsWritten() throws Exception {
    String message = "--b\r\nContent-Type: application/octet-stream;"
        + " name==?UTF-8?B?w6TDtsO8LnBkZg==?=; x=1\r\n\r\nx\r\n--b--";
    MimeException strict = assertThrows(MimeException.class, () -> parse(message, false));
    assertEquals("expected a value", strict.reason());
    var h = parse(message, true).get(0).headers();
    MediaType t = h.contentType();
    assertThat(t.parameter("name")).isEqualTo("=?UTF-8?B?w6TDtsO8LnBkZg==?=");
    assertThat(t.parameter("x")).isEqualTo("1");
    MimeWarning w = h.warnings().get(0);
    assertEquals("value is neither a token nor a quoted string; kept as written", w.reason());
    assertEquals(strict.byteOffset(), w.byteOffset());
    assertEquals("part 0 > headers > header \"Content-Type\" > parameter \"name\"",
        w.context());
  }

  @Test
  void lenientParsingSkipsAMalformedParameterAndKeepsTheRest() throws Exception {
    var h = parse("--b\r\nContent-Type: text/xml; =x; charset=\"utf-8\" junk;"
        + " start=\"<a>\"; broken=\"open\r\n\r\n\r\n--b--", true).get(0).headers();
    assertThat(h.contentType().parameters()).containsExactly(
        java.util.Map.entry("charset", "utf-8"), java.util.Map.entry("start", "<a>"));
    assertThat(h.warnings()).extracting(MimeWarning::reason).containsExactly(
        "expected a parameter name; skipped up to the next ';'",
        "expected ';'; skipped up to the next ';'",
        "unterminated quoted string; skipped up to the next ';'");
  }

  @Test
  void lenientParsingIgnoresAContentTypeWithoutATypeAndSubtype() throws Exception {
    var h = parse("--b\r\nContent-Type: text\r\n\r\nx\r\n--b--", true).get(0).headers();
    assertThat(h.contentType()).isNull();
    assertThat(h.get("Content-Type")).isEqualTo("text");
    assertThat(h.warnings()).extracting(MimeWarning::reason).containsExactly(
        "expected '/'; Content-Type ignored (RFC 2045 defaults apply)");
  }

  @Test
  void lenientHeadersThroughTheReader() throws IOException {
    byte[] message = bytes("--b\r\n\u00c4: 1\r\nContent-Type: a/b; n=x y\r\n\r\nz\r\n--b--");
    try (MultipartReader r = MultipartReader.builder(new ByteArrayInputStream(message), "b")
        .lenientHeaders(true).build()) {
      Part p = r.nextPart();
      assertThat(p.headers().warnings()).extracting(MimeWarning::reason).containsExactly(
          "invalid byte 0xC3 in header name; field left out",
          "value is neither a token nor a quoted string; kept as written");
      assertThat(p.headers().contentType().parameter("n")).isEqualTo("x y");
      assertThat(p.body().readAllBytes()).isEqualTo(bytes("z"));
    }
  }

  @Test
  void strictParsingHasNoWarningsAndBuiltHeadersAreTheProgramsToGetRight() throws Exception {
    assertThat(parse("--b\r\nContent-Type: a/b\r\n\r\nx\r\n--b--", false).get(0).headers()
        .warnings()).isEmpty();
    MimeHeaders built = MimeHeaders.builder().add("Content-Type", "nonsense").build();
    assertThat(built.warnings()).isEmpty();
    assertThatThrownBy(built::contentType).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("malformed Content-Type: expected '/' at byte 8")
        .hasCauseInstanceOf(MimeException.class);
    assertThat(MimeHeaders.builder().add("Content-Type", "A/B").build().contentType())
        .isEqualTo(MediaType.of("a", "b"));
  }

  @Test
  void maxHeaderWarnings() throws Exception {
    MimeLimits two = MimeLimits.builder().maxHeaderWarnings(2).build();
    String twoBad = "--b\r\n\u00c4: 1\r\nContent-Type: a/b; =1\r\n\r\nx\r\n--b--";
    assertThat(MimeEvents.parse(bytes(twoBad), Chunking.whole(), MultipartParser.builder("b")
        .lenientHeaders(true).limits(two)).get(0).headers().warnings()).hasSize(2);
    String threeBad = "--b\r\n\u00c4: 1\r\nContent-Type: a/b; =1; =2\r\n\r\nx\r\n--b--";
    MimeException e = assertThrows(MimeException.class, () -> MimeEvents.parse(
        bytes(threeBad), Chunking.whole(),
        MultipartParser.builder("b").lenientHeaders(true).limits(two)));
    assertEquals("MimeLimits.maxHeaderWarnings", e.limitName());
    assertEquals(2, e.limitValue());
    assertEquals(bytes(threeBad.substring(0, threeBad.indexOf("=2"))).length, e.byteOffset());
    // far beyond: a header section full of malformed parameters keeps 16 warnings, then fails
    String far = "--b\r\nContent-Type: a/b" + "; =".repeat(2500) + "\r\n\r\nx\r\n--b--";
    long before = MimeLimitsTest.allocatedBytes();
    e = assertThrows(MimeException.class, () -> MimeEvents.parse(bytes(far), Chunking.whole(),
        MultipartParser.builder("b").lenientHeaders(true)));
    long allocated = MimeLimitsTest.allocatedBytes() - before;
    assertEquals("MimeLimits.maxHeaderWarnings", e.limitName());
    assertThat(allocated).isLessThan(1 << 20);
  }
}
