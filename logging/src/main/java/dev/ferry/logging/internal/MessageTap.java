package dev.ferry.logging.internal;

import dev.ferry.logging.MessageLog;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Logs one message of an exchange through a {@link MessageLog}: the stream the message moves
 * through is wrapped ({@link #tap(InputStream)}, {@link #tap(OutputStream)}), so that what the
 * endpoint or the caller reads or writes is seen as it passes, byte for byte unchanged, and
 * {@link MessageWire} keeps the envelope's first bytes and counts the rest. {@link #log} writes
 * the record once the envelope went by; {@link #finish} at the end of the exchange writes it if
 * that has not happened, else the attachments that went by since.
 *
 * <p>{@link #OFF} does nothing and wraps nothing: what a server or client without a message log
 * (or whose logger is off) uses, so that there is one path either way.
 */
public final class MessageTap {
  /** A tap that logs nothing. */
  public static final MessageTap OFF = new MessageTap(null, null, null);

  private final MessageLog log;
  private final Supplier<String> title;
  private final MessageWire wire;
  private int listed = -1; // attachments in the record written; -1: none written

  private MessageTap(MessageLog log, Supplier<String> title, Supplier<String> contentType) {
    this.log = log;
    this.title = title;
    this.wire = log == null ? null : new MessageWire(log.maxBytes(), contentType);
  }

  /**
   * A tap for one message; {@link #OFF} if {@code log} is null or its logger is off.
   *
   * @param title the record's first line (direction, exchange number, path or status), asked
   *     for when the record is written
   * @param contentType the message's Content-Type, asked for at its first byte (null: no body)
   */
  public static MessageTap open(MessageLog log, Supplier<String> title,
      Supplier<String> contentType) {
    return log == null || !log.enabled() ? OFF : new MessageTap(log, title, contentType);
  }

  /** Whether this tap logs: false for {@link #OFF}. */
  public boolean on() {
    return log != null;
  }

  /** {@code in}, seen by this tap as it is read. */
  public InputStream tap(InputStream in) {
    return log == null ? in : new TappedInput(in, wire);
  }

  /** {@code out}, seen by this tap as it is written. */
  public OutputStream tap(OutputStream out) {
    return log == null ? out : new TappedOutput(out, wire);
  }

  /** Writes the message's record now, with {@code headers}, unless it was written. */
  public void log(Iterable<Map.Entry<String, String>> headers) {
    write(headers, false);
  }

  private void write(Iterable<Map.Entry<String, String>> headers, boolean last) {
    if (log == null) {
      return;
    }
    synchronized (wire) {
      if (listed >= 0) {
        return;
      }
      listed = wire.attachments().size();
      log.write(MessageRecord.of(log, title.get(), headers, wire, last));
    }
  }

  /**
   * Ends the message: writes its record if it was not written, else one with the attachments
   * that went by after it, if any did.
   */
  public void finish(Iterable<Map.Entry<String, String>> headers) {
    if (log == null) {
      return;
    }
    synchronized (wire) {
      if (listed < 0) {
        write(headers, true);
      } else if (wire.attachments().size() > listed || wire.unfinishedAttachment()) {
        log.write(MessageRecord.attachments(log, title.get(), wire, listed));
        listed = wire.attachments().size();
      }
    }
  }

  /** Passes reads on, showing what was read to the wire. */
  private static final class TappedInput extends InputStream {
    private final InputStream in;
    private final MessageWire wire;

    TappedInput(InputStream in, MessageWire wire) {
      this.in = in;
      this.wire = wire;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        wire.see(new byte[] {(byte) b}, 0, 1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      if (n > 0) {
        wire.see(b, off, n);
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      // read, not skipped: the bytes must go by the wire to be counted
      byte[] scratch = new byte[(int) Math.min(8192, Math.max(n, 0))];
      long skipped = 0;
      while (skipped < n) {
        int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
        if (r < 0) {
          break;
        }
        skipped += r;
      }
      return skipped;
    }

    @Override
    public int available() throws IOException {
      return in.available();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  /** Passes writes on, showing them to the wire once they were written. */
  private static final class TappedOutput extends OutputStream {
    private final OutputStream out;
    private final MessageWire wire;

    TappedOutput(OutputStream out, MessageWire wire) {
      this.out = out;
      this.wire = wire;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      wire.see(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      wire.see(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
