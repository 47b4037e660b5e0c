package dev.ferry.sample.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

/**
 * Decodes base64 text that arrives in pieces (StAX hands element text over in chunks of any
 * length) into an {@link OutputStream}, skipping white space, holding at most one chunk.
 */
public final class Base64Sink {
  private final OutputStream out;
  private byte[] pending = new byte[4096];
  private int count;
  private long decoded;

  public Base64Sink(OutputStream out) {
    this.out = out;
  }

  /** Takes {@code length} characters of base64 text. */
  public void write(char[] text, int start, int length) throws IOException {
    ensure(count + length);
    for (int i = start; i < start + length; i++) {
      char c = text[i];
      if (c > ' ') {
        if (c > 0x7f) {
          throw new IOException("invalid base64 character U+" + Integer.toHexString(c));
        }
        pending[count++] = (byte) c;
      }
    }
    int whole = count & ~3;
    if (whole >= 4096) {
      flush(whole);
    }
  }

  /** Decodes what is left; returns the number of bytes decoded in all. */
  public long finish() throws IOException {
    if (count % 4 != 0) {
      throw new IOException("base64 text of " + count + " trailing characters is not padded");
    }
    flush(count);
    return decoded;
  }

  private void flush(int n) throws IOException {
    if (n == 0) {
      return;
    }
    ByteBuffer bytes;
    try {
      bytes = Base64.getDecoder().decode(ByteBuffer.wrap(pending, 0, n));
    } catch (IllegalArgumentException e) {
      throw new IOException("invalid base64: " + e.getMessage(), e);
    }
    out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
    decoded += bytes.remaining();
    System.arraycopy(pending, n, pending, 0, count - n);
    count -= n;
  }

  private void ensure(int capacity) {
    if (capacity > pending.length) {
      pending = Arrays.copyOf(pending, Math.max(capacity, pending.length * 2));
    }
  }
}
