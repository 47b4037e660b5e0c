package dev.ferry.mime;

import static dev.ferry.testkit.DecodeAssertions.assertMentions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.testkit.Chunking;
import dev.ferry.testkit.ThrottledInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A part may have headers and no body at all (RFC 2046: {@code body-part := MIME-part-headers
 * [CRLF *OCTET]}): the delimiter then follows the header section at once, and it must end the
 * part, not become its body. Each case runs through the push parser at every split point and
 * through the pull reader in every standard chunking, strict and lenient, and with bare LF.
 */
class EmptyBodyTest {

  /** A message, and its parts rendered as {@code headers | body}. */
  record Case(String name, String crlf, List<String> parts) {
    @Override
    public String toString() {
      return name;
    }

    byte[] bytes(boolean bareLf) {
      return ascii(bareLf ? crlf.replace("\r\n", "\n") : crlf);
    }
  }

  static final List<Case> CASES = List.of(
      // the blank line ends the headers, and its CRLF is the delimiter's
      new Case("blank line, then the next delimiter",
          "--b\r\nContent-Type: image/gif\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhello"
              + "\r\n--b--\r\n",
          List.of("[Content-Type: image/gif] | ", "[Content-Type: text/plain] | hello")),
      new Case("blank line, then the closing delimiter",
          "--b\r\nA: 1\r\n\r\nx\r\n--b\r\nContent-Type: image/gif\r\n\r\n--b--",
          List.of("[A: 1] | x", "[Content-Type: image/gif] | ")),
      // no blank line: the delimiter claims the last header line's CRLF (RFC 2046 5.1.1)
      new Case("no blank line, then the next delimiter",
          "--b\r\nContent-Type: image/gif\r\n--b  \r\n\r\nx\r\n--b--",
          List.of("[Content-Type: image/gif] | ", "[] | x")),
      new Case("no blank line, then the closing delimiter",
          "preamble\r\n--b\r\nA: 1\r\nB: 2\r\n--b--\r\nepilogue",
          List.of("[A: 1, B: 2] | ")),
      new Case("no headers at all, both forms",
          "--b\r\n\r\n--b\r\n--b\r\n\r\n\r\n--b--",
          List.of("[] | ", "[] | ", "[] | ")),
      new Case("folded header, then the delimiter",
          "--b\r\nContent-Type: image/gif;\r\n name=x\r\n\r\n--b--",
          List.of("[Content-Type: image/gif; name=x] | ")),
      // bodies that start like a delimiter but are not one stay body, byte for byte
      new Case("bodies that start with dashes",
          "--b\r\nA: 1\r\n\r\n-\r\n--b\r\nA: 2\r\n\r\n--\r\n--b\r\nA: 3\r\n\r\n--c--\r\n--b--",
          List.of("[A: 1] | -", "[A: 2] | --", "[A: 3] | --c--")),
      new Case("a body that is the boundary's prefix, longer boundary",
          "--bound\r\nA: 1\r\n\r\n--boun\r\n--bound\r\nA: 2\r\n\r\n--bound--",
          List.of("[A: 1] | --boun", "[A: 2] | ")));

  static Stream<Arguments> casesAndModes() {
    List<Arguments> all = new ArrayList<>();
    for (Case c : CASES) {
      all.add(Arguments.of(c, false, false));
      all.add(Arguments.of(c, false, true));
      all.add(Arguments.of(c, true, true));
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0}, bare LF {1}, lenient {2}")
  @MethodSource("casesAndModes")
  void pushParserEndsThePartAtEverySplit(Case c, boolean bareLf, boolean lenient)
      throws Exception {
    byte[] input = c.bytes(bareLf);
    for (Chunking chunking : Chunking.everySplit(input.length)) {
      assertThat(render(MimeEvents.parse(input, chunking, builder(c, lenient))))
          .as(chunking.toString()).isEqualTo(c.parts());
    }
    for (Chunking chunking : Chunking.standard()) {
      assertThat(render(MimeEvents.parse(input, chunking, builder(c, lenient))))
          .as(chunking.toString()).isEqualTo(c.parts());
    }
  }

  @ParameterizedTest(name = "{0}, bare LF {1}, lenient {2}")
  @MethodSource("casesAndModes")
  void pullReaderEndsThePartInEveryChunkingAndReadSize(Case c, boolean bareLf, boolean lenient)
      throws Exception {
    byte[] input = c.bytes(bareLf);
    for (Chunking chunking : Chunking.standard()) {
      for (int readSize : new int[] {1, 7, 600, 70_000, -1}) {
        assertThat(readAll(input, chunking, c, lenient, readSize))
            .as(chunking + ", reads of " + readSize).isEqualTo(c.parts());
      }
    }
  }

  @Test
  void nestedMultipartWithEmptyBodiesThroughTheReader() throws Exception {
    String inner = "--in\r\nContent-Type: image/gif\r\n\r\n--in\r\nA: 1\r\n--in\r\n\r\ny\r\n"
        + "--in--";
    byte[] outer = ascii("--out\r\nContent-Type: multipart/mixed; boundary=in\r\n\r\n" + inner
        + "\r\n--out\r\nContent-Type: text/plain\r\n\r\n--out--\r\n");
    for (Chunking chunking : Chunking.standard()) {
      List<String> seen = new ArrayList<>();
      try (MultipartReader r = MultipartReader.builder(
          new ThrottledInputStream(outer, chunking), "out").build()) {
        Part first = r.nextPart();
        try (MultipartReader nested = MultipartReader.open(first.body(),
            first.headers().contentType())) {
          for (Part p; (p = nested.nextPart()) != null; ) {
            seen.add(render(p.headers(), p.body().readAllBytes()));
          }
        }
        Part second = r.nextPart();
        seen.add(render(second.headers(), second.body().readAllBytes()));
        assertThat(r.nextPart()).isNull();
      }
      assertThat(seen).as(chunking.toString()).containsExactly("[Content-Type: image/gif] | ",
          "[A: 1] | ", "[] | y", "[Content-Type: text/plain] | ");
    }
  }

  @Test
  void aHeaderLineThatStartsWithTheDashBoundaryIsADelimiterLine() {
    byte[] input = ascii("--b\r\nA: 1\r\n--bogus: 2\r\n\r\nx\r\n--b--");
    MimeException e = assertThrows(MimeException.class,
        () -> MimeEvents.parse(input, Chunking.fixed(2), MultipartParser.builder("b")));
    assertMentions(e.reason(), "unexpected byte 0x6F 'o' after boundary");
    assertEquals(14, e.byteOffset());
    assertEquals("delimiter after part 0", e.context());
  }

  @Test
  void aHeaderSectionCutInsideAPossibleDelimiterIsTruncated() {
    byte[] input = ascii("--b\r\nA: 1\r\n--");
    MimeException e = assertThrows(MimeException.class,
        () -> MimeEvents.parse(input, Chunking.fixed(1), MultipartParser.builder("b")));
    assertMentions(e.reason(), "missing closing delimiter");
    assertEquals(input.length, e.byteOffset());
  }

  @Test
  void theEmptyBodyCountsNothingAgainstMaxPartBytes() throws Exception {
    byte[] input = ascii("--b\r\nA: 1\r\n\r\n--\r\n--b\r\nA: 2\r\n\r\n--b--");
    MimeLimits two = MimeLimits.builder().maxPartBytes(2).build();
    assertThat(render(MimeEvents.parse(input, Chunking.fixed(1),
        MultipartParser.builder("b").limits(two)))).containsExactly("[A: 1] | --", "[A: 2] | ");
    MimeLimits one = MimeLimits.builder().maxPartBytes(1).build();
    MimeException e = assertThrows(MimeException.class, () -> MimeEvents.parse(input,
        Chunking.fixed(1), MultipartParser.builder("b").limits(one)));
    assertEquals("MimeLimits.maxPartBytes", e.limitName());
  }

  private static MultipartParser.Builder builder(Case c, boolean lenient) {
    return MultipartParser.builder(boundary(c)).lenientLineEnds(lenient);
  }

  private static String boundary(Case c) {
    int start = c.crlf().indexOf("--") + 2;
    return c.crlf().substring(start, c.crlf().indexOf('\r', start));
  }

  private static List<String> readAll(byte[] input, Chunking chunking, Case c, boolean lenient,
      int readSize) throws IOException {
    List<String> parts = new ArrayList<>();
    try (MultipartReader r = MultipartReader.builder(new ThrottledInputStream(input, chunking),
        boundary(c)).lenientLineEnds(lenient).build()) {
      for (Part p; (p = r.nextPart()) != null; ) {
        parts.add(render(p.headers(), read(p.body(), readSize)));
      }
    }
    return parts;
  }

  private static byte[] read(InputStream body, int readSize) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if (readSize < 0) {
      body.transferTo(out);
    } else {
      byte[] buf = new byte[readSize];
      for (int n; (n = body.read(buf, 0, readSize)) >= 0; ) {
        out.write(buf, 0, n);
      }
    }
    return out.toByteArray();
  }

  private static List<String> render(List<MimeEvents.ParsedPart> parts) {
    return parts.stream().map(p -> render(p.headers(), p.body())).toList();
  }

  private static String render(MimeHeaders headers, byte[] body) {
    List<String> fields = headers.fields().stream().map(f -> f.name() + ": " + f.value())
        .toList();
    return fields + " | " + new String(body, StandardCharsets.ISO_8859_1);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void readerOverAByteArrayStream() throws Exception {
    // the simplest use, as a user would write it
    byte[] input = ascii("--b\r\nContent-Type: image/gif\r\n\r\n--b\r\n\r\nx\r\n--b--");
    try (MultipartReader r = MultipartReader.builder(new ByteArrayInputStream(input), "b")
        .build()) {
      assertThat(r.nextPart().body().readAllBytes()).isEmpty();
      assertThat(r.nextPart().body().readAllBytes()).isEqualTo(ascii("x"));
      assertThat(r.nextPart()).isNull();
    }
  }
}
