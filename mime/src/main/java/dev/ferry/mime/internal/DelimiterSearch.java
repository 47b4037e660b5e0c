package dev.ferry.mime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Optional;

/**
 * Finds a fixed delimiter (CRLF "--" boundary) in a byte array by sampling: one two-byte sample
 * every {@code m - 1} bytes, where {@code m} is the delimiter's length. Any occurrence spans
 * {@code m - 1} consecutive byte pairs, so it contains exactly one sampled pair; a sample whose
 * pair is not one of the delimiter's pairs rules out every start it could belong to.
 *
 * <p>Why not Horspool: its loop {@code i += skip[in[i]]} is a chain of dependent loads (about
 * 4 ns a step), while samples here are independent, so the CPU overlaps them (four per
 * iteration) and bodies that do not resemble the delimiter cost a fraction of a copy.
 *
 * <p>The pair table (4 KiB; an 11-bit one measured slower, its collisions sending samples down
 * the slow path) maps a 12-bit hash of a byte pair to the offset at which that pair occurs in the
 * delimiter (plus one), 0 for none, or -1 when two offsets share the hash. A sample that hits
 * names its one candidate start, which is rejected by its last byte first, then compared eight
 * bytes at a time: a near-miss of the delimiter costs a few loads. With -1, every start the
 * sample covers is tried. Immutable; one instance per boundary.
 *
 * <pre>
 *   in:   ... x x x [\r \n - - b o u n d a r y] x x ...
 *   samples:   ^               ^               ^        every m - 1 bytes: pair (p, p + 1)
 * </pre>
 */
public final class DelimiterSearch {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle SHORT =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int TABLE_BITS = 12;
  /** The length of the pair table a search of the scalar path uses. */
  public static final int TABLE_BYTES = 1 << TABLE_BITS;

  /**
   * True when the vector path is on: the JVM has the {@code jdk.incubator.vector} module (it was
   * started with {@code --add-modules jdk.incubator.vector}), the CPU has byte vectors of 16 lanes
   * or more, and the system property {@code ferry.mime.vector} is not {@code false}.
   */
  public static final boolean VECTOR = vectorAvailable();

  private final byte[] delimiter;
  private final int m;
  /** The pair table, or null on the vector path, which does not sample (4 KiB less a message). */
  private final byte[] pairs;
  private final long[] words; // the delimiter, eight bytes a word, little-endian
  private final byte firstByte;
  private final byte lastByte;

  public DelimiterSearch(byte[] delimiter) {
    this(delimiter, null);
  }

  /**
   * A search whose pair table (scalar path only) is filled into {@code table} of
   * {@link #TABLE_BYTES}, whatever it held: a table lent by a pool, for a reader that gives it
   * back when it no longer searches. Null: a new one.
   */
  public DelimiterSearch(byte[] delimiter, byte[] table) {
    if (delimiter.length < 3 || delimiter.length > 120) {
      throw new IllegalArgumentException("delimiter.length out of [3, 120]: " + delimiter.length);
    }
    this.delimiter = delimiter.clone();
    this.m = delimiter.length;
    this.firstByte = delimiter[0];
    this.lastByte = delimiter[m - 1];
    this.words = new long[m / 8];
    for (int w = 0; w < words.length; w++) {
      words[w] = (long) LONG.get(delimiter, w * 8);
    }
    this.pairs = VECTOR ? null : pairTable(delimiter, table);
  }

  private static byte[] pairTable(byte[] delimiter, byte[] lent) {
    byte[] table;
    if (lent == null) {
      table = new byte[TABLE_BYTES];
    } else {
      table = lent;
      Arrays.fill(table, (byte) 0);
    }
    for (int t = 0; t < delimiter.length - 1; t++) {
      int h = hash(delimiter[t], delimiter[t + 1]);
      table[h] = table[h] == 0 ? (byte) (t + 1) : (byte) -1;
    }
    return table;
  }

  /** A 12-bit hash of a byte pair: the first byte shifted over the second. */
  private static int hash(byte b0, byte b1) {
    return (b0 & 0xff) << 4 ^ (b1 & 0xff);
  }

  public int length() {
    return m;
  }

  public byte byteAt(int index) {
    return delimiter[index];
  }

  /** The hash of the pair at {@code in[p]}, {@code in[p + 1]}, read as one 16-bit load. */
  private static int pairAt(byte[] in, int p) {
    int v = (short) SHORT.get(in, p);
    return (v & 0xff) << 4 ^ (v >>> 8 & 0xff);
  }

  private static boolean vectorAvailable() {
    Optional<Module> vector = ModuleLayer.boot().findModule("jdk.incubator.vector");
    if (!Boolean.parseBoolean(System.getProperty("ferry.mime.vector", "true"))
        || vector.isEmpty()) {
      return false;
    }
    try {
      // module-info does not require the incubator (see there): this module reads it from now
      DelimiterSearch.class.getModule().addReads(vector.get());
      return VectorDelimiterScan.windowLength() > 0;
    } catch (LinkageError e) { // present but not readable from here: stay scalar
      return false;
    }
  }

  /** Returns the index of the first full delimiter in {@code in[start, end)}, or -1. */
  public int indexIn(byte[] in, int start, int end) {
    if (pairs == null) {
      return end - start >= VectorDelimiterScan.windowLength() + m - 1
          ? VectorDelimiterScan.indexIn(this, in, start, end)
          : shortIndexIn(in, start, end);
    }
    return scalarIndexIn(in, start, end);
  }

  /** For a range too short for one vector window: each start's first and last byte. */
  private int shortIndexIn(byte[] in, int start, int end) {
    for (int s = start; s <= end - m; s++) {
      if (in[s] == firstByte && matchesAt(in, s)) {
        return s;
      }
    }
    return -1;
  }

  /** The scalar search: what {@link #indexIn} does without the vector path. */
  int scalarIndexIn(byte[] in, int start, int end) {
    final byte[] table = pairs != null ? pairs : pairTable(delimiter, null);
    final int stride = m - 1;
    final int last = end - 2; // the last position a pair can start at
    final int lastGroup = last - 3 * stride;
    int p = start + m - 2; // the first sample covers the starts [start, start + m - 2]
    // Four independent samples per iteration; on ordinary bodies none of them hits.
    for (; p <= lastGroup; p += 4 * stride) {
      int a = table[pairAt(in, p)];
      int b = table[pairAt(in, p + stride)];
      int c = table[pairAt(in, p + 2 * stride)];
      int d = table[pairAt(in, p + 3 * stride)];
      if ((a | b | c | d) != 0) {
        int s = resolveGroup(in, start, end, p, a, b, c, d);
        if (s >= 0) {
          return s;
        }
      }
    }
    for (; p <= last; p += stride) {
      int s = resolve(in, start, end, p, table[hash(in[p], in[p + 1])]);
      if (s >= 0) {
        return s;
      }
    }
    return -1;
  }

  /** Resolves the four samples of a group that hit, in order, from their table entries. */
  private int resolveGroup(byte[] in, int start, int end, int p, int a, int b, int c, int d) {
    int stride = m - 1;
    int s = resolve(in, start, end, p, a);
    if (s < 0) {
      s = resolve(in, start, end, p + stride, b);
    }
    if (s < 0) {
      s = resolve(in, start, end, p + 2 * stride, c);
    }
    if (s < 0) {
      s = resolve(in, start, end, p + 3 * stride, d);
    }
    return s;
  }

  /** Checks the starts the sample at {@code p} names through its table entry {@code hit}. */
  private int resolve(byte[] in, int start, int end, int p, int hit) {
    if (hit == 0) {
      return -1;
    }
    return hit > 0 ? candidate(in, start, end, p - (hit - 1)) : everyStart(in, start, end, p);
  }

  /**
   * Confirms a candidate start: its last byte first (a near-miss that differs at the end costs
   * one load), then eight bytes at a time from the front, so a near-miss that differs early
   * costs one more load rather than a library call.
   */
  private int candidate(byte[] in, int start, int end, int s) {
    if (s < start || s + m > end || in[s + m - 1] != lastByte) {
      return -1;
    }
    int i = 0;
    for (; i + 8 <= m; i += 8) {
      if ((long) LONG.get(in, s + i) != words[i >> 3]) {
        return -1;
      }
    }
    for (; i < m; i++) {
      if (in[s + i] != delimiter[i]) {
        return -1;
      }
    }
    return s;
  }

  /** Returns true if a whole delimiter starts at {@code s} ({@code in} holds it all). */
  boolean matchesAt(byte[] in, int s) {
    return candidate(in, s, s + m, s) >= 0;
  }

  /** Tries every start the sample at {@code p} covers, in order. */
  private int everyStart(byte[] in, int start, int end, int p) {
    for (int s = Math.max(start, p - m + 2); s <= p; s++) {
      if (candidate(in, start, end, s) >= 0) {
        return s;
      }
    }
    return -1;
  }

  /**
   * Returns the start of the longest suffix of {@code in[start, end)} that is a proper prefix of
   * the delimiter (a match the next chunk may complete), or {@code end} if there is none. Call
   * only when {@link #indexIn} found no full match.
   */
  public int partialMatchStart(byte[] in, int start, int end) {
    if (pairs == null && end >= VectorDelimiterScan.windowLength()
        && m - 1 <= VectorDelimiterScan.windowLength()) {
      return VectorDelimiterScan.partialMatchStart(this, in, start, end);
    }
    return scalarPartialMatchStart(in, start, end);
  }

  /** {@link #partialMatchStart} without the vector path. */
  int scalarPartialMatchStart(byte[] in, int start, int end) {
    for (int i = Math.max(start, end - m + 1); i < end; i++) {
      if (in[i] == firstByte && Arrays.equals(in, i, end, delimiter, 0, end - i)) {
        return i;
      }
    }
    return end;
  }

  /** Returns true if {@code in[i, end)} is a prefix of the delimiter. */
  boolean isPrefixAt(byte[] in, int i, int end) {
    return Arrays.equals(in, i, end, delimiter, 0, end - i);
  }

  /**
   * Compares {@code in[start, end)} with the delimiter from {@code matched} on. Returns the new
   * matched length (up to the full length) or -1 on a mismatch.
   */
  public int continueMatch(int matched, byte[] in, int start, int end) {
    int n = Math.min(m - matched, end - start);
    if (!Arrays.equals(in, start, start + n, delimiter, matched, matched + n)) {
      return -1;
    }
    return matched + n;
  }
}
