package dev.ferry.testkit;

import java.util.Random;

/** Test payloads: random bytes that a seed makes again, so a failure can be replayed. */
public final class Blobs {
  private Blobs() {}

  /** Returns {@code size} random bytes drawn from {@code seed}. */
  public static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /**
   * Returns a stream of {@code size} bytes {@code 'x'}, made as they are read: a large message
   * part that no array of its size ever holds.
   */
  public static java.io.InputStream filler(long size) {
    return new java.io.InputStream() {
      private long left = size;

      @Override
      public int read() {
        if (left == 0) {
          return -1;
        }
        left--;
        return 'x';
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left == 0) {
          return -1;
        }
        int n = (int) Math.min(len, left);
        java.util.Arrays.fill(b, off, off + n, (byte) 'x');
        left -= n;
        return n;
      }
    };
  }

  /** How many of the bytes {@code in} has left are {@code b}; reads it to its end. */
  public static long count(java.io.InputStream in, byte b) throws java.io.IOException {
    long n = 0;
    byte[] buf = new byte[65536];
    for (int r; (r = in.read(buf)) > 0; ) {
      for (int i = 0; i < r; i++) {
        n += buf[i] == b ? 1 : 0;
      }
    }
    return n;
  }
}
