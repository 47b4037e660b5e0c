package dev.ferry.soap;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MediaType;
import dev.ferry.soap.internal.Transcoding;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopPackage;
import dev.ferry.xop.internal.XopAccess;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;

/**
 * The entry point of the SOAP layer: reads messages into {@link MessageBuffer}s. It owns the XOP
 * codec and so the StAX factories, built once; create one per configuration and share it.
 * Thread-safe.
 */
public final class SoapCodec {
  private static final XopAccess XOP = XopAccess.get();
  private final SoapLimits limits;
  private final XopCodec xop;

  private SoapCodec(SoapLimits limits, XopCodec.Builder xop) {
    this.limits = limits;
    this.xop = xop.limits(limits.xop()).build();
  }

  /** Returns a codec with default limits and strict rules. */
  public static SoapCodec create() {
    return new SoapCodec(SoapLimits.DEFAULTS, XopCodec.builder());
  }

  /** Returns a codec with {@code limits}; {@code xop} sets line-end and start leniency. */
  public static SoapCodec create(SoapLimits limits, XopCodec.Builder xop) {
    return new SoapCodec(Objects.requireNonNull(limits), xop);
  }

  public SoapLimits limits() {
    return limits;
  }

  public XopCodec xop() {
    return xop;
  }

  /**
   * Reads a message whose Content-Type is {@code contentType}: plain SOAP, SwA or MTOM. The
   * envelope is indexed now; attachments stay in the package and are read when asked for.
   *
   * @throws SoapException if the root is not a SOAP envelope or breaks a limit
   */
  public MessageBuffer read(InputStream in, String contentType) throws IOException {
    return read(in, contentType, -1);
  }

  /**
   * As {@link #read(InputStream, String)}, with the message's length if known (an HTTP
   * Content-Length; else -1): a plain envelope is then read into one array of its size.
   */
  public MessageBuffer read(InputStream in, String contentType, long length)
      throws IOException {
    return read(in, xop.contentType(contentType), length);
  }

  /** As {@link #read(InputStream, String)}, with the Content-Type parsed already. */
  public MessageBuffer read(InputStream in, MediaType contentType) throws IOException {
    return read(in, contentType, -1);
  }

  /** As {@link #read(ByteString, MediaType)}, with the Content-Type as written. */
  public MessageBuffer read(ByteString message, String contentType) throws IOException {
    return read(message, xop.contentType(contentType));
  }

  /**
   * Reads a message held whole (such as an HTTP body received into one array): a plain
   * envelope is indexed where it is, not copied.
   */
  public MessageBuffer read(ByteString message, MediaType contentType) throws IOException {
    if (!contentType.isMultipart()) {
      return index(xop.read(message, contentType));
    }
    return read(message.asInputStream(), contentType, message.size());
  }

  /**
   * As {@link #read(InputStream, MediaType)}, with the message's length if known (an HTTP
   * Content-Length; else -1): a plain envelope is then read into one array of its size.
   */
  public MessageBuffer read(InputStream in, MediaType contentType, long length)
      throws IOException {
    return index(XOP.readLeavingIncludes(xop, in, contentType, length));
  }

  private MessageBuffer index(XopPackage pkg) throws IOException {
    try {
      return MessageBuffer.indexReceived(this, utf8(pkg.root(), declaredCharset(pkg)), pkg);
    } catch (IOException | RuntimeException e) {
      pkg.close();
      throw e;
    }
  }

  /**
   * Returns a new message of {@code version} with {@code headers} (serialized blocks, may be
   * empty) whose Body content {@code body} writes when the payload is written; binary content
   * goes inline or as attachments as {@code policy} says. Nothing is buffered but the first
   * part's MIME headers: the envelope streams to the sink.
   */
  public Payload payload(SoapVersion version, MtomPolicy policy, List<HeaderBlock> headers,
      Payload.BodyWriter body) {
    return new ComposedPayload(this, version, policy, List.copyOf(headers), body);
  }

  /** Indexes an envelope held in memory, with no attachments. */
  public MessageBuffer parse(ByteString envelope) throws IOException {
    return MessageBuffer.index(this, utf8(envelope, null), null);
  }

  /** The root's charset parameter, or the package's, or null if neither has one. */
  private static String declaredCharset(XopPackage pkg) {
    MediaType root = pkg.rootContentType();
    String charset = root == null ? null : root.parameter("charset");
    return charset != null ? charset : pkg.contentType().parameter("charset");
  }

  /** Returns the envelope in UTF-8: as it is, nearly always; else transcoded once. */
  private static ByteString utf8(ByteString envelope, String charset) throws SoapException {
    try {
      return Transcoding.toUtf8(envelope, charset);
    } catch (IllegalArgumentException e) {
      throw new SoapException(e.getMessage(), 0, "envelope");
    }
  }
}
