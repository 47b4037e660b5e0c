package dev.ferry.broker.internal;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes to a main stream and a copy. A failing copy is dropped (and remembered) rather than
 * failing the main stream: an audit copy must not break the traffic it records.
 */
public final class TeeOutputStream extends OutputStream {
  private final OutputStream main;
  private OutputStream copy;
  private IOException copyFailure;

  public TeeOutputStream(OutputStream main, OutputStream copy) {
    this.main = main;
    this.copy = copy;
  }

  /** Returns why the copy was dropped, or null if it is whole. */
  public IOException copyFailure() {
    return copyFailure;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    main.write(b, off, len);
    if (copy != null) {
      try {
        copy.write(b, off, len);
      } catch (IOException e) {
        copyFailure = e;
        copy = null;
      }
    }
  }

  @Override
  public void flush() throws IOException {
    main.flush();
  }
}
