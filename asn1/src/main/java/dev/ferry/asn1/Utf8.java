package dev.ferry.asn1;

import dev.ferry.bytes.ByteString;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 decoding and encoded-length counting, without intermediate arrays. */
final class Utf8 {
  private Utf8() {}

  /**
   * Decodes {@code bytes}, which start at absolute offset {@code offset}. The fast path is the
   * JDK's replacing decoder; only if it produced U+FFFD does a strict decoder look for the error,
   * so valid input is decoded once.
   */
  static String decode(ByteString bytes, long offset) throws BerException {
    String s = bytes.utf8();
    if (s.indexOf('\uFFFD') < 0) {
      return s;
    }
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = bytes.asByteBuffer();
    CoderResult r = decoder.decode(in, CharBuffer.allocate(s.length() + 1), true);
    if (r.isError()) {
      throw new BerException("malformed UTF-8 (expected: a valid UTF-8 sequence)",
          offset + in.position(), null);
    }
    return s;
  }

  /** Returns the length of {@code s} in UTF-8, as {@link String#getBytes} would encode it. */
  static int encodedLength(String s) {
    int n = s.length();
    int bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        continue;
      }
      if (c < 0x800) {
        bytes += 1;
      } else if (Character.isHighSurrogate(c) && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 2; // four bytes for two chars
        i++;
      } else if (Character.isSurrogate(c)) {
        continue; // an unpaired surrogate becomes '?'
      } else {
        bytes += 2;
      }
    }
    return bytes;
  }

  /** Returns true if every char of {@code s} is ASCII. */
  static boolean isAscii(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }
}
