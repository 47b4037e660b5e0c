package dev.ferry.bench.soap;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A reused in-memory sink: grows to the largest message once, then every op writes into the same
 * array, so no benchmark pays for its output buffer.
 */
public final class Sink extends OutputStream {
  private byte[] buf = new byte[64 * 1024];
  private int count;

  public void reset() {
    count = 0;
  }

  public int size() {
    return count;
  }

  public byte[] array() {
    return buf;
  }

  /** Returns a copy of what was written since the last reset (for checks, not in a benchmark). */
  public byte[] toByteArray() {
    return Arrays.copyOf(buf, count);
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[count++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, count, len);
    count += len;
  }

  private void ensure(int more) {
    if (count + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
    }
  }
}
