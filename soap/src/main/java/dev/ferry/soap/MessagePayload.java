package dev.ferry.soap;

import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MultipartWriter;
import dev.ferry.xop.RootFilter;
import dev.ferry.xop.XopPackage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * A received message going out again: the envelope (spliced, see {@link Message#writeTo}) and,
 * for a multipart package, its attachments forwarded by {@link XopPackage#forwardAttachments}.
 * The package keeps its type, start and start-info; only the boundary is new, since a changed
 * envelope could by chance contain the old one.
 */
final class MessagePayload implements Payload {
  private final Message message;
  private final XopPackage pkg; // null or not multipart: a plain envelope
  private final DeferredOutputStream deferred;
  private final MultipartWriter multipart;
  private final String contentType;
  private final RootFilter filter; // null: the envelope as the message writes it

  MessagePayload(Message message) {
    this(message, null);
  }

  private MessagePayload(Message message, RootFilter filter) {
    this.message = message;
    this.filter = filter;
    XopPackage p = message.attachments();
    this.pkg = p != null && p.isMultipart() ? p : null;
    if (pkg == null) {
      deferred = null;
      multipart = null;
      contentType = message.version().mediaType() + "; charset=UTF-8";
    } else {
      deferred = new DeferredOutputStream();
      multipart = new MultipartWriter(deferred);
      MediaType t = MediaType.of("multipart", pkg.contentType().subtype());
      for (Map.Entry<String, String> e : pkg.contentType().parameters().entrySet()) {
        if (!e.getKey().equalsIgnoreCase("boundary")) {
          t = t.withParameter(e.getKey(), e.getValue());
        }
      }
      contentType = t.withParameter("boundary", multipart.boundary()).toString();
    }
  }

  @Override
  public String contentType() {
    return contentType;
  }

  @Override
  public Payload withRootFilter(RootFilter filter) {
    return new MessagePayload(message, java.util.Objects.requireNonNull(filter));
  }

  private void writeEnvelope(OutputStream out) throws IOException {
    if (filter == null) {
      message.writeTo(out);
    } else {
      filter.apply(message.toByteString()).writeTo(out);
    }
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    if (multipart == null) {
      writeEnvelope(out);
      out.flush();
      return;
    }
    deferred.connect(out);
    MimeHeaders.Builder root = MimeHeaders.builder().addAll(pkg.rootHeaders())
        .set("Content-Transfer-Encoding", "binary");
    MediaType rootType = pkg.rootContentType();
    if (rootType != null && rootType.parameter("charset") != null) {
      root.set("Content-Type", rootType.withParameter("charset", "UTF-8").toString());
    }
    try (OutputStream body = multipart.startPart(root.build())) {
      writeEnvelope(body);
    }
    pkg.forwardAttachments(multipart);
    multipart.close();
  }

  /**
   * Passes writes to a stream given later, keeping what comes before in memory: a MIME or XOP
   * writer exists (and has written its first part's headers) before the sink does.
   */
  static final class DeferredOutputStream extends OutputStream {
    private ByteStringBuilder early = new ByteStringBuilder(256);
    private OutputStream out;

    void connect(OutputStream target) throws IOException {
      if (early == null) {
        // its writer or its attachments were used up by the first write
        throw new IllegalStateException("this payload was written already; a payload is"
            + " written once (it streams its body or attachments): make a new one per send");
      }
      this.out = target;
      early.toByteString().writeTo(target);
      early = null;
    }

    @Override
    public void write(int b) throws IOException {
      if (out == null) {
        early.append((byte) b);
      } else {
        out.write(b);
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (out == null) {
        early.append(b, off, len);
      } else {
        out.write(b, off, len);
      }
    }

    @Override
    public void flush() throws IOException {
      if (out != null) {
        out.flush();
      }
    }
  }
}
