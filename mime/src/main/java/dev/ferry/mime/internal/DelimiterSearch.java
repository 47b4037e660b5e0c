package dev.ferry.mime.internal;

import java.util.Arrays;

/**
 * Finds a fixed delimiter in a byte array with Horspool's skip-search: on bodies that do not
 * resemble the delimiter it looks at about one byte in {@code delimiter.length}, and confirms a
 * candidate with a vectorized {@link Arrays#equals}. Immutable; one instance per boundary.
 *
 * <p>Worst case: a body built to make every alignment a near-match costs one vectorized compare
 * per byte, i.e. O(n * m / vector width); m is at most 74 (70-character boundary + CRLF "--").
 */
public final class DelimiterSearch {
  private final byte[] delimiter;
  private final int[] skip = new int[256];
  private final byte lastByte;

  public DelimiterSearch(byte[] delimiter) {
    if (delimiter.length < 2) {
      throw new IllegalArgumentException("delimiter.length < 2: " + delimiter.length);
    }
    this.delimiter = delimiter.clone();
    int m = delimiter.length;
    Arrays.fill(skip, m);
    for (int j = 0; j < m - 1; j++) {
      skip[delimiter[j] & 0xff] = m - 1 - j;
    }
    lastByte = delimiter[m - 1];
  }

  public int length() {
    return delimiter.length;
  }

  public byte byteAt(int index) {
    return delimiter[index];
  }

  /** Returns the index of the first full delimiter in {@code in[start, end)}, or -1. */
  public int indexIn(byte[] in, int start, int end) {
    int last = delimiter.length - 1;
    int i = start + last;
    while (i < end) {
      byte b = in[i];
      if (b == lastByte && Arrays.equals(in, i - last, i, delimiter, 0, last)) {
        return i - last;
      }
      i += skip[b & 0xff];
    }
    return -1;
  }

  /**
   * Returns the start of the longest suffix of {@code in[start, end)} that is a proper prefix of
   * the delimiter (a match the next chunk may complete), or {@code end} if there is none. Call
   * only when {@link #indexIn} found no full match.
   */
  public int partialMatchStart(byte[] in, int start, int end) {
    byte first = delimiter[0];
    for (int i = Math.max(start, end - delimiter.length + 1); i < end; i++) {
      if (in[i] == first && Arrays.equals(in, i, end, delimiter, 0, end - i)) {
        return i;
      }
    }
    return end;
  }

  /**
   * Compares {@code in[start, end)} with the delimiter from {@code matched} on. Returns the new
   * matched length (up to the full length) or -1 on a mismatch.
   */
  public int continueMatch(int matched, byte[] in, int start, int end) {
    int n = Math.min(delimiter.length - matched, end - start);
    if (!Arrays.equals(in, start, start + n, delimiter, matched, matched + n)) {
      return -1;
    }
    return matched + n;
  }
}
