package dev.ferry.xop.internal;

import dev.ferry.bytes.internal.BufferPool;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.Objects;

/**
 * Encodes what a StAX writer writes as UTF-8 into an output stream, through a buffer borrowed
 * from a pool and given back by {@link #release}. Woodstox's own encoder takes its 4 KB buffer
 * from a thread-local recycler, which a server running each request on a new virtual thread
 * never hits twice: every reply allocated one. Given this writer, Woodstox makes no encoder of
 * its own. Not thread-safe, as a StAX writer is not.
 *
 * <p>A surrogate pair may be split across writes; an unpaired surrogate is an
 * {@link IOException}, as it is in Woodstox's encoder.
 */
public final class PooledUtf8Writer extends Writer {
  private static final BufferPool BUFFERS = new BufferPool(4096, 64);

  private final OutputStream out;
  private byte[] buf = BUFFERS.take(); // null once released
  private int count;
  private char highSurrogate; // 0: none pending
  private boolean holdStreamFlush; // flush() drains into the stream without flushing it

  public PooledUtf8Writer(OutputStream out) {
    this.out = out;
  }

  @Override
  public void write(int c) throws IOException {
    ensureRoom();
    put((char) c);
  }

  @Override
  public void write(char[] cbuf, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, cbuf.length);
    int end = off + len;
    while (off < end) {
      ensureRoom();
      // ASCII, the usual text of an envelope, goes a run at a time
      int room = Math.min(end - off, buf.length - count);
      int n = 0;
      if (highSurrogate == 0) {
        while (n < room && cbuf[off + n] < 0x80) {
          buf[count + n] = (byte) cbuf[off + n];
          n++;
        }
      }
      count += n;
      off += n;
      if (n == 0) { // not ASCII (or a pair's second half): room for it was made above
        put(cbuf[off++]);
      }
    }
  }

  @Override
  public void write(String s, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, s.length());
    for (int i = off, end = off + len; i < end; i++) {
      ensureRoom();
      put(s.charAt(i));
    }
  }

  /** Puts one char; the buffer has room for the four bytes of a code point. */
  private void put(char c) throws IOException {
    if (highSurrogate != 0) {
      if (!Character.isLowSurrogate(c)) {
        throw unpaired(highSurrogate);
      }
      int cp = Character.toCodePoint(highSurrogate, c);
      highSurrogate = 0;
      buf[count++] = (byte) (0xf0 | cp >> 18);
      buf[count++] = (byte) (0x80 | cp >> 12 & 0x3f);
      buf[count++] = (byte) (0x80 | cp >> 6 & 0x3f);
      buf[count++] = (byte) (0x80 | cp & 0x3f);
    } else if (c < 0x80) {
      buf[count++] = (byte) c;
    } else if (c < 0x800) {
      buf[count++] = (byte) (0xc0 | c >> 6);
      buf[count++] = (byte) (0x80 | c & 0x3f);
    } else if (Character.isHighSurrogate(c)) {
      highSurrogate = c;
    } else if (Character.isLowSurrogate(c)) {
      throw unpaired(c);
    } else {
      buf[count++] = (byte) (0xe0 | c >> 12);
      buf[count++] = (byte) (0x80 | c >> 6 & 0x3f);
      buf[count++] = (byte) (0x80 | c & 0x3f);
    }
  }

  private static IOException unpaired(char c) {
    return new IOException(String.format("unpaired surrogate U+%04X in the XML written", (int) c));
  }

  private void ensureRoom() throws IOException {
    if (buf == null) {
      throw new IOException("the writer was released");
    }
    if (buf.length - count < 4) {
      drain();
    }
  }

  private void drain() throws IOException {
    if (count > 0) {
      out.write(buf, 0, count);
      count = 0;
    }
  }

  /** Writes what is buffered and flushes the stream (only drains it: see {@link #writeAscii}). */
  @Override
  public void flush() throws IOException {
    if (buf != null) {
      drain();
    }
    if (!holdStreamFlush) {
      out.flush();
    }
  }

  /**
   * Whether {@link #flush} leaves the stream unflushed: for an owner that makes the StAX writer
   * hand over its buffered characters before it writes bytes of its own ({@link #writeAscii}),
   * which must not push a short packet out mid-message.
   */
  public void holdStreamFlush(boolean hold) {
    this.holdStreamFlush = hold;
  }

  /**
   * Writes {@code b[off, off + len)}, ASCII bytes, as they are: for text that needs neither
   * escaping nor encoding (base64), after the StAX writer handed over its characters.
   */
  public void writeAscii(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (highSurrogate != 0) {
      throw unpaired(highSurrogate);
    }
    ensureRoom();
    while (len > 0) {
      int n = Math.min(len, buf.length - count);
      System.arraycopy(b, off, buf, count, n);
      count += n;
      off += n;
      len -= n;
      if (count == buf.length) {
        drain();
      }
    }
  }

  /** Writes what is buffered, gives the buffer back and closes the stream. */
  @Override
  public void close() throws IOException {
    if (buf == null) {
      return;
    }
    try {
      if (highSurrogate != 0) {
        throw unpaired(highSurrogate);
      }
      drain();
    } finally {
      release();
    }
    out.close();
  }

  /**
   * Gives the buffer back to the pool, dropping anything not yet written; idempotent. For the
   * owner of the StAX writer once it is closed (Woodstox flushes this writer at its close and
   * closes it only when it owns the stream).
   */
  public void release() {
    byte[] b = buf;
    if (b != null) {
      buf = null;
      count = 0;
      BUFFERS.give(b);
    }
  }
}
