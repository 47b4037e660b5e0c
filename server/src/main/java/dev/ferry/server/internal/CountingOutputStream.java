package dev.ferry.server.internal;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Counts the bytes of a reply written through it; writes in bulk (FilterOutputStream would not).
 * A flush stops here: the container writes its buffer when it fills and when the servlet
 * returns, and then, for a reply that fitted the buffer, with its Content-Length in one write.
 * A payload's flush at its end would commit the reply first, chunked, and cost the terminating
 * chunk a write of its own.
 */
public final class CountingOutputStream extends FilterOutputStream {
  private long count;

  public CountingOutputStream(OutputStream out) {
    super(out);
  }

  public long count() {
    return count;
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    count++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    count += len;
  }

  @Override
  public void flush() {
    // the container's to decide
  }

  @Override
  public void close() {
    // the container closes the response itself
  }
}
