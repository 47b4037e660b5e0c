package dev.ferry.server.internal;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Counts the bytes written through it; writes in bulk (FilterOutputStream would not). */
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
  public void close() throws IOException {
    flush(); // the container closes the response itself
  }
}
