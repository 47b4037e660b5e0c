package dev.ferry.mime;

import dev.ferry.mime.internal.Boundaries;
import dev.ferry.mime.internal.RandomPool;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Streams a MIME multipart body to an {@link OutputStream}: parts are written as they come, each
 * header section once, bodies copied in bulk.
 *
 * <p>The boundary and the Content-IDs derive from one random value per writer (16 bytes from a
 * shared {@code SecureRandom}, drawn in blocks) plus a counter: no UUID per part. The boundary
 * is unguessable, so content from one sender cannot fake a delimiter of a message another
 * sender's data travels in.
 *
 * <pre>{@code
 * MultipartWriter w = new MultipartWriter(out);
 * String rootId = w.nextContentId();
 * w.writePart(MimeHeaders.builder().add("Content-Type", "text/plain")
 *     .add("Content-ID", "<" + rootId + ">").build(), "hello".getBytes());
 * try (OutputStream body = w.startPart(attachmentHeaders)) {
 *   source.transferTo(body);
 * }
 * w.close();   // closing delimiter; does not close out
 * }</pre>
 *
 * <p>Layout: {@code --B CRLF headers CRLF body (CRLF --B CRLF headers CRLF body)* CRLF --B-- CRLF}.
 * Not thread-safe.
 */
public final class MultipartWriter implements Closeable {
  private static final byte[] CRLF = {'\r', '\n'};

  private final OutputStream out;
  private final String boundary;
  private final String idSuffix;
  private final byte[] delimiter; // CRLF "--" boundary
  private final byte[] headerScratch;
  private int contentIds;
  private int parts;
  private OutputStream openBody;
  private boolean closed;

  /** Creates a writer to {@code out} with a fresh random boundary. */
  public MultipartWriter(OutputStream out) {
    this(out, null);
  }

  /**
   * Creates a writer to {@code out} with the given boundary, or a fresh random one if null.
   *
   * @throws IllegalArgumentException if the boundary is not 1 to 70 RFC 2046 characters
   */
  public MultipartWriter(OutputStream out, String boundary) {
    this.out = Objects.requireNonNull(out, "out");
    String random = HexFormat.of().formatHex(randomBytes());
    this.boundary = boundary != null ? checkBoundary(boundary) : "MIMEBoundary_" + random;
    this.idSuffix = "." + random + "@ferry.dev";
    this.delimiter = ("\r\n--" + this.boundary).getBytes(StandardCharsets.ISO_8859_1);
    this.headerScratch = new byte[512];
  }

  private static byte[] randomBytes() {
    byte[] b = new byte[16];
    RandomPool.nextBytes(b);
    return b;
  }

  /** Returns the boundary, for the Content-Type of the message. */
  public String boundary() {
    return boundary;
  }

  /**
   * Returns {@code multipart/<subtype>; boundary=...} plus {@code extraParameters} given as
   * name, value pairs (for example {@code "type", "application/xop+xml"}).
   */
  public MediaType contentType(String subtype, String... extraParameters) {
    String[] parameters = new String[2 + extraParameters.length / 2 * 2];
    parameters[0] = "boundary";
    parameters[1] = boundary;
    System.arraycopy(extraParameters, 0, parameters, 2, parameters.length - 2);
    return MediaType.of("multipart", subtype, parameters);
  }

  /** Returns a new Content-ID, unique in this message, without angle brackets. */
  public String nextContentId() {
    return ++contentIds + idSuffix;
  }

  /** Returns the number of parts started so far. */
  public int partCount() {
    return parts;
  }

  /**
   * Writes the delimiter and {@code headers} of a new part and returns a stream for its body;
   * closing that stream ends the body (it does not close the underlying stream).
   *
   * @throws IllegalStateException if the previous part's body stream is still open
   */
  public OutputStream startPart(MimeHeaders headers) throws IOException {
    ensureReady();
    if (parts++ == 0) {
      out.write(delimiter, 2, delimiter.length - 2); // no line break before the first
    } else {
      out.write(delimiter);
    }
    out.write(CRLF);
    writeHeaders(headers);
    out.write(CRLF);
    openBody = new BodyStream();
    return openBody;
  }

  /** Writes a whole part whose body is {@code body}. */
  public void writePart(MimeHeaders headers, byte[] body) throws IOException {
    try (OutputStream o = startPart(headers)) {
      o.write(body);
    }
  }

  /** Writes a whole part whose body is the rest of {@code body}, copied in bulk. */
  public void writePart(MimeHeaders headers, InputStream body) throws IOException {
    try (OutputStream o = startPart(headers)) {
      body.transferTo(o);
    }
  }

  /**
   * Writes the closing delimiter and flushes. Does not close the underlying stream.
   *
   * @throws IllegalStateException if no part was written (RFC 2046 requires one) or a body
   *     stream is still open
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    ensureReady();
    if (parts == 0) {
      throw new IllegalStateException("a multipart body needs at least one part");
    }
    closed = true;
    out.write(delimiter);
    out.write('-');
    out.write('-');
    out.write(CRLF);
    out.flush();
  }

  /**
   * Writes the header lines through the scratch buffer, ASCII encoded in place (no string or
   * array per line); a line with other characters, or too long for the buffer, is encoded as
   * UTF-8 on its own.
   */
  private void writeHeaders(MimeHeaders headers) throws IOException {
    byte[] buf = headerScratch;
    int n = 0;
    for (MimeHeaders.Field f : headers.fields()) {
      String name = f.name();
      String value = f.value();
      int length = name.length() + value.length() + 4; // ": " and CRLF
      if (n + length > buf.length) {
        out.write(buf, 0, n);
        n = 0;
      }
      if (length > buf.length || !isAscii(name) || !isAscii(value)) {
        out.write(buf, 0, n);
        n = 0;
        out.write((name + ": " + value + "\r\n").getBytes(StandardCharsets.UTF_8));
        continue;
      }
      n = putAscii(name, buf, n);
      buf[n++] = ':';
      buf[n++] = ' ';
      n = putAscii(value, buf, n);
      buf[n++] = '\r';
      buf[n++] = '\n';
    }
    out.write(buf, 0, n);
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /** Puts the ASCII string {@code s} into {@code buf} at {@code at}; returns the end. */
  @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): ASCII, no copy
  private static int putAscii(String s, byte[] buf, int at) {
    s.getBytes(0, s.length(), buf, at);
    return at + s.length();
  }

  private void ensureReady() {
    if (closed) {
      throw new IllegalStateException("MultipartWriter is closed");
    }
    if (openBody != null) {
      throw new IllegalStateException("the body of part " + (parts - 1) + " is still open");
    }
  }

  private static String checkBoundary(String boundary) {
    if (boundary.isEmpty() || boundary.length() > 70 || boundary.endsWith(" ")) {
      throw new IllegalArgumentException("boundary must be 1 to 70 characters, not ending in"
          + " a space: \"" + boundary + "\"");
    }
    int bad = Boundaries.firstInvalid(boundary, false);
    if (bad >= 0) {
      throw new IllegalArgumentException("invalid boundary character '" + boundary.charAt(bad)
          + "'");
    }
    return boundary;
  }

  /** The body of the open part: writes go straight through; close ends the part. */
  private final class BodyStream extends OutputStream {
    private boolean done;

    @Override
    public void write(int b) throws IOException {
      check();
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      check();
      out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() {
      if (!done) {
        done = true;
        openBody = null;
      }
    }

    private void check() throws IOException {
      if (done) {
        throw new IOException("part body is closed");
      }
    }
  }
}
