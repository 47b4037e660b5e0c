package dev.ferry.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A way of cutting input into chunks, to prove that a push decoder gives the same result however
 * its input arrives.
 */
public abstract class Chunking {
  private final String name;

  private Chunking(String name) {
    this.name = name;
  }

  /** Returns the chunk sizes for an input of {@code length} bytes; they add up to it. */
  public abstract int[] sizes(int length);

  /** Cuts {@code input} into chunks. */
  public final List<byte[]> split(byte[] input) {
    List<byte[]> out = new ArrayList<>();
    int pos = 0;
    for (int size : sizes(input.length)) {
      byte[] chunk = new byte[size];
      System.arraycopy(input, pos, chunk, 0, size);
      out.add(chunk);
      pos += size;
    }
    return out;
  }

  /** Chunks of {@code size} bytes, the last one shorter. */
  public static Chunking fixed(int size) {
    return new Chunking("fixed " + size) {
      @Override
      public int[] sizes(int length) {
        int n = Math.max(1, (length + size - 1) / size);
        int[] sizes = new int[n];
        for (int i = 0; i < n; i++) {
          sizes[i] = Math.min(size, length - i * size);
        }
        return sizes;
      }
    };
  }

  /** The whole input in one chunk. */
  public static Chunking whole() {
    return new Chunking("whole") {
      @Override
      public int[] sizes(int length) {
        return new int[] {length};
      }
    };
  }

  /** Two chunks, cut at {@code at} (clamped to the input). */
  public static Chunking splitAt(int at) {
    return new Chunking("split at " + at) {
      @Override
      public int[] sizes(int length) {
        int cut = Math.min(at, length);
        return new int[] {cut, length - cut};
      }
    };
  }

  /** Random sizes from 1 to {@code maxSize}, from a fixed seed (printed in the name). */
  public static Chunking random(long seed, int maxSize) {
    return new Chunking("random seed=" + seed + " max=" + maxSize) {
      @Override
      public int[] sizes(int length) {
        Random r = new Random(seed);
        List<Integer> sizes = new ArrayList<>();
        for (int left = length; left > 0; ) {
          int n = Math.min(left, 1 + r.nextInt(maxSize));
          sizes.add(n);
          left -= n;
        }
        return sizes.stream().mapToInt(Integer::intValue).toArray();
      }
    };
  }

  /** The standard sweep: sizes 1, 2, 3, 7, 64, whole, and two random ones. */
  public static List<Chunking> standard() {
    return List.of(fixed(1), fixed(2), fixed(3), fixed(7), fixed(64), whole(),
        random(1, 100), random(2, 5000));
  }

  /** Every split point of an input of {@code length} bytes (for inputs under 512 bytes). */
  public static List<Chunking> everySplit(int length) {
    List<Chunking> all = new ArrayList<>();
    for (int i = 0; i <= length; i++) {
      all.add(splitAt(i));
    }
    return all;
  }

  @Override
  public String toString() {
    return name;
  }
}
