package dev.ferry.jaxws.internal;

import dev.ferry.mime.ContentIds;
import dev.ferry.xop.Attachment;
import dev.ferry.xop.XopPackage;
import jakarta.activation.DataHandler;
import jakarta.xml.bind.attachment.AttachmentUnmarshaller;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * Resolves the {@code xop:Include} elements JAXB meets against a received package: a
 * {@link DataHandler} field gets the attachment itself ({@link AttachmentDataSource}, read from
 * its spool), a {@code byte[]} field its bytes, and neither passes through base64. The package
 * already refused every href that is not a {@code cid:} URL when it was read; one that names no
 * part is an error here.
 */
final class XopAttachmentUnmarshaller extends AttachmentUnmarshaller {
  private final XopPackage pkg;
  private final Function<Attachment, DataHandler> handlers;

  /** {@code handlers} makes the DataHandler an attachment is handed out as. */
  XopAttachmentUnmarshaller(XopPackage pkg, Function<Attachment, DataHandler> handlers) {
    this.pkg = pkg;
    this.handlers = handlers;
  }

  @Override
  public boolean isXOPPackage() {
    return pkg != null && pkg.isXop();
  }

  @Override
  public DataHandler getAttachmentAsDataHandler(String cid) {
    return handlers.apply(attachment(cid));
  }

  @Override
  public byte[] getAttachmentAsByteArray(String cid) {
    try {
      return attachment(cid).bytes().toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read attachment " + cid, e);
    }
  }

  private Attachment attachment(String href) {
    try {
      String id = ContentIds.isCidUrl(href) ? ContentIds.fromCidUrl(href) : href;
      Attachment a = pkg == null ? null : pkg.attachment(id);
      if (a == null) {
        throw new WebServiceException("xop:Include href=\"" + href + "\" names no part of the"
            + " message");
      }
      return a;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read attachment " + href, e);
    }
  }
}
