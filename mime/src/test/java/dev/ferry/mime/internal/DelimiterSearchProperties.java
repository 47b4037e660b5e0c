package dev.ferry.mime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** The sampling search finds exactly what a naive search finds, on hostile haystacks. */
class DelimiterSearchProperties {

  @Property(tries = 2000)
  void findsTheFirstOccurrenceLikeANaiveSearch(@ForAll("delimiters") String delimiter,
      @ForAll("haystacks") List<String> pieces, @ForAll @IntRange(max = 7) int startCut,
      @ForAll @IntRange(max = 7) int endCut) {
    byte[] d = delimiter.getBytes(StandardCharsets.ISO_8859_1);
    byte[] in = String.join("", pieces).replace("D", delimiter)
        .getBytes(StandardCharsets.ISO_8859_1);
    int start = Math.min(startCut, in.length);
    int end = Math.max(start, in.length - endCut);
    DelimiterSearch search = new DelimiterSearch(d);
    int expected = naiveIndexOf(in, start, end, d);
    assertThat(search.indexIn(in, start, end)).isEqualTo(expected);
    if (expected < 0) {
      assertThat(search.partialMatchStart(in, start, end))
          .isEqualTo(naivePartialStart(in, start, end, d));
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
  Arbitrary<List<String>> haystacks() {
    // "D" becomes the whole delimiter; the rest are its pieces and noise.
    return Arbitraries.of("D", "\r", "\n", "\r\n", "-", "--", "\r\n--", "a", "b", "ab", "=",
        "_", "0", "x", "----=_AxIs2", "\u00e9\u0000").list().ofMaxSize(120);
  }
}
