package dev.ferry.testkit;

import java.io.IOException;
import java.io.InputStream;

/**
 * Hands out the bytes of an array in the chunk sizes of a {@link Chunking}, one chunk per read at
 * most, and can fail with an {@link IOException} once a given offset is reached: a network that
 * delivers in odd pieces, or breaks.
 */
public final class ThrottledInputStream extends InputStream {
  private final byte[] data;
  private final int[] sizes;
  private final long failAt;
  private int chunk;
  private int pos;
  private int chunkLeft;

  public ThrottledInputStream(byte[] data, Chunking chunking) {
    this(data, chunking, -1);
  }

  /** Like the two-argument form, failing once {@code failAt} bytes were delivered (-1: never). */
  public ThrottledInputStream(byte[] data, Chunking chunking, long failAt) {
    this.data = data;
    this.sizes = chunking.sizes(data.length);
    this.failAt = failAt;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (failAt >= 0 && pos >= failAt) {
      throw new IOException("injected failure at byte " + pos);
    }
    while (chunkLeft == 0) {
      if (chunk >= sizes.length) {
        return -1;
      }
      chunkLeft = sizes[chunk++];
    }
    int n = Math.min(len, chunkLeft);
    if (failAt >= 0) {
      n = (int) Math.min(n, failAt - pos);
    }
    System.arraycopy(data, pos, b, off, n);
    pos += n;
    chunkLeft -= n;
    return n;
  }
}
