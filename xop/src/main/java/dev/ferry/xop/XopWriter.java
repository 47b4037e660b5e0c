package dev.ferry.xop;

import dev.ferry.bytes.ByteSequence;
import dev.ferry.bytes.ByteString;
import dev.ferry.mime.ContentIds;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MultipartWriter;
import dev.ferry.xop.internal.PooledUtf8Writer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.xml.namespace.NamespaceContext;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes one message: an {@link XMLStreamWriter} for the XML, plus {@code writeBinary} for
 * binary content, which goes inline as base64 or as an attachment as the {@link MtomPolicy}
 * decides. With MTOM the output is an XOP package; without, plain XML. The caller switches
 * between them with the policy alone.
 *
 * <p>The XML streams straight into the root part (no buffering of the envelope); attachments
 * are queued and written after it when the writer is {@linkplain #close() closed}, streamed from
 * their source (an {@link InputStream} is never read whole into memory).
 *
 * <p>The package: {@code multipart/related; type="application/xop+xml"; start="<root>";
 * start-info="<rootType>"}, a root part {@code application/xop+xml; charset=UTF-8;
 * type="<rootType>"}, then one binary part per attachment, Content-IDs from the MIME writer's
 * one random value per message plus a counter. {@code href}s are {@code cid:} URLs that encode
 * only what a URL must ({@code @} stays as it is), which every peer matches. Not thread-safe.
 */
public final class XopWriter implements XMLStreamWriter, AutoCloseable {
  /** Bytes encoded to base64 at a time: a multiple of 3, so that only the last pads. */
  private static final int BASE64_CHUNK = 48 * 1024;
  private static final Base64.Encoder BASE64 = Base64.getEncoder();
  private final OutputStream out;
  private final MtomPolicy policy;
  private final String rootType;
  private final MultipartWriter multipart; // null without MTOM
  private final String rootContentId;
  private final OutputStream rootBody;
  private final RootFilter filter; // null: the XML streams straight into the root part
  private final dev.ferry.bytes.ByteStringBuilder held; // the root XML, with a filter
  private final XMLStreamWriter xml;
  /** What {@link #xml} writes its characters to: UTF-8 through a pooled buffer. */
  private final PooledUtf8Writer utf8;
  private final List<Pending> pending = new ArrayList<>();
  private boolean closed;

  private record Pending(String contentId, String contentType, InputStream source,
      ByteSequence bytes) {}

  XopWriter(XopCodec codec, OutputStream out, MtomPolicy policy, MediaType rootType,
      RootFilter filter) throws IOException {
    this.out = out;
    this.policy = policy;
    this.rootType = rootType.baseType();
    if (policy.isMtom()) {
      multipart = new MultipartWriter(out);
      rootContentId = multipart.nextContentId();
      // rootType is a base type, type/subtype: a '/' in it, so always quoted
      rootBody = multipart.startPart("application/xop+xml; charset=UTF-8; type=\""
          + this.rootType + "\"", rootContentId);
    } else {
      multipart = null;
      rootContentId = null;
      rootBody = out;
    }
    this.filter = filter;
    this.held = filter == null ? null : new dev.ferry.bytes.ByteStringBuilder(8192);
    utf8 = new PooledUtf8Writer(filter == null ? new NonClosing(rootBody)
        : held.asOutputStream());
    try {
      xml = codec.outputFactory().createXMLStreamWriter(utf8, "UTF-8");
    } catch (XMLStreamException e) {
      utf8.release();
      throw new IOException(e);
    }
  }

  /** Returns the Content-Type of the message (for the HTTP header). Known before any write. */
  public String contentType() {
    if (multipart == null) {
      return rootType + "; charset=UTF-8"; // rootType is a parsed base type
    }
    return multipart.relatedContentType("application/xop+xml", rootContentId, rootType)
        .toString();
  }

  /** Returns the policy this writer follows. */
  public MtomPolicy policy() {
    return policy;
  }

  /** Returns the number of attachments queued so far. */
  public int attachmentCount() {
    return pending.size();
  }

  /** Writes {@code data} as element content: an attachment or base64, as the policy says. */
  public void writeBinary(byte[] data, int offset, int length, String contentType)
      throws XMLStreamException {
    java.util.Objects.checkFromIndexSize(offset, length, data.length);
    if (policy.attaches(length)) {
      // copied: the caller may reuse its array before the attachment is written at close
      include(new Pending(multipart.nextContentId(), contentType, null,
          dev.ferry.bytes.ByteString.copyOf(data, offset, length)));
    } else {
      writeBase64(ByteBuffer.wrap(data, offset, length));
    }
  }

  /** Writes {@code data} as element content; an attachment shares it, without a copy. */
  public void writeBinary(ByteSequence data, String contentType) throws XMLStreamException {
    ByteString bytes = data.toByteString();
    if (policy.attaches(bytes.size())) {
      include(new Pending(multipart.nextContentId(), contentType, null, bytes));
    } else {
      writeBase64(bytes.asByteBuffer());
    }
  }

  /**
   * Encodes straight from the caller's bytes into bytes and puts them into the UTF-8 stream as
   * they are: base64 needs no escaping and no encoding, which the StAX writer would do a
   * character at a time. The JDK's encoder (intrinsic on x86) works on whole arrays, so the
   * input goes to it in chunks of {@link #BASE64_CHUNK} bytes, a multiple of 3 (no padding but at
   * the end).
   */
  private void writeBase64(ByteBuffer data) throws XMLStreamException {
    startRawText();
    ByteBuffer in = data.duplicate();
    byte[] chunk = new byte[Math.min(BASE64_CHUNK, in.remaining())];
    byte[] encoded = new byte[encodedLength(chunk.length)];
    try {
      while (in.remaining() >= chunk.length && chunk.length > 0) {
        in.get(chunk);
        utf8.writeAscii(encoded, 0, BASE64.encode(chunk, encoded));
      }
      if (in.hasRemaining()) {
        byte[] last = new byte[in.remaining()];
        in.get(last);
        utf8.writeAscii(encoded, 0, BASE64.encode(last, encoded));
      }
    } catch (IOException e) {
      throw new XMLStreamException(e);
    }
  }

  private static int encodedLength(int bytes) {
    return (bytes + 2) / 3 * 4;
  }

  /**
   * Closes a start tag left open for attributes and has the StAX writer hand its buffered
   * characters to {@link #utf8} (without flushing the stream), so that bytes written there next
   * follow them.
   */
  private void startRawText() throws XMLStreamException {
    ((org.codehaus.stax2.XMLStreamWriter2) xml).writeRaw("");
    utf8.holdStreamFlush(true);
    try {
      xml.flush();
    } finally {
      utf8.holdStreamFlush(false);
    }
  }

  /**
   * Writes the content of {@code data} as element content. With a known {@code length} the
   * policy decides at once; with -1 up to the threshold is read ahead into memory to decide
   * (so a large threshold with streams of unknown length costs that much memory). An attachment
   * keeps the stream and copies it when the writer is closed; inline base64 streams in chunks.
   */
  public void writeBinary(InputStream data, long length, String contentType)
      throws XMLStreamException {
    try {
      InputStream all = data;
      boolean attach;
      if (length >= 0 || !policy.isMtom()) {
        attach = policy.attaches(length);
      } else {
        // Up to the threshold is read ahead to decide: the policy's threshold bounds the memory.
        byte[] head = data.readNBytes((int) Math.min(policy.thresholdBytes(), Integer.MAX_VALUE
            - 8));
        attach = head.length >= policy.thresholdBytes();
        all = new SequenceInputStream(new ByteArrayInputStream(head), data);
      }
      if (attach) {
        include(new Pending(multipart.nextContentId(), contentType, all, null));
      } else {
        writeBase64(all);
      }
    } catch (IOException e) {
      throw new XMLStreamException(e);
    }
  }

  /** Writes an attachment of another package as element content (forwarding). */
  public void writeBinary(Attachment attachment) throws XMLStreamException {
    try {
      writeBinary(attachment.openStream(), attachment.size(),
          attachment.contentType().toString());
    } catch (IOException e) {
      throw new XMLStreamException(e);
    }
  }

  private void writeBase64(InputStream in) throws IOException, XMLStreamException {
    startRawText();
    byte[] chunk = new byte[BASE64_CHUNK];
    byte[] encoded = new byte[encodedLength(BASE64_CHUNK)];
    while (true) {
      int n = in.readNBytes(chunk, 0, chunk.length);
      if (n > 0) {
        byte[] src = n == chunk.length ? chunk : java.util.Arrays.copyOf(chunk, n);
        utf8.writeAscii(encoded, 0, BASE64.encode(src, encoded));
      }
      if (n < chunk.length) {
        return;
      }
    }
  }


  /**
   * Queues {@code source} as an attachment of {@code contentType} and returns its Content-ID,
   * writing nothing into the XML: for a serializer that writes the {@code xop:Include} element
   * itself (JAXB with an {@code AttachmentMarshaller}), which must then refer to
   * {@code cid:} plus that Content-ID. The stream is read, and closed, when this writer is
   * closed.
   *
   * @throws IllegalStateException if the policy is not MTOM (the message is plain XML)
   */
  public String attach(InputStream source, String contentType) {
    return queue(new Pending(nextContentId(), contentType, java.util.Objects.requireNonNull(
        source), null));
  }

  /** As {@link #attach(InputStream, String)}, for bytes in memory (shared, not copied). */
  public String attach(ByteSequence bytes, String contentType) {
    return queue(new Pending(nextContentId(), contentType, null, bytes.toByteString()));
  }

  private String nextContentId() {
    if (multipart == null) {
      throw new IllegalStateException("not an MTOM package (" + policy + "): nothing can be"
          + " attached");
    }
    return multipart.nextContentId();
  }

  private String queue(Pending p) {
    pending.add(p);
    return p.contentId();
  }

  private void include(Pending p) throws XMLStreamException {
    pending.add(p);
    xml.writeStartElement("xop", "Include", XopReader.XOP_NS);
    xml.writeNamespace("xop", XopReader.XOP_NS);
    xml.writeAttribute("href", ContentIds.toCidUrl(p.contentId()));
    xml.writeEndElement();
  }

  /**
   * Ends the XML, then writes the attachments and the closing delimiter. Does not close the
   * underlying stream.
   */
  @Override
  public void close() throws XMLStreamException {
    if (closed) {
      return;
    }
    closed = true;
    xml.flush();
    xml.close();
    utf8.release(); // flushed by the close above
    try {
      if (filter != null) {
        filter.apply(held.toByteString()).writeTo(rootBody);
      }
      if (multipart == null) {
        out.flush();
        return;
      }
      rootBody.close();
      for (Pending p : pending) {
        writeAttachment(p);
      }
      multipart.close();
    } catch (IOException e) {
      throw new XMLStreamException(e);
    }
  }

  private void writeAttachment(Pending p) throws IOException {
    String type = p.contentType() == null ? "application/octet-stream" : p.contentType();
    if (p.bytes() != null) {
      try (OutputStream body = multipart.startPart(type, p.contentId())) {
        p.bytes().writeTo(body);
      }
    } else {
      try (InputStream in = p.source()) {
        multipart.writePart(type, p.contentId(), in);
      }
    }
  }

  // ---- XMLStreamWriter, forwarded ------------------------------------------------------------

  @Override
  public void writeStartElement(String localName) throws XMLStreamException {
    xml.writeStartElement(localName);
  }

  @Override
  public void writeStartElement(String namespaceURI, String localName)
      throws XMLStreamException {
    xml.writeStartElement(namespaceURI, localName);
  }

  @Override
  public void writeStartElement(String prefix, String localName, String namespaceURI)
      throws XMLStreamException {
    xml.writeStartElement(prefix, localName, namespaceURI);
  }

  @Override
  public void writeEmptyElement(String namespaceURI, String localName)
      throws XMLStreamException {
    xml.writeEmptyElement(namespaceURI, localName);
  }

  @Override
  public void writeEmptyElement(String prefix, String localName, String namespaceURI)
      throws XMLStreamException {
    xml.writeEmptyElement(prefix, localName, namespaceURI);
  }

  @Override
  public void writeEmptyElement(String localName) throws XMLStreamException {
    xml.writeEmptyElement(localName);
  }

  @Override
  public void writeEndElement() throws XMLStreamException {
    xml.writeEndElement();
  }

  @Override
  public void writeEndDocument() throws XMLStreamException {
    xml.writeEndDocument();
  }

  @Override
  public void flush() throws XMLStreamException {
    xml.flush();
  }

  @Override
  public void writeAttribute(String localName, String value) throws XMLStreamException {
    xml.writeAttribute(localName, value);
  }

  @Override
  public void writeAttribute(String prefix, String namespaceURI, String localName, String value)
      throws XMLStreamException {
    xml.writeAttribute(prefix, namespaceURI, localName, value);
  }

  @Override
  public void writeAttribute(String namespaceURI, String localName, String value)
      throws XMLStreamException {
    xml.writeAttribute(namespaceURI, localName, value);
  }

  @Override
  public void writeNamespace(String prefix, String namespaceURI) throws XMLStreamException {
    xml.writeNamespace(prefix, namespaceURI);
  }

  @Override
  public void writeDefaultNamespace(String namespaceURI) throws XMLStreamException {
    xml.writeDefaultNamespace(namespaceURI);
  }

  @Override
  public void writeComment(String data) throws XMLStreamException {
    xml.writeComment(data);
  }

  @Override
  public void writeProcessingInstruction(String target) throws XMLStreamException {
    xml.writeProcessingInstruction(target);
  }

  @Override
  public void writeProcessingInstruction(String target, String data)
      throws XMLStreamException {
    xml.writeProcessingInstruction(target, data);
  }

  @Override
  public void writeCData(String data) throws XMLStreamException {
    xml.writeCData(data);
  }

  @Override
  public void writeDTD(String dtd) throws XMLStreamException {
    throw new XMLStreamException("DTDs are not written: SOAP and XOP forbid them");
  }

  @Override
  public void writeEntityRef(String name) throws XMLStreamException {
    xml.writeEntityRef(name);
  }

  @Override
  public void writeStartDocument() throws XMLStreamException {
    xml.writeStartDocument("UTF-8", "1.0");
  }

  @Override
  public void writeStartDocument(String version) throws XMLStreamException {
    xml.writeStartDocument("UTF-8", version);
  }

  @Override
  public void writeStartDocument(String encoding, String version) throws XMLStreamException {
    if (!"UTF-8".equalsIgnoreCase(encoding)) {
      throw new XMLStreamException("XopWriter writes UTF-8 only, not " + encoding);
    }
    xml.writeStartDocument(encoding, version);
  }

  /**
   * Writes {@code xml}, well-formed XML that declares the namespaces it uses, as it is: no
   * escaping and no check (header blocks that were already serialized).
   */
  public void writeRaw(String xml) throws XMLStreamException {
    this.xml.writeCharacters(""); // close a pending start tag first
    ((org.codehaus.stax2.XMLStreamWriter2) this.xml).writeRaw(xml);
  }

  @Override
  public void writeCharacters(String text) throws XMLStreamException {
    xml.writeCharacters(text);
  }

  @Override
  public void writeCharacters(char[] text, int start, int len) throws XMLStreamException {
    xml.writeCharacters(text, start, len);
  }

  @Override
  public String getPrefix(String uri) throws XMLStreamException {
    return xml.getPrefix(uri);
  }

  @Override
  public void setPrefix(String prefix, String uri) throws XMLStreamException {
    xml.setPrefix(prefix, uri);
  }

  @Override
  public void setDefaultNamespace(String uri) throws XMLStreamException {
    xml.setDefaultNamespace(uri);
  }

  @Override
  public void setNamespaceContext(NamespaceContext context) throws XMLStreamException {
    xml.setNamespaceContext(context);
  }

  @Override
  public NamespaceContext getNamespaceContext() {
    return xml.getNamespaceContext();
  }

  @Override
  public Object getProperty(String name) {
    return xml.getProperty(name);
  }

  /** Keeps the XML writer's close from closing the root part's stream. */
  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      out.flush();
    }
  }
}
