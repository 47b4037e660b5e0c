package dev.ferry.broker;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The stream a streamed request goes to its member through: a failure to write is the member's
 * ({@link Failed}), told apart from a failure to read the caller's request while it is copied.
 */
final class MemberOutput extends FilterOutputStream {
  /** Writing to the member failed; the cause says how. */
  static final class Failed extends IOException {
    Failed(IOException cause) {
      super(cause.getMessage(), cause);
    }
  }

  private long written;

  MemberOutput(OutputStream out) {
    super(out);
  }

  /**
   * The bytes written so far: read on the event loop once the member answered, after the
   * writes (each went to the loop as a task, which orders them before).
   */
  long written() {
    return written;
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
      written++;
    } catch (IOException e) {
      throw new Failed(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
      written += len;
    } catch (IOException e) {
      throw new Failed(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw new Failed(e);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      out.close();
    } catch (IOException e) {
      throw new Failed(e);
    }
  }
}
