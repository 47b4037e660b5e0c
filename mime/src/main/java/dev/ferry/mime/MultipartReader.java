package dev.ferry.mime;

import dev.ferry.bytes.internal.BufferPool;
import dev.ferry.mime.MultipartParser.Event;
import dev.ferry.mime.internal.DelimiterSearch;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a MIME multipart body from an {@link InputStream}, one {@link Part} at a time; the
 * blocking facade over {@link MultipartParser}.
 *
 * <p>A part's body stream moves bulk data: when the caller's buffer is large enough, bytes are
 * read from the source straight into it and the delimiter is searched there, so each body byte
 * is copied once. Only the bytes after a delimiter are moved to this reader's own buffer
 * (11 KiB with the vector search, 7 KiB without), which goes back to a small shared pool when the
 * reader reaches the end of the message (in the reading thread, after which nothing reads it),
 * so the next reader reuses it rather than allocating and zeroing a fresh one. A read longer
 * than that buffer whose delimiter leaves more bytes than it holds replaces it with one of the
 * needed size (at most the caller's read length, and 64 KiB), which the pool does not keep.
 *
 * <pre>{@code
 * try (MultipartReader reader = MultipartReader.open(in, contentType)) {
 *   for (Part part; (part = reader.nextPart()) != null; ) {
 *     String id = part.headers().contentId();
 *     long n = part.decodedBody().transferTo(sink);
 *   }
 * }
 * }</pre>
 *
 * <p>{@link #nextPart()} skips whatever the previous part's body left unread. Not thread-safe.
 */
public final class MultipartReader implements Closeable {
  /**
   * 7 KiB: with the parser's tables, a message costs under 16 KiB of allocation even when the
   * buffer is not reused. The vector search has no 4 KiB pair table, so the buffer gets those
   * bytes: fewer, larger direct reads.
   */
  private static final int BUFFER_BYTES = (DelimiterSearch.VECTOR ? 11 : 7) * 1024;
  /**
   * The longest read straight into a caller's buffer: longer reads gain nothing measurable, and
   * this bounds the buffer a reader may make for the bytes after a delimiter.
   */
  private static final int MAX_DIRECT_READ = 64 * 1024;
  /** Buffers of readers that reached the end or were closed, for the next readers. */
  private static final BufferPool BUFFERS = new BufferPool(BUFFER_BYTES, 64);
  /** The pair tables of their delimiter searches (scalar path only), likewise. */
  private static final BufferPool TABLES = new BufferPool(DelimiterSearch.TABLE_BYTES, 64);

  private final InputStream source;
  private final MultipartParser parser;
  private byte[] buf = BUFFERS.take(); // null once given back
  private byte[] table; // the parser's pair table, lent by TABLES; null once given back
  private int bufPos;
  private int bufEnd;
  private Part current;
  private boolean bodyDone = true; // no part open, or its body was read to PART_END
  private boolean ended;
  private volatile boolean closed;
  /**
   * Held by a read while it runs, and for good by whoever gives the buffers back: a close from
   * another thread (a timeout, an abort) gives them back only when no read uses them, else the
   * read does as it ends. A reader closed before its end is the usual case (a consumer that
   * took the parts it wanted), and its buffers go back to the pool as well.
   */
  private final AtomicBoolean busy = new AtomicBoolean();

  private MultipartReader(InputStream source, MultipartParser.Builder parser, byte[] table)
      throws MimeException {
    this.source = source;
    this.table = table;
    try {
      this.parser = parser.pairTable(table).build();
    } catch (MimeException | RuntimeException e) {
      releaseBuffers();
      throw e;
    }
  }

  /**
   * Returns a reader of {@code in} for a multipart body of type {@code contentType}, which must
   * have a boundary parameter; strict line ends and default limits.
   *
   * @throws MimeException if the content type has no valid boundary
   */
  public static MultipartReader open(InputStream in, MediaType contentType)
      throws MimeException {
    return builder(in, contentType.boundary()).build();
  }

  /** Returns a builder for a reader of {@code in} whose delimiter uses {@code boundary}. */
  public static Builder builder(InputStream in, String boundary) {
    return new Builder(in, boundary);
  }

  /**
   * Returns the next part, with its headers read and its body ready to stream, or null after the
   * closing delimiter.
   *
   * @throws MimeException if the input is malformed, truncated or over a limit
   * @throws IOException if the source fails
   */
  public Part nextPart() throws IOException {
    enter();
    try {
      return next();
    } finally {
      leave();
    }
  }

  private Part next() throws IOException {
    if (!bodyDone) {
      skipBody();
    }
    if (ended) {
      return null;
    }
    while (true) {
      Event e = step(Integer.MAX_VALUE);
      if (e == Event.PART_START) {
        bodyDone = false;
        current = new Part(this, parser.partIndex(), parser.headers(), parser.byteOffset());
        return current;
      }
      if (e == Event.END) {
        ended = true;
        releaseBuffers(); // nothing reads from the buffer after the end
        return null;
      }
    }
  }

  /** Returns true if the lenient line-end rule is on. */
  public boolean isLenient() {
    return parser.isLenient();
  }

  /** Returns the absolute offset of the next byte the parser will read. */
  public long byteOffset() {
    return parser.byteOffset();
  }

  /** Closes the source; gives the buffers back now, or when a read in progress ends. */
  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      if (busy.compareAndSet(false, true)) {
        releaseBuffers();
      }
      source.close();
    }
  }

  /** Starts a read: it holds the buffers until {@link #leave}. */
  private void enter() throws IOException {
    if (!busy.compareAndSet(false, true)) {
      throw new IOException(closed ? "MultipartReader is closed"
          : "MultipartReader is read by two threads at once");
    }
    if (closed) {
      leave();
      throw new IOException("MultipartReader is closed");
    }
  }

  /** Ends a read; gives the buffers back if a close came meanwhile. */
  private void leave() {
    busy.set(false);
    if (closed && busy.compareAndSet(false, true)) {
      releaseBuffers();
    }
  }

  /** Gives the buffers back, once; only their holder calls this (see {@link #busy}). */
  private void releaseBuffers() {
    if (buf != null) {
      BUFFERS.give(buf);
      buf = null;
    }
    if (table != null) {
      TABLES.give(table);
      table = null;
    }
  }

  // ---- body access for Part --------------------------------------------------------------------

  int readBody(Part part, byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    enter();
    try {
      return body(part, b, off, len);
    } finally {
      leave();
    }
  }

  private int body(Part part, byte[] b, int off, int len) throws IOException {
    if (part != current || bodyDone) {
      return -1;
    }
    if (len == 0) {
      return 0;
    }
    while (true) {
      if (bufPos == bufEnd && len >= 512) {
        // The parser's carry (a near-delimiter cut by the last read) goes in front of the
        // caller's buffer, and the source is read straight in after it.
        int carried = parser.hasCarry() ? parser.takeCarry(b, off) : 0;
        int n = readDirect(b, off, carried, Math.min(len, directReadLimit(part)));
        if (n != 0) {
          return n;
        }
        continue;
      }
      Event e = step(len);
      if (e == Event.BODY) {
        System.arraycopy(parser.bodyArray(), parser.bodyOffset(), b, off, parser.bodyLength());
        return parser.bodyLength();
      }
      if (e == Event.PART_END) {
        bodyDone = true;
        return -1;
      }
    }
  }

  /**
   * How long a direct read into the caller's buffer may be: this reader's buffer at first, then
   * as long as the part's body has been so far, up to {@link #MAX_DIRECT_READ}. A part that ends
   * early in a long read leaves the rest of the message to be copied into a buffer made for it:
   * an envelope read in 64 KiB chunks, ending a few hundred bytes into one, cost the 32 KiB
   * attachment after it a new array and a copy. A read no longer than the buffer leaves no more
   * than the buffer holds; a long body soon reads at full length.
   */
  private int directReadLimit(Part part) {
    long soFar = parser.byteOffset() - part.bodyOffset();
    return (int) Math.min(MAX_DIRECT_READ, Math.max(buf.length, soFar));
  }

  /**
   * Reads from the source straight into the caller's buffer, after the {@code carried} bytes the
   * parser handed back, and lets the parser find the delimiter there. Returns body bytes left in
   * place, -1 at the part's end, or 0 if everything went into the parser's carried match.
   */
  private int readDirect(byte[] b, int off, int carried, int len) throws IOException {
    int n = readSource(b, off + carried, len - carried);
    if (n < 0) {
      if (carried > 0) {
        parser.next(b, off, off + carried); // give the carry back before failing
      }
      parser.endOfInput(); // throws: the body is unfinished
      return -1;
    }
    n += carried;
    Event e = parser.next(b, off, off + n);
    int used = parser.consumed();
    if (n - used > buf.length) {
      // A read longer than this buffer found the delimiter early: the rest (the next parts)
      // needs a larger buffer, made only then. Reads as long as the caller's buffer cut the
      // reads and parser calls per MiB (64 instead of 94 with a 16 KiB buffer; 4-6% off the
      // parse in JMH, within its error bars). The pool does not take the larger buffer.
      buf = new byte[n - used];
    }
    System.arraycopy(b, off + used, buf, 0, n - used); // delimiter and what follows
    bufPos = 0;
    bufEnd = n - used;
    if (e == Event.BODY) {
      return parser.bodyLength(); // the slice starts at off: the bytes are already in place
    }
    if (e == Event.PART_END) {
      bodyDone = true;
      return -1;
    }
    return 0;
  }

  long transferBody(Part part, OutputStream out) throws IOException {
    enter();
    try {
      return transfer(part, out);
    } finally {
      leave();
    }
  }

  private long transfer(Part part, OutputStream out) throws IOException {
    long total = 0;
    while (part == current && !bodyDone) {
      Event e = step(Integer.MAX_VALUE);
      if (e == Event.BODY) {
        out.write(parser.bodyArray(), parser.bodyOffset(), parser.bodyLength());
        total += parser.bodyLength();
      } else if (e == Event.PART_END) {
        bodyDone = true;
      }
    }
    return total;
  }

  private void skipBody() throws IOException {
    while (!bodyDone) {
      if (step(Integer.MAX_VALUE) == Event.PART_END) {
        bodyDone = true;
      }
    }
  }

  /** Runs the parser over this reader's buffer, refilling it as needed; never NEED_INPUT. */
  private Event step(int maxBody) throws IOException {
    while (true) {
      if (bufPos < bufEnd) {
        Event e = parser.next(buf, bufPos, bufEnd, maxBody);
        bufPos += parser.consumed();
        if (e != Event.NEED_INPUT) {
          return e;
        }
      }
      if (!fill()) {
        return parser.endOfInput();
      }
    }
  }

  private boolean fill() throws IOException {
    if (bufPos < bufEnd) {
      System.arraycopy(buf, bufPos, buf, 0, bufEnd - bufPos);
    }
    bufEnd -= bufPos;
    bufPos = 0;
    int n = readSource(buf, bufEnd, buf.length - bufEnd);
    if (n < 0) {
      return false;
    }
    bufEnd += n;
    return true;
  }

  /** Reads the source; its failures become MIME errors that say where the message broke. */
  private int readSource(byte[] b, int off, int len) throws MimeException {
    try {
      return source.read(b, off, len);
    } catch (MimeException e) {
      throw e;
    } catch (IOException e) {
      String where = parser.partIndex() < 0 ? "preamble" : "part " + parser.partIndex()
          + (bodyDone ? " > headers" : " > body");
      throw new MimeException("I/O error while reading the multipart body: " + e.getMessage(),
          parser.byteOffset() + (bufEnd - bufPos), where, e);
    }
  }

  /** Configures a {@link MultipartReader}. */
  public static final class Builder {
    private final InputStream in;
    private final MultipartParser.Builder parser;

    private Builder(InputStream in, String boundary) {
      this.in = Objects.requireNonNull(in, "in");
      this.parser = MultipartParser.builder(boundary);
    }

    public Builder limits(MimeLimits limits) {
      parser.limits(limits);
      return this;
    }

    /** Accepts bare LF line ends as well as CRLF (off by default). */
    public Builder lenientLineEnds(boolean lenient) {
      parser.lenientLineEnds(lenient);
      return this;
    }

    /** As {@link MultipartParser.Builder#lenientHeaders(boolean)} (off by default). */
    public Builder lenientHeaders(boolean lenient) {
      parser.lenientHeaders(lenient);
      return this;
    }

    /**
     * Returns the reader.
     *
     * @throws MimeException if the boundary is invalid
     */
    public MultipartReader build() throws MimeException {
      return new MultipartReader(in, parser, DelimiterSearch.VECTOR ? null : TABLES.take());
    }
  }
}
