package dev.ferry.xop;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.xop.internal.RootBudget;
import dev.ferry.xop.internal.XmlFactories;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Objects;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;
import org.codehaus.stax2.XMLOutputFactory2;

/**
 * The entry point of the XOP layer: reads packages and makes writers. It owns the StAX factories,
 * built once here and shared by every message (they are the expensive part); create one codec
 * per configuration and keep it. Thread-safe.
 *
 * <pre>{@code
 * XopCodec xop = XopCodec.builder().build();
 * try (XopPackage pkg = xop.read(in, contentType)) {
 *   XopReader r = pkg.newXmlReader();
 *   ... // any StAX consumer; xop:Include elements read as base64 text, or as binary
 * }
 * }</pre>
 */
public final class XopCodec {
  /** A document held in memory up to this size is read with buffers of this size. */
  private static final int SMALL_XML_BYTES = 1024;

  private final XopLimits limits;
  private final boolean lenientLineEnds;
  private final boolean lenientStart;
  private final Path spoolDirectory;
  private final RootBudget rootBudget;
  private final XMLInputFactory inputFactory;
  private final XMLInputFactory smallInputFactory;
  private final XMLOutputFactory2 outputFactory;

  private XopCodec(Builder b) {
    limits = b.limits;
    lenientLineEnds = b.lenientLineEnds;
    lenientStart = b.lenientStart;
    spoolDirectory = b.spoolDirectory;
    rootBudget = new RootBudget(limits.maxHeldRootBytes());
    inputFactory = XmlFactories.input(limits.xml());
    smallInputFactory = XmlFactories.input(limits.xml(), SMALL_XML_BYTES);
    outputFactory = XmlFactories.output();
  }

  /** Returns a codec with default limits and strict rules. */
  public static XopCodec create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Reads a message whose HTTP or MIME Content-Type is {@code contentType}: an XOP/MTOM or SwA
   * package (multipart/related), or plain XML. The root part is read now; attachments are read
   * as they are asked for (or all, by {@link XopPackage#attachments()}).
   *
   * @throws XopException if there is no root part or the package breaks a rule or limit
   * @throws dev.ferry.mime.MimeException if the MIME framing is malformed
   */
  public XopPackage read(InputStream in, String contentType) throws IOException {
    return read(in, contentType(contentType));
  }

  /** Parses a message's Content-Type; a malformed one is an {@link XopException}. */
  public MediaType contentType(String contentType) throws XopException {
    try {
      return MediaType.parse(contentType);
    } catch (MimeException e) {
      throw new XopException("malformed Content-Type: " + e.reason(), e.byteOffset(),
          e.context(), e);
    }
  }

  /** As {@link #read(InputStream, String)}, with the Content-Type parsed already. */
  public XopPackage read(InputStream in, MediaType contentType) throws IOException {
    return read(in, contentType, -1);
  }

  /**
   * Reads a message held whole: as {@link #read(InputStream, MediaType)}, but a plain message's
   * root is {@code message} itself, not a copy.
   */
  public XopPackage read(ByteString message, MediaType contentType) throws IOException {
    if (!contentType.isMultipart()) {
      return XopPackage.plain(this, message, contentType);
    }
    return read(message.asInputStream(), contentType, message.size());
  }

  /**
   * As {@link #read(InputStream, MediaType)}, with the message's length in bytes if known (a
   * Content-Length; else -1): a plain message is then read into an array of that size.
   */
  public XopPackage read(InputStream in, MediaType contentType, long length) throws IOException {
    return XopPackage.read(this, in, contentType, length);
  }

  /**
   * Returns a writer of one message to {@code out}: an MTOM package if {@code policy} says so,
   * else plain XML. {@code rootType} is the root's media type, of which the base type is used:
   * {@code text/xml} for SOAP 1.1, {@code application/soap+xml} for SOAP 1.2, or another XML
   * type for plain XOP. It is taken parsed so that a caller writing many messages parses its
   * constant once, not once a message.
   */
  public XopWriter newWriter(OutputStream out, MtomPolicy policy, MediaType rootType)
      throws IOException {
    return new XopWriter(this, out, policy, rootType, null);
  }

  /**
   * As {@link #newWriter(OutputStream, MtomPolicy, MediaType)}, the root XML held in memory
   * until the writer is closed and sent as {@code filter} changes it, the attachments after it.
   */
  public XopWriter newWriter(OutputStream out, MtomPolicy policy, MediaType rootType,
      RootFilter filter) throws IOException {
    return new XopWriter(this, out, policy, rootType, java.util.Objects.requireNonNull(filter));
  }

  /**
   * Returns a StAX reader (Woodstox, so also an {@code org.codehaus.stax2.XMLStreamReader2} with
   * byte offsets) over {@code xml}, with this codec's rules and limits.
   */
  public XMLStreamReader newXmlReader(InputStream xml, String encoding)
      throws XMLStreamException {
    return encoding == null ? inputFactory.createXMLStreamReader(xml)
        : inputFactory.createXMLStreamReader(xml, encoding);
  }

  /**
   * As {@link #newXmlReader(InputStream, String)}, over bytes held in memory: a small document
   * (most envelopes of MTOM messages) gets a reader with buffers of its size, not the 12 KB a
   * reader allocates for a stream.
   */
  public XMLStreamReader newXmlReader(ByteString xml, String encoding)
      throws XMLStreamException {
    XMLInputFactory f = inputFactory(xml.size());
    return encoding == null ? f.createXMLStreamReader(xml.asInputStream())
        : f.createXMLStreamReader(xml.asInputStream(), encoding);
  }

  /** Returns a StAX writer of UTF-8 to {@code out}. */
  public XMLStreamWriter newXmlWriter(OutputStream out) throws XMLStreamException {
    return outputFactory.createXMLStreamWriter(out, "UTF-8");
  }

  public XopLimits limits() {
    return limits;
  }

  boolean lenientLineEnds() {
    return lenientLineEnds;
  }

  boolean lenientStart() {
    return lenientStart;
  }

  Path spoolDirectory() {
    return spoolDirectory;
  }

  RootBudget rootBudget() {
    return rootBudget;
  }

  /** The input factory for a document of {@code xmlBytes} held in memory. */
  XMLInputFactory inputFactory(int xmlBytes) {
    return xmlBytes <= SMALL_XML_BYTES ? smallInputFactory : inputFactory;
  }

  XMLOutputFactory2 outputFactory() {
    return outputFactory;
  }

  /** Configures an {@link XopCodec}. */
  public static final class Builder {
    private XopLimits limits = XopLimits.DEFAULTS;
    private boolean lenientLineEnds;
    private boolean lenientStart;
    private Path spoolDirectory;

    private Builder() {}

    public Builder limits(XopLimits limits) {
      this.limits = Objects.requireNonNull(limits);
      return this;
    }

    /** Accepts bare LF line ends in the MIME framing (off by default). */
    public Builder lenientLineEnds(boolean lenient) {
      this.lenientLineEnds = lenient;
      return this;
    }

    /**
     * Takes the first part as the root when the {@code start} parameter names no part (off by
     * default: that is an error naming the missing Content-ID).
     */
    public Builder lenientStart(boolean lenient) {
      this.lenientStart = lenient;
      return this;
    }

    /** Directory for attachment temp files; null (default) means {@code java.io.tmpdir}. */
    public Builder spoolDirectory(Path dir) {
      this.spoolDirectory = dir;
      return this;
    }

    public XopCodec build() {
      return new XopCodec(this);
    }
  }
}
