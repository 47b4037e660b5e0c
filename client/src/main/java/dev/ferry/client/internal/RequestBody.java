package dev.ferry.client.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Holds a request body up to a size, to be sent whole with a Content-Length; at its first byte
 * beyond, streams it through what {@link Overflow} starts instead (what was held first).
 */
public final class RequestBody extends OutputStream {
  /** Starts a streamed send when it is given its first byte beyond the buffer. */
  @FunctionalInterface
  public interface Overflow {
    OutputStream start() throws IOException;
  }

  private final int limit;
  private final Overflow overflow;
  private final Runnable progress;
  private byte[] buf;
  private int count;
  private OutputStream stream;

  /** {@code progress} is told of every write that went on to the stream. */
  public RequestBody(int limit, Overflow overflow, Runnable progress) {
    this(limit, overflow, progress, 8192);
  }

  /**
   * {@code expected} sizes the buffer from the start (a length known beforehand, such as the
   * incoming request's, plus a margin), so a body that stays below the limit is not copied as
   * the buffer grows; non-positive for unknown.
   */
  public RequestBody(int limit, Overflow overflow, Runnable progress, long expected) {
    this.limit = limit;
    this.overflow = overflow;
    this.progress = progress;
    this.buf = new byte[(int) Math.min(limit, Math.max(8192, expected))];
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (stream != null) {
      stream.write(b, off, len);
      progress.run();
      return;
    }
    if (count + len <= limit) {
      if (count + len > buf.length) {
        buf = Arrays.copyOf(buf, Math.min(limit, Math.max(count + len, buf.length * 2)));
      }
      System.arraycopy(b, off, buf, count, len);
      count += len;
      return;
    }
    stream = overflow.start();
    stream.write(buf, 0, count);
    buf = null;
    stream.write(b, off, len);
    progress.run();
  }

  /** Ends a streamed body (a held one is sent by the caller). */
  public void finish() throws IOException {
    if (stream != null) {
      stream.close();
    }
  }

  public boolean streamed() {
    return stream != null;
  }

  public byte[] bytes() {
    return buf;
  }

  public int size() {
    return count;
  }
}
