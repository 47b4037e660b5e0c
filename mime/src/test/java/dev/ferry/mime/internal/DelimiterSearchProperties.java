package dev.ferry.mime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The sampling search finds exactly what a naive search finds, on hostile haystacks. */
class DelimiterSearchProperties {

  @Property(tries = 2000)
  void findsTheFirstOccurrenceLikeANaiveSearch(@ForAll("delimiters") String delimiter,
      @ForAll("haystacks") List<String> pieces, @ForAll @IntRange(max = 7) int startCut,
      @ForAll @IntRange(max = 7) int endCut) {
    checkAgainstNaiveSearch(delimiter, pieces, startCut, endCut);
  }

  /**
   * Long haystacks take the vector path when it is on (as in this build's first test run); it
   * must agree with the scalar search and the naive one wherever the delimiter or its
   * near-misses fall, window edges and the last, overlapping window included.
   */
  @Property(tries = 1000)
  void vectorPathFindsWhatTheScalarSearchFinds(@ForAll("delimiters") String delimiter,
      @ForAll("longHaystacks") List<String> pieces, @ForAll @IntRange(max = 70) int startCut,
      @ForAll @IntRange(max = 70) int endCut) {
    checkAgainstNaiveSearch(delimiter, pieces, startCut, endCut);
  }

  /** "D" in the pieces becomes the delimiter; the range is cut at both ends. */
  private static void checkAgainstNaiveSearch(String delimiter, List<String> pieces,
      int startCut, int endCut) {
    byte[] d = delimiter.getBytes(StandardCharsets.ISO_8859_1);
    byte[] in = String.join("", pieces).replace("D", delimiter)
        .getBytes(StandardCharsets.ISO_8859_1);
    int start = Math.min(startCut, in.length);
    int end = Math.max(start, in.length - endCut);
    DelimiterSearch search = new DelimiterSearch(d);
    int expected = naiveIndexOf(in, start, end, d);
    assertThat(search.indexIn(in, start, end)).isEqualTo(expected);
    assertThat(search.scalarIndexIn(in, start, end)).isEqualTo(expected);
    int partial = naivePartialStart(in, start, end, d);
    assertThat(search.partialMatchStart(in, start, end)).isEqualTo(partial);
    assertThat(search.scalarPartialMatchStart(in, start, end)).isEqualTo(partial);
  }

  @Test
  void partialMatchAtTheEndOfALongArray() {
    byte[] in = ("x".repeat(100) + "\r\n--ab").getBytes(StandardCharsets.ISO_8859_1);
    DelimiterSearch search = new DelimiterSearch("\r\n--abc".getBytes(StandardCharsets.US_ASCII));
    assertThat(search.partialMatchStart(in, 0, in.length)).isEqualTo(100);
    assertThat(search.partialMatchStart(in, 101, in.length)).isEqualTo(in.length);
    assertThat(search.partialMatchStart(in, in.length, in.length)).isEqualTo(in.length);
    assertThat(search.partialMatchStart(in, 0, 100)).isEqualTo(100);
  }

  /** The build runs these tests twice: with the vector module, and without it. */
  @Test
  void vectorPathIsOnExactlyWhenTheModuleIsPresent() {
    boolean present = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
    assertThat(DelimiterSearch.VECTOR).isEqualTo(present);
    String expected = System.getProperty("ferry.mime.expectVector");
    if (expected != null) {
      assertThat(DelimiterSearch.VECTOR).isEqualTo(Boolean.parseBoolean(expected));
    }
  }

  static int naiveIndexOf(byte[] in, int start, int end, byte[] d) {
    outer:
    for (int s = start; s + d.length <= end; s++) {
      for (int j = 0; j < d.length; j++) {
        if (in[s + j] != d[j]) {
          continue outer;
        }
      }
      return s;
    }
    return -1;
  }

  static int naivePartialStart(byte[] in, int start, int end, byte[] d) {
    outer:
    for (int s = Math.max(start, end - d.length + 1); s < end; s++) {
      for (int j = 0; s + j < end; j++) {
        if (in[s + j] != d[j]) {
          continue outer;
        }
      }
      return s;
    }
    return end;
  }

  @Provide
  Arbitrary<String> delimiters() {
    Arbitrary<String> boundary = Arbitraries.oneOf(
        Arbitraries.strings().withChars("ab-=_0").ofMinLength(1).ofMaxLength(12),
        Arbitraries.strings().alpha().numeric().ofMinLength(1).ofMaxLength(70),
        Arbitraries.of("----=_AxIs2_Def_boundary_=42214532", "aaaaaaaa", "--", "b"));
    return Arbitraries.oneOf(boundary.map(b -> "\r\n--" + b), boundary.map(b -> "\n--" + b));
  }

  @Provide
  Arbitrary<List<String>> longHaystacks() {
    Arbitrary<String> noise = Arbitraries.strings().withCharRange('\u0000', '\u00ff')
        .ofMinLength(1).ofMaxLength(90);
    Arbitrary<String> piece = Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just("D")),
        Tuple.of(6, Arbitraries.of("\r", "\n", "\r\n--", "a", "b", "=", "0")),
        Tuple.of(4, noise));
    return piece.list().ofMinSize(20).ofMaxSize(200)
        .filter(l -> l.stream().mapToInt(String::length).sum() >= 300 || l.contains("D"));
  }

  @Provide
  Arbitrary<List<String>> haystacks() {
    // "D" becomes the whole delimiter; the rest are its pieces and noise.
    return Arbitraries.of("D", "\r", "\n", "\r\n", "-", "--", "\r\n--", "a", "b", "ab", "=",
        "_", "0", "x", "----=_AxIs2", "\u00e9\u0000").list().ofMaxSize(120);
  }
}
