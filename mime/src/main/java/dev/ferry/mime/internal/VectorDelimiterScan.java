package dev.ferry.mime.internal;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector path of {@link DelimiterSearch}: a window of as many candidate starts as the CPU's
 * widest byte vector holds (64 with AVX-512, 32 with AVX2) is filtered at once by comparing the
 * delimiter's first byte at every start and its last byte {@code m - 1} further on; the rare
 * starts that pass both are confirmed eight bytes at a time. This examines every byte, but 64 at
 * a time, where the scalar sampling loop spends about a dozen instructions on each sample.
 *
 * <p>Uses the incubating {@code jdk.incubator.vector} module and is loaded only when that module
 * is present (the JVM started with {@code --add-modules jdk.incubator.vector}); see
 * {@link DelimiterSearch#VECTOR}.
 */
final class VectorDelimiterScan {
  private static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;

  /** After a candidate, the bytes checked in the slower loop before the fast one resumes. */
  private static final int DENSE_RUN = 1024;

  private VectorDelimiterScan() {}

  /** Returns how many starts one window filters, or 0 if the CPU has no useful vectors. */
  static int windowLength() {
    return SPECIES.length() >= 16 ? SPECIES.length() : 0;
  }

  /** Confirms the starts {@code window + k} for each bit {@code k} of {@code bits}, in order. */
  private static int confirm(DelimiterSearch search, byte[] in, int window, long bits) {
    for (; bits != 0; bits &= bits - 1) {
      int s = window + Long.numberOfTrailingZeros(bits);
      if (search.matchesAt(in, s)) {
        return s;
      }
    }
    return -1;
  }

  /**
   * Returns the first start in {@code in[start, end)} at which a whole delimiter lies, or -1.
   * Needs at least one window's worth of starts: {@code end - start >= windowLength() + m - 1}.
   * The last window is placed to end at the last possible start, overlapping the one before it;
   * starts seen twice did not match the first time, so every start is decided by a window.
   */
  static int indexIn(DelimiterSearch search, byte[] in, int start, int end) {
    final int width = SPECIES.length();
    final int lastOffset = search.length() - 1;
    final byte first = search.byteAt(0);
    final byte last = search.byteAt(lastOffset);
    final int lastWindow = end - lastOffset - width; // ends at the last start, end - m
    final int lastPair = lastWindow - width; // the last start of two whole windows
    int i = start;
    while ((i = nextHit(in, i, lastPair, lastOffset, first, last)) <= lastPair) {
      // Candidates here; a run of windows near them is checked in this loop, which calls
      // confirm (so is not unrolled) but does not return to nextHit for every window when a
      // body is full of near-misses. The masks are taken in this compiled loop; confirm has no
      // vector code, which would run unoptimized while a rarely called method waits to be
      // compiled.
      int quietFrom = i + DENSE_RUN;
      for (; i <= lastPair && i < quietFrom; i += 2 * width) {
        long a = candidates(in, i, lastOffset, first, last);
        long b = candidates(in, i + width, lastOffset, first, last);
        if ((a | b) != 0) {
          int s = confirm(search, in, i, a);
          if (s < 0) {
            s = confirm(search, in, i + width, b);
          }
          if (s >= 0) {
            return s;
          }
          quietFrom = i + DENSE_RUN;
        }
      }
    }
    for (; i < lastWindow + width; i += width) {
      i = Math.min(i, lastWindow);
      long a = candidates(in, i, lastOffset, first, last);
      if (a != 0) {
        int s = confirm(search, in, i, a);
        if (s >= 0) {
          return s;
        }
      }
    }
    return -1;
  }

  /**
   * Returns the first window start from {@code i} on, in steps of two windows, up to
   * {@code lastPair}, at which one of two windows has a candidate; or the first start past
   * {@code lastPair}. No call in the loop, so the compiler unrolls it.
   */
  private static int nextHit(byte[] in, int i, int lastPair, int lastOffset, byte first,
      byte last) {
    final int width = SPECIES.length();
    for (; i <= lastPair; i += 2 * width) {
      if ((candidates(in, i, lastOffset, first, last)
          | candidates(in, i + width, lastOffset, first, last)) != 0) {
        return i;
      }
    }
    return i;
  }

  /**
   * The starts {@code i + k} whose first and last bytes are the delimiter's, as bits: the two
   * windows are XORed with those bytes and ORed, so a lane is zero where both match, and
   * compared once with zero (two compares into masks and an AND of the masks took about a fifth
   * longer per window here, AVX-512 on Zen 4). Bits, not a {@code VectorMask}: where HotSpot
   * does not inline this method (seen in the tail loop), a mask returned is an object
   * allocated per call, a {@code long} is not.
   */
  private static long candidates(byte[] in, int i, int lastOffset, byte first, byte last) {
    return ByteVector.fromArray(SPECIES, in, i).lanewise(VectorOperators.XOR, first)
        .or(ByteVector.fromArray(SPECIES, in, i + lastOffset).lanewise(VectorOperators.XOR, last))
        .eq((byte) 0).toLong();
  }

  /**
   * {@link DelimiterSearch#partialMatchStart} with one vector compare: the positions of the
   * delimiter's first byte among the last {@code m - 1} bytes, tried from the earliest (the
   * longest suffix). Needs {@code end >= windowLength()} and {@code m - 1 <= windowLength()}.
   */
  static int partialMatchStart(DelimiterSearch search, byte[] in, int start, int end) {
    int from = Math.max(start, end - search.length() + 1);
    if (from >= end) {
      return end; // (a shift by the full width would keep every bit)
    }
    int base = end - SPECIES.length();
    long bits = ByteVector.fromArray(SPECIES, in, base).eq(search.byteAt(0)).toLong()
        >>> (from - base);
    for (; bits != 0; bits &= bits - 1) {
      int i = from + Long.numberOfTrailingZeros(bits);
      if (search.isPrefixAt(in, i, end)) {
        return i;
      }
    }
    return end;
  }
}
