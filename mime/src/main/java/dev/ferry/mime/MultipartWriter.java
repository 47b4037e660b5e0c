package dev.ferry.mime;

import dev.ferry.bytes.internal.BufferPool;
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
 * shared pool: AES-CTR keyed from a {@code SecureRandom}, drawn in blocks) plus a counter: no
 * UUID per part. The boundary is unguessable, so content from one sender cannot fake a
 * delimiter of a message another sender's data travels in.
 *
 * <p>For multipart/related messages (RFC 2387: MTOM, SwA), {@link #relatedContentType} and
 * {@link #writePart(String, String, byte[])} write the usual type and part headers without
 * building {@link MediaType} parameters or {@link MimeHeaders} one by one; the bytes are the
 * same.
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
  private static final BufferPool COPY_BUFFERS = new BufferPool(8192, 64);

  private static final byte[] CRLF = {'\r', '\n'};
  private static final byte[] RANDOM_DELIMITER = ascii("\r\n--MIMEBoundary_");
  private static final byte[] ID_DOMAIN = ascii("@ferry.dev");
  private static final int RANDOM_BYTES = 16;
  private static final int HEAD_SIZE = 256;
  private static final byte[] CONTENT_TYPE = ascii("\r\nContent-Type: ");
  private static final byte[] BINARY_AND_ID =
      ascii("\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <");
  private static final byte[] ID_END = ascii(">\r\n\r\n");

  private final OutputStream out;
  private final String boundary;
  private final boolean randomBoundary; // made here: a token
  private final String idSuffix;
  /**
   * A part's delimiter and header section, assembled to be written in one call: it starts with
   * the delimiter (CRLF "--" boundary), which stays there.
   */
  private byte[] head;
  private final int delimiterLength;
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
    this.randomBoundary = boundary == null;
    // one random value per writer: its hex is in the Content-IDs' suffix and the boundary
    byte[] suffix = new byte[1 + 2 * RANDOM_BYTES + ID_DOMAIN.length];
    suffix[0] = '.';
    RandomPool.nextHex(suffix, 1, RANDOM_BYTES);
    System.arraycopy(ID_DOMAIN, 0, suffix, 1 + 2 * RANDOM_BYTES, ID_DOMAIN.length);
    this.idSuffix = new String(suffix, StandardCharsets.ISO_8859_1);
    if (boundary == null) {
      head = new byte[HEAD_SIZE];
      int n = put(RANDOM_DELIMITER, 0, head, 0);
      System.arraycopy(suffix, 1, head, n, 2 * RANDOM_BYTES);
      delimiterLength = n + 2 * RANDOM_BYTES;
      this.boundary = new String(head, 4, delimiterLength - 4, StandardCharsets.ISO_8859_1);
    } else {
      this.boundary = checkBoundary(boundary);
      byte[] delimiter = ascii("\r\n--" + boundary);
      head = Arrays.copyOf(delimiter, delimiter.length + HEAD_SIZE);
      delimiterLength = delimiter.length;
    }
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
    // a random boundary is hex after a token prefix: a token
    return MediaType.multipart(subtype, boundary, randomBoundary, extraParameters);
  }

  /**
   * Returns the Content-Type of a multipart/related message (RFC 2387) with a root part:
   * {@code multipart/related; boundary=B; type="<type>"; start="<rootContentId>";
   * start-info="<startInfo>"} ({@code start-info} left out if null), as MTOM and SwA send it.
   * The same as {@link #contentType(String, String...)} with those pairs, made in one step:
   * the names are known, the values only looked at for what would need an escape.
   *
   * @param type the root part's media type, for example {@code application/xop+xml}
   * @param rootContentId the root's Content-ID without angle brackets
   */
  public MediaType relatedContentType(String type, String rootContentId, String startInfo) {
    String start = "<" + rootContentId + ">";
    if (!randomBoundary || !isPlainMediaType(type)
        || (startInfo != null && !isPlainMediaType(startInfo))
        || !(isIssued(rootContentId) || isPlainQuoted(start))) {
      return startInfo == null ? contentType("related", "type", type, "start", start)
          : contentType("related", "type", type, "start", start, "start-info", startInfo);
    }
    // each value has a '/' or '<' (not a token): quoted, as toString would
    String formatted = "multipart/related; boundary=" + boundary + "; type=\"" + type
        + "\"; start=\"" + start + (startInfo == null ? "\"" : "\"; start-info=\"" + startInfo
        + "\"");
    return MediaType.preformatted("multipart", "related", formatted, startInfo == null
        ? new String[] {"boundary", boundary, "type", type, "start", start}
        : new String[] {"boundary", boundary, "type", type, "start", start, "start-info",
            startInfo});
  }

  /** A {@code type/subtype} value that needs quotes (it has a '/') and no escapes. */
  private static boolean isPlainMediaType(String value) {
    return value.indexOf('/') >= 0 && isPlainQuoted(value);
  }

  /**
   * Nothing in {@code value} would be escaped inside quotes or break a header line. One loop:
   * four {@code indexOf} calls cost more on values this short.
   */
  private static boolean isPlainQuoted(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c <= '"' || c == '\\') && (c == '"' || c == '\\' || c == '\r' || c == '\n')) {
        return false;
      }
    }
    return true;
  }

  /**
   * True if {@code contentId} has the form of this writer's {@link #nextContentId}: digits and
   * the suffix, so it is ASCII without quotes, escapes or line breaks (found in a few ns where a
   * look at each character took about 20).
   */
  private boolean isIssued(String contentId) {
    int digits = contentId.length() - idSuffix.length();
    if (digits < 1 || digits > 10 || !contentId.endsWith(idSuffix)) {
      return false;
    }
    for (int i = 0; i < digits; i++) {
      if ((char) (contentId.charAt(i) - '0') > 9) {
        return false;
      }
    }
    return true;
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

  /**
   * Writes the delimiter and the headers that MTOM and SwA parts carry, {@code Content-Type},
   * {@code Content-Transfer-Encoding: binary} and {@code Content-ID}, and returns a stream for
   * the body, as {@link #startPart(MimeHeaders)} does with those three; without building them
   * as {@link MimeHeaders}.
   *
   * @param contentId without angle brackets (they are added)
   * @throws IllegalArgumentException if a value holds CR or LF
   */
  public OutputStream startPart(String contentType, String contentId) throws IOException {
    writeHead(contentType, contentId);
    openBody = new BodyStream();
    return openBody;
  }

  /** {@link #startPart(String, String)} and a whole body, {@code body}. */
  public void writePart(String contentType, String contentId, byte[] body) throws IOException {
    writeHead(contentType, contentId);
    out.write(body);
  }

  /** Writes a whole part whose body is {@code body}. */
  public void writePart(MimeHeaders headers, byte[] body) throws IOException {
    writeHead(headers);
    out.write(body);
  }

  /** Writes a whole part whose body is the rest of {@code body}, copied in bulk. */
  public void writePart(MimeHeaders headers, InputStream body) throws IOException {
    try (OutputStream o = startPart(headers)) {
      copy(body, o);
    }
  }

  /** {@link #startPart(String, String)} and a whole body, the rest of {@code body}. */
  public void writePart(String contentType, String contentId, InputStream body)
      throws IOException {
    try (OutputStream o = startPart(contentType, contentId)) {
      copy(body, o);
    }
  }

  /**
   * Copies through one small buffer, taken from a pool and given back: InputStream.transferTo
   * allocates its own, and ByteArrayInputStream's (a DataHandler's usual source) one as long as
   * the body, up to 128 KiB, for any stream but the JDK's own.
   */
  private static void copy(InputStream in, OutputStream out) throws IOException {
    byte[] buf = COPY_BUFFERS.take();
    try {
      for (int n; (n = in.read(buf, 0, buf.length)) >= 0; ) {
        out.write(buf, 0, n);
      }
    } finally {
      COPY_BUFFERS.give(buf);
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
    byte[] buf = head(4);
    int n = delimiterLength;
    buf[n++] = '-';
    buf[n++] = '-';
    buf[n++] = '\r';
    buf[n++] = '\n';
    out.write(buf, 0, n);
    out.flush();
  }

  /**
   * Writes a new part's delimiter and header section in one call to the stream: ASCII headers
   * (the usual case) are copied into the head array as they are; any others are encoded as
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
    int length = 4;
    for (int i = 0; i < count; i++) {
      MimeHeaders.Field f = headers.field(i);
      length += f.name().length() + f.value().length() + 4; // ": " and CRLF
    }
    byte[] buf = head(length);
    int n = delimiterLength;
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
    out.write(buf, from, n - from);
  }

  /** The head of {@link #startPart(String, String)}: ASCII values copied in place. */
  private void writeHead(String contentType, String contentId) throws IOException {
    boolean ascii = MimeHeaders.checkValue("Content-Type", contentType)
        & (isIssued(contentId) || MimeHeaders.checkValue("Content-ID", contentId));
    if (!ascii) {
      writeHead(MimeHeaders.builder().add("Content-Type", contentType)
          .add("Content-Transfer-Encoding", "binary")
          .add("Content-ID", "<" + contentId + ">").build());
      return;
    }
    ensureReady();
    int from = parts++ == 0 ? 2 : 0;
    byte[] buf = head(CONTENT_TYPE.length + contentType.length() + BINARY_AND_ID.length
        + contentId.length() + ID_END.length);
    int n = put(CONTENT_TYPE, 0, buf, delimiterLength);
    n = putAscii(MimeHeaders.stripped(contentType), buf, n);
    n = put(BINARY_AND_ID, 0, buf, n);
    n = putAscii(MimeHeaders.stripped(contentId), buf, n);
    n = put(ID_END, 0, buf, n);
    out.write(buf, from, n - from);
  }

  private void writeEncodedHead(MimeHeaders headers, int from) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (MimeHeaders.Field f : headers.fields()) {
      lines.append(f.name()).append(": ").append(f.value()).append("\r\n");
    }
    out.write(head, from, delimiterLength - from);
    out.write(CRLF);
    out.write(lines.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
  }

  /** Returns {@link #head}, grown to hold {@code length} bytes after the delimiter. */
  private byte[] head(int length) {
    if (head.length < delimiterLength + length) {
      head = Arrays.copyOf(head, Math.max(delimiterLength + length, head.length * 2));
    }
    return head;
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
