package dev.ferry.mime;

import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.testkit.Chunking;
import dev.ferry.testkit.Vectors;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MultipartParserTest {

  static Stream<Chunking> chunkings() {
    return Chunking.standard().stream();
  }

  /** The body of an .eml vector: what follows its own header section. */
  static byte[] body(byte[] eml) {
    for (int i = 0; i + 3 < eml.length; i++) {
      if (eml[i] == '\r' && eml[i + 1] == '\n' && eml[i + 2] == '\r' && eml[i + 3] == '\n') {
        return Arrays.copyOfRange(eml, i + 4, eml.length);
      }
    }
    throw new AssertionError("no header section");
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @ParameterizedTest
  @MethodSource("chunkings")
  void decodesRfc2046Example(Chunking chunking) throws Exception {
    byte[] input = body(Vectors.bytes("mime/rfc2046-5.1.1.eml"));
    assertEquals(Vectors.lines("mime/rfc2046-5.1.1.events"),
        MimeEvents.render(input, chunking, MultipartParser.builder("simple boundary")));
  }

  @Test
  void decodesRfc2046ExampleAtEverySplit() throws Exception {
    byte[] input = body(Vectors.bytes("mime/rfc2046-5.1.1.eml"));
    List<String> expected = Vectors.lines("mime/rfc2046-5.1.1.events");
    for (Chunking c : Chunking.everySplit(input.length)) {
      assertEquals(expected, MimeEvents.render(input, c, MultipartParser.builder(
          "simple boundary")), c.toString());
    }
  }

  @ParameterizedTest
  @MethodSource("chunkings")
  void decodesRfc2387Example(Chunking chunking) throws Exception {
    byte[] input = Vectors.bytes("mime/rfc2387-5.1.eml");
    var parts = MimeEvents.parse(input, chunking, MultipartParser.builder("example-1"));
    assertThat(parts).hasSize(2);
    assertThat(parts.get(0).headers().contentId()).isEqualTo("950120.aaCC@XIson.com");
    assertThat(new String(parts.get(0).body())).isEqualTo("25\r\n10\r\n34\r\n10\r\n25\r\n21\r\n"
        + "26\r\n10");
    assertThat(parts.get(1).headers().contentTransferEncoding()).isEqualTo("base64");
    assertThat(parts.get(1).headers().get("content-description"))
        .isEqualTo("The fixed length records");
  }

  @Test
  void paddingAfterDelimiterAndFoldedHeaders() throws Exception {
    byte[] input = ascii("--b \t\r\nContent-Type: text/plain;\r\n charset=utf-8\r\n"
        + "X-Empty:\r\n\r\nbody\r\n--b--  \r\n");
    var parts = MimeEvents.parse(input, Chunking.fixed(1), MultipartParser.builder("b"));
    assertThat(parts).hasSize(1);
    assertThat(parts.get(0).headers().get("content-type"))
        .isEqualTo("text/plain; charset=utf-8");
    assertThat(parts.get(0).headers().get("X-Empty")).isEmpty();
    assertThat(new String(parts.get(0).body())).isEqualTo("body");
  }

  @Test
  void bodyMayHoldNearMissesOfTheDelimiter() throws Exception {
    String body = "\r\n--b\r\n--bo\r\n-\r\r\n--bound\r\n--boundar\r\r\n\r\n--boundaryX-";
    // the last one is a full delimiter line prefix followed by a non-padding byte: not allowed
    byte[] ok = ascii("--boundary\r\n\r\n" + body.substring(0, body.length() - 13)
        + "\r\n--boundary--");
    for (Chunking c : Chunking.everySplit(ok.length)) {
      var parts = MimeEvents.parse(ok, c, MultipartParser.builder("boundary"));
      assertThat(new String(parts.get(0).body(), StandardCharsets.ISO_8859_1))
          .as(c.toString()).isEqualTo(body.substring(0, body.length() - 13));
    }
  }

  @Test
  void emptyBodyAndEmptyHeaders() throws Exception {
    byte[] input = ascii("--b\r\n\r\n\r\n--b\r\nA: 1\r\n\r\n\r\n--b--");
    var parts = MimeEvents.parse(input, Chunking.whole(), MultipartParser.builder("b"));
    assertThat(parts).hasSize(2);
    assertThat(parts.get(0).body()).isEmpty();
    assertThat(parts.get(0).headers().size()).isZero();
    assertThat(parts.get(1).body()).isEmpty();
  }

  @Test
  void lenientModeAcceptsBareLfAndStripsCrBeforeIt() throws Exception {
    byte[] input = ascii("--b\nA: 1\n\nx\r\n--b\r\nB: 2\r\n\r\ny\n--b--\n");
    for (Chunking c : Chunking.everySplit(input.length)) {
      var parts = MimeEvents.parse(input, c,
          MultipartParser.builder("b").lenientLineEnds(true));
      assertThat(parts).hasSize(2);
      assertThat(new String(parts.get(0).body())).as(c.toString()).isEqualTo("x");
      assertThat(new String(parts.get(1).body())).as(c.toString()).isEqualTo("y");
    }
  }

  @Test
  void strictModeNamesTheBareLf() {
    byte[] input = ascii("--b\r\nA: 1\nB: 2\r\n\r\nx\r\n--b--");
    MimeException e = assertThrows(MimeException.class,
        () -> MimeEvents.parse(input, Chunking.whole(), MultipartParser.builder("b")));
    assertEquals(9, e.byteOffset()); // the LF after "A: 1"
    assertMentions(e.reason(), "bare LF in header section");
    assertEquals("part 0 > headers", e.context());
  }

  @Test
  void truncatedMessageNamesTheOffsetAndPart() {
    byte[] input = ascii("--b\r\n\r\nfirst\r\n--b\r\nA: 1\r\n\r\nsecond, cut");
    MimeException e = assertThrows(MimeException.class,
        () -> MimeEvents.parse(input, Chunking.fixed(7), MultipartParser.builder("b")));
    assertEquals(input.length, e.byteOffset());
    assertMentions(e.reason(), "missing closing delimiter \"--b--\"");
    assertEquals("part 1 > body", e.context());
  }

  @Test
  void noDelimiterAtAll() {
    byte[] input = ascii("just text\r\n");
    MimeException e = assertThrows(MimeException.class,
        () -> MimeEvents.parse(input, Chunking.whole(), MultipartParser.builder("b")));
    assertMentions(e.reason(), "no delimiter line \"--b\" found");
    assertEquals(input.length, e.byteOffset());
  }

  @Test
  void garbageAfterBoundaryIsAnError() {
    byte[] input = ascii("--b\r\n\r\nx\r\n--bX\r\n\r\n--b--");
    MimeException e = assertThrows(MimeException.class,
        () -> MimeEvents.parse(input, Chunking.whole(), MultipartParser.builder("b")));
    assertEquals(13, e.byteOffset());
    assertMentions(e.getMessage(), "unexpected byte 0x58 'X' after boundary",
        "[delimiter after part 0]");
  }

  @Test
  void headerLineWithoutColon() {
    byte[] input = ascii("--b\r\nA: 1\r\nnonsense\r\n\r\nx\r\n--b--");
    MimeException e = assertThrows(MimeException.class,
        () -> MimeEvents.parse(input, Chunking.fixed(3), MultipartParser.builder("b")));
    assertEquals(11, e.byteOffset());
    assertMentions(e.reason(), "header line without ':'");
  }

  @Test
  void failureIsSticky() throws Exception {
    MultipartParser p = MultipartParser.builder("b").build();
    byte[] bad = ascii("--b\r\nnocolon\r\n\r\n");
    MimeException first = assertThrows(MimeException.class, () -> p.next(bad, 0, bad.length));
    MimeException again = assertThrows(MimeException.class, () -> p.next(bad, 0, 1));
    assertThat(again).isSameAs(first);
  }

  @Test
  void rejectsBadBoundaries() {
    assertMentions(assertThrows(MimeException.class,
        () -> MultipartParser.builder("").build()).reason(), "missing boundary");
    assertMentions(assertThrows(MimeException.class,
        () -> MultipartParser.builder("a\r\nb").build()).reason(), "invalid character 0x0D");
    assertMentions(assertThrows(MimeException.class,
        () -> MultipartParser.builder("trailing ").build()).reason(), "invalid character");
    assertThat(assertThrows(MimeException.class,
        () -> MultipartParser.builder("x".repeat(71)).build()).limitName())
        .isEqualTo("MimeLimits.maxBoundaryLength");
  }

  @Test
  void smallBodySlicesWhenAsked() throws Exception {
    MultipartParser p = MultipartParser.builder("b").build();
    byte[] in = ascii("--b\r\n\r\nabcdefgh\r\n--b--");
    int pos = 0;
    StringBuilder body = new StringBuilder();
    MultipartParser.Event e;
    while ((e = p.next(in, pos, in.length, 3)) != MultipartParser.Event.END) {
      pos += p.consumed();
      if (e == MultipartParser.Event.BODY) {
        assertThat(p.bodyLength()).isLessThanOrEqualTo(3);
        body.append(new String(p.bodyArray(), p.bodyOffset(), p.bodyLength()));
      }
    }
    assertThat(body).hasToString("abcdefgh");
  }

  @Test
  void readerOverVectorMatchesParser() throws Exception {
    byte[] input = body(Vectors.bytes("mime/rfc2046-5.1.1.eml"));
    try (MultipartReader r = MultipartReader.builder(new ByteArrayInputStream(input),
        "simple boundary").build()) {
      Part p0 = r.nextPart();
      Part p1 = r.nextPart();
      assertThat(new String(p1.body().readAllBytes())).startsWith("This is explicitly");
      assertThat(p0.body().read()).isEqualTo(-1); // skipped by moving on
      assertThat(r.nextPart()).isNull();
    }
  }
}
