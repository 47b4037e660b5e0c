package dev.ferry.mime;

import dev.ferry.mime.internal.Boundaries;
import dev.ferry.mime.internal.RandomPool;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
  private static final byte[] RANDOM_DELIMITER = ascii("\r\n--MIMEBoundary_");
  private static final byte[] HEX = ascii("0123456789abcdef");
  private static final int RANDOM_BYTES = 16;
  private static final int MIN_SCRATCH = 256;

  private final OutputStream out;
  private final String boundary;
  private final boolean randomBoundary; // made here: a token
  private final String idSuffix;
  private final byte[] delimiter; // CRLF "--" boundary
  private byte[] scratch = new byte[MIN_SCRATCH]; // a part's delimiter and header section
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
    byte[] randomDelimiter = randomDelimiter();
    int hexStart = RANDOM_DELIMITER.length;
    String hex = new String(randomDelimiter, hexStart, 2 * RANDOM_BYTES,
        StandardCharsets.ISO_8859_1);
    this.randomBoundary = boundary == null;
    if (boundary == null) {
      this.delimiter = randomDelimiter;
      this.boundary = new String(randomDelimiter, 4, randomDelimiter.length - 4,
          StandardCharsets.ISO_8859_1);
    } else {
      this.boundary = checkBoundary(boundary);
      this.delimiter = ascii("\r\n--" + boundary);
    }
    this.idSuffix = "." + hex + "@ferry.dev";
  }

  /**
   * Returns CRLF "--MIMEBoundary_" and 16 random bytes in hex, written straight into the
   * delimiter's array (the boundary and the Content-IDs' suffix are read off it).
   */
  private static byte[] randomDelimiter() {
    byte[] random = new byte[RANDOM_BYTES];
    RandomPool.nextBytes(random);
    byte[] d = Arrays.copyOf(RANDOM_DELIMITER, RANDOM_DELIMITER.length + 2 * RANDOM_BYTES);
    for (int i = 0, at = RANDOM_DELIMITER.length; i < RANDOM_BYTES; i++) {
      d[at++] = HEX[(random[i] >> 4) & 0xf];
      d[at++] = HEX[random[i] & 0xf];
    }
    return d;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
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
    if (randomBoundary) { // hex after a token prefix: a token, not checked again
      return MediaType.multipart(subtype, boundary, extraParameters);
    }
    String[] parameters = new String[2 + extraParameters.length];
    parameters[0] = "boundary";
    parameters[1] = boundary;
    System.arraycopy(extraParameters, 0, parameters, 2, extraParameters.length);
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
    writeHead(headers);
    openBody = new BodyStream();
    return openBody;
  }

  /** Writes a whole part whose body is {@code body}. */
  public void writePart(MimeHeaders headers, byte[] body) throws IOException {
    writeHead(headers);
    out.write(body);
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
    byte[] buf = scratch(delimiter.length + 4);
    int n = put(delimiter, 0, buf, 0);
    buf[n++] = '-';
    buf[n++] = '-';
    buf[n++] = '\r';
    buf[n++] = '\n';
    out.write(buf, 0, n);
    out.flush();
  }

  /**
   * Writes a new part's delimiter and header section in one call to the stream: ASCII headers
   * (the usual case) are copied into the scratch array as they are; any others are encoded as
   * UTF-8.
   */
  private void writeHead(MimeHeaders headers) throws IOException {
    ensureReady();
    int from = parts++ == 0 ? 2 : 0; // no line break before the first delimiter
    if (!headers.isAscii()) {
      writeEncodedHead(headers, from);
      return;
    }
    int count = headers.size();
    int length = delimiter.length + 4;
    for (int i = 0; i < count; i++) {
      MimeHeaders.Field f = headers.field(i);
      length += f.name().length() + f.value().length() + 4; // ": " and CRLF
    }
    byte[] buf = scratch(length);
    int n = put(delimiter, from, buf, 0);
    buf[n++] = '\r';
    buf[n++] = '\n';
    for (int i = 0; i < count; i++) {
      MimeHeaders.Field f = headers.field(i);
      n = putAscii(f.name(), buf, n);
      buf[n++] = ':';
      buf[n++] = ' ';
      n = putAscii(f.value(), buf, n);
      buf[n++] = '\r';
      buf[n++] = '\n';
    }
    buf[n++] = '\r';
    buf[n++] = '\n';
    out.write(buf, 0, n);
  }

  private void writeEncodedHead(MimeHeaders headers, int from) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (MimeHeaders.Field f : headers.fields()) {
      lines.append(f.name()).append(": ").append(f.value()).append("\r\n");
    }
    out.write(delimiter, from, delimiter.length - from);
    out.write(CRLF);
    out.write(lines.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Returns the scratch array, grown to at least {@code length} bytes. */
  private byte[] scratch(int length) {
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, scratch.length * 2)];
    }
    return scratch;
  }

  private static int put(byte[] bytes, int from, byte[] buf, int at) {
    System.arraycopy(bytes, from, buf, at, bytes.length - from);
    return at + bytes.length - from;
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
