package dev.ferry.mime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One part of a multipart message being read: its index, headers, and a body that streams from
 * the {@link MultipartReader} that produced it. The body is readable once, until the reader
 * moves to the next part.
 */
public final class Part {
  private final MultipartReader reader;
  private final int index;
  private final MimeHeaders headers;
  private final long bodyOffset;
  private final InputStream body;

  Part(MultipartReader reader, int index, MimeHeaders headers, long bodyOffset) {
    this.reader = reader;
    this.index = index;
    this.headers = headers;
    this.bodyOffset = bodyOffset;
    this.body = new BodyStream();
  }

  /** Returns the 0-based index of this part in its message. */
  public int index() {
    return index;
  }

  public MimeHeaders headers() {
    return headers;
  }

  /** Returns the Content-ID without angle brackets, or null. */
  public String contentId() {
    return headers.contentId();
  }

  /** Returns the absolute offset of the first body byte in the multipart body. */
  public long bodyOffset() {
    return bodyOffset;
  }

  /** Returns the body as sent, without transfer decoding. */
  public InputStream body() {
    return body;
  }

  /**
   * Returns the body with its Content-Transfer-Encoding undone, streaming: base64 and
   * quoted-printable are decoded; 7bit, 8bit, binary and none pass through.
   *
   * @throws MimeException if the transfer encoding is not one of these
   */
  public InputStream decodedBody() throws MimeException {
    String cte = headers.contentTransferEncoding();
    if (TransferEncodings.isIdentity(cte)) {
      return body;
    }
    try {
      return TransferEncodings.decode(cte, body, bodyOffset, "part " + index + " > body");
    } catch (MimeException e) {
      throw new MimeException(e.reason(), -1, "part " + index + " > headers");
    }
  }

  @Override
  public String toString() {
    return "Part[" + index + " " + headers + "]";
  }

  private final class BodyStream extends InputStream {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return reader.readBody(Part.this, one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return reader.readBody(Part.this, b, off, len);
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
      return reader.transferBody(Part.this, out);
    }

    @Override
    public long skip(long n) throws IOException {
      byte[] scratch = new byte[(int) Math.min(n, 8192)];
      long skipped = 0;
      while (skipped < n) {
        int r = read(scratch, 0, (int) Math.min(n - skipped, scratch.length));
        if (r < 0) {
          break;
        }
        skipped += r;
      }
      return skipped;
    }
  }
}
