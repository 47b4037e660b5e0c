package dev.ferry.server.internal;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.LongConsumer;

/** Counts the bytes read through it, for metrics and access logs; reports each read's count. */
public final class CountingInputStream extends FilterInputStream {
  private final LongConsumer onRead;
  private long count;

  public CountingInputStream(InputStream in, LongConsumer onRead) {
    super(in);
    this.onRead = onRead;
  }

  public long count() {
    return count;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      add(1);
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      add(n);
    }
    return n;
  }

  @Override
  public long transferTo(OutputStream out) throws IOException {
    byte[] buffer = new byte[16384];
    long total = 0;
    for (int n; (n = read(buffer, 0, buffer.length)) >= 0; ) {
      out.write(buffer, 0, n);
      total += n;
    }
    return total;
  }

  private void add(long n) {
    count += n;
    onRead.accept(n);
  }
}
