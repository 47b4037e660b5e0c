package dev.ferry.jaxws.internal;

import dev.ferry.xop.Attachment;
import jakarta.activation.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A received attachment as a {@link DataSource}: each {@link #getInputStream()} reads it from
 * where the package put it (memory, or the spool's temp file), never through base64. Valid until
 * the message it came in is released.
 */
public final class AttachmentDataSource implements DataSource {
  private final Attachment attachment;

  public AttachmentDataSource(Attachment attachment) {
    this.attachment = attachment;
  }

  /** Returns the attachment, so that a reply can send it on from its spool. */
  public Attachment attachment() {
    return attachment;
  }

  @Override
  public InputStream getInputStream() throws IOException {
    return attachment.openStream();
  }

  @Override
  public OutputStream getOutputStream() throws IOException {
    throw new IOException("a received attachment is read-only: " + attachment);
  }

  @Override
  public String getContentType() {
    return attachment.contentType().toString();
  }

  @Override
  public String getName() {
    return attachment.contentId();
  }
}
