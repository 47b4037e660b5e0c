package dev.ferry.xop;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.Spool;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeHeaders;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * One attachment of an XOP package: its Content-ID, headers and decoded content, held in a
 * {@link Spool} (memory up to {@link XopLimits#attachmentMemoryBytes()}, then a private temp
 * file). Readable any number of times until its package is closed.
 */
public final class Attachment implements Closeable {
  private final String contentId;
  private final MimeHeaders headers;
  private final Spool content;
  private final int partIndex;

  Attachment(String contentId, MimeHeaders headers, Spool content, int partIndex) {
    this.contentId = contentId;
    this.headers = headers;
    this.content = content;
    this.partIndex = partIndex;
  }

  /** Returns the Content-ID without angle brackets, or null if the part had none. */
  public String contentId() {
    return contentId;
  }

  public MimeHeaders headers() {
    return headers;
  }

  /** Returns the part's Content-Type, or {@code application/octet-stream} if it had none. */
  public MediaType contentType() {
    MediaType t = headers.contentType();
    return t != null ? t : MediaType.of("application", "octet-stream");
  }

  /** Returns the index of the part in its package. */
  public int partIndex() {
    return partIndex;
  }

  /** Returns the decoded size in bytes. */
  public long size() {
    return content.size();
  }

  /** Returns a new stream over the decoded content. */
  public InputStream openStream() throws IOException {
    return content.openStream();
  }

  /** Returns the decoded content; no copy while it is held in memory. */
  public ByteString bytes() throws IOException {
    return content.toByteString();
  }

  /** Returns true while the content is in memory rather than in a temp file. */
  public boolean isInMemory() {
    return content.isInMemory();
  }

  /** Releases the content (deletes its temp file). */
  @Override
  public void close() throws IOException {
    content.close();
  }

  @Override
  public String toString() {
    return "Attachment[" + contentId + ", " + size() + " bytes]";
  }
}
