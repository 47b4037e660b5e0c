package dev.ferry.mime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.testkit.Chunking;
import dev.ferry.testkit.ThrottledInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Writer then parser: whatever the parts, boundary and chunking, the parts come back equal. */
class MultipartRoundTripProperties {

  record TestPart(MimeHeaders headers, byte[] body) {}

  @Property(tries = 300)
  void pushParserGetsBackWhatTheWriterWrote(@ForAll("boundaries") String boundary,
      @ForAll("parts") List<TestPart> parts, @ForAll @IntRange(min = 1, max = 4000) int maxChunk,
      @ForAll long seed, @ForAll boolean lenient) throws IOException {
    assumeNoDelimiterInBodies(boundary, parts, lenient);
    byte[] message = write(boundary, parts);
    var parsed = MimeEvents.parse(message, Chunking.random(seed, maxChunk),
        MultipartParser.builder(boundary).lenientLineEnds(lenient));
    assertThat(parsed).hasSameSizeAs(parts);
    for (int i = 0; i < parts.size(); i++) {
      assertThat(parsed.get(i).headers()).isEqualTo(parts.get(i).headers());
      assertThat(parsed.get(i).body()).isEqualTo(parts.get(i).body());
    }
  }

  @Property(tries = 300)
  void pullReaderGetsBackWhatTheWriterWrote(@ForAll("boundaries") String boundary,
      @ForAll("parts") List<TestPart> parts, @ForAll @IntRange(min = 1, max = 20000) int maxChunk,
      @ForAll @IntRange(min = 1, max = 70000) int readSize, @ForAll long seed)
      throws IOException {
    assumeNoDelimiterInBodies(boundary, parts, false);
    byte[] message = write(boundary, parts);
    List<TestPart> read = new ArrayList<>();
    try (MultipartReader r = MultipartReader.builder(
        new ThrottledInputStream(message, Chunking.random(seed, maxChunk)), boundary).build()) {
      for (Part p; (p = r.nextPart()) != null; ) {
        read.add(new TestPart(p.headers(), readAll(p, readSize, seed)));
      }
    }
    assertThat(read).hasSameSizeAs(parts);
    for (int i = 0; i < parts.size(); i++) {
      assertThat(read.get(i).headers()).isEqualTo(parts.get(i).headers());
      assertThat(read.get(i).body()).isEqualTo(parts.get(i).body());
    }
  }

  /** Reads a body with reads of varying size, and sometimes transferTo, to cover every path. */
  private static byte[] readAll(Part p, int readSize, long seed) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    if ((seed & 3) == 0) {
      p.body().transferTo(out);
      return out.toByteArray();
    }
    byte[] buf = new byte[readSize + 7];
    java.util.Random r = new java.util.Random(seed);
    for (int n; (n = p.body().read(buf, 3, 1 + r.nextInt(readSize))) >= 0; ) {
      out.write(buf, 3, n);
    }
    return out.toByteArray();
  }

  static byte[] write(String boundary, List<TestPart> parts) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MultipartWriter w = new MultipartWriter(out, boundary);
    for (TestPart p : parts) {
      w.writePart(p.headers(), p.body());
    }
    w.close();
    return out.toByteArray();
  }

  /**
   * Keeps cases where each body, followed by its delimiter, shows the delimiter only there, and
   * does not start with the dash-boundary: a body starts a line, and a line that starts with
   * it is a delimiter line (RFC 2046), which ends an empty body.
   */
  private static void assumeNoDelimiterInBodies(String boundary, List<TestPart> parts,
      boolean lenient) {
    byte[] crlfDelimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
    byte[] delimiter = lenient ? Arrays.copyOfRange(crlfDelimiter, 1, crlfDelimiter.length)
        : crlfDelimiter;
    byte[] dashBoundary = Arrays.copyOfRange(crlfDelimiter, 2, crlfDelimiter.length);
    for (TestPart p : parts) {
      byte[] framed = Arrays.copyOf(p.body(), p.body().length + crlfDelimiter.length);
      System.arraycopy(crlfDelimiter, 0, framed, p.body().length, crlfDelimiter.length);
      Assume.that(indexOf(framed, delimiter) == framed.length - delimiter.length);
      Assume.that(p.body().length < dashBoundary.length || !Arrays.equals(p.body(), 0,
          dashBoundary.length, dashBoundary, 0, dashBoundary.length));
    }
  }

  static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Provide
  Arbitrary<String> boundaries() {
    Arbitrary<String> bchars = Arbitraries.strings().withChars(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ")
        .ofMinLength(1).ofMaxLength(70);
    return Arbitraries.oneOf(bchars, Arbitraries.of("b", "-", "--", "==", "MIMEBoundary_x"))
        .filter(s -> !s.endsWith(" "));
  }

  @Provide
  Arbitrary<List<TestPart>> parts() {
    Arbitrary<MimeHeaders> headers = Combinators.combine(
        Arbitraries.of("Content-Type", "Content-ID", "X-Custom", "content-transfer-encoding",
            "A").list().ofMaxSize(4),
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(60).list().ofSize(4))
        .as((names, values) -> {
          MimeHeaders.Builder b = MimeHeaders.builder();
          for (int i = 0; i < names.size(); i++) {
            // a Content-Type is parsed as it is read: any value, in a valid one
            b.add(names.get(i), names.get(i).equals("Content-Type")
                ? MediaType.of("text", "plain", "x", values.get(i)).toString() : values.get(i));
          }
          return b.build();
        });
    Arbitrary<byte[]> nasty = Arbitraries.bytes().array(byte[].class).ofMaxSize(3000);
    Arbitrary<byte[]> nearDelimiter = Arbitraries.of("\r", "\n", "-", "--", "\r\n", "\r\n-",
        "\r\n--", "b", "x", "MIME", "Boundary_", " ", "=").list().ofMaxSize(300)
        .map(l -> String.join("", l).getBytes(StandardCharsets.ISO_8859_1));
    Arbitrary<byte[]> bodies = Arbitraries.oneOf(nasty, nearDelimiter,
        Arbitraries.just(new byte[0]));
    return Combinators.combine(headers, bodies).as(TestPart::new).list().ofMinSize(1)
        .ofMaxSize(8);
  }
}
