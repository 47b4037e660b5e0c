package dev.ferry.jaxws.internal;

import dev.ferry.mime.ContentIds;
import dev.ferry.xop.XopWriter;
import jakarta.activation.DataHandler;
import jakarta.xml.bind.attachment.AttachmentMarshaller;
import jakarta.xml.ws.WebServiceException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Lets JAXB put binary content into the message as MTOM attachments of an {@link XopWriter}:
 * JAXB asks for a Content-ID and writes the {@code xop:Include} itself, the writer sends the
 * bytes as a part after the envelope, so they never become base64. Content below the policy's
 * threshold, when its size is known, goes inline (JAXB writes base64 when given no Content-ID);
 * a {@link DataHandler} of unknown size is always attached, as CXF and Metro do.
 */
final class XopAttachmentMarshaller extends AttachmentMarshaller {
  private static final String OCTET_STREAM = "application/octet-stream";

  private final XopWriter writer;

  XopAttachmentMarshaller(XopWriter writer) {
    this.writer = writer;
  }

  @Override
  public boolean isXOPPackage() {
    return writer.policy().isMtom();
  }

  @Override
  public String addMtomAttachment(DataHandler data, String elementNamespace,
      String elementLocalName) {
    long size = data.getDataSource() instanceof AttachmentDataSource a
        ? a.attachment().size() : -1;
    if (size >= 0 && !writer.policy().attaches(size)) {
      return null;
    }
    try {
      String type = data.getContentType();
      return ContentIds.toCidUrl(writer.attach(data.getInputStream(),
          type == null ? OCTET_STREAM : type));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the DataHandler of " + elementLocalName, e);
    }
  }

  @Override
  public String addMtomAttachment(byte[] data, int offset, int length, String mimeType,
      String elementNamespace, String elementLocalName) {
    if (!writer.policy().attaches(length)) {
      return null;
    }
    return ContentIds.toCidUrl(writer.attach(new ByteArrayInputStream(data, offset, length),
        mimeType == null ? OCTET_STREAM : mimeType));
  }

  @Override
  public String addSwaRefAttachment(DataHandler data) {
    throw new WebServiceException("swaRef attachments (WS-I Attachments Profile) are not"
        + " supported; send binary content with MTOM");
  }
}
