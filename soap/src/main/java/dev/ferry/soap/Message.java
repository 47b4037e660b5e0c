package dev.ferry.soap;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.xop.XopPackage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A SOAP message: a header overlay on an immutable {@link MessageBuffer}. Adding, removing and
 * replacing header blocks changes only the overlay; the body stays a slice of the buffer unless
 * it is {@linkplain #replaceBody replaced}.
 *
 * <p>{@link #copy()} costs O(number of header blocks), changed or not, and never parses or
 * copies the body. {@link #writeTo} splices the envelope's own bytes, the blocks (original
 * slices or new ones) and the body slice; an untouched message is written as the bytes received.
 *
 * <pre>{@code
 * Message m = codec.read(in, contentType).toMessage();
 * String action = m.addressing().action();
 * Message forward = m.copy();
 * forward.addressing().setTo("http://backend/service");
 * forward.writeTo(out);        // m is unchanged
 * }</pre>
 *
 * Not thread-safe; copies are independent of each other.
 */
public final class Message {
  private MessageBuffer buffer;
  private final List<HeaderBlock> headers;
  private ByteString body; // null: the buffer's body

  Message(MessageBuffer buffer) {
    this(buffer, new ArrayList<>(buffer.headers()), null);
  }

  private Message(MessageBuffer buffer, List<HeaderBlock> headers, ByteString body) {
    this.buffer = buffer;
    this.headers = headers;
    this.body = body;
  }

  public SoapVersion version() {
    return buffer.version();
  }

  /** Returns the buffer this message overlays. */
  public MessageBuffer buffer() {
    return buffer;
  }

  /** Returns the attachments' package, or null (shared by copies: they are not copied). */
  public XopPackage attachments() {
    return buffer.attachments();
  }

  /** Returns the current header blocks, in order (a read-only view). */
  public List<HeaderBlock> headers() {
    return Collections.unmodifiableList(headers);
  }

  /** Returns the first header block called {@code name}, or null. */
  public HeaderBlock header(QName name) {
    for (HeaderBlock b : headers) {
      if (b.name().equals(name)) {
        return b;
      }
    }
    return null;
  }

  /** Appends a header block. */
  public Message addHeader(HeaderBlock block) {
    headers.add(block);
    return this;
  }

  /** Removes every header block called {@code name}; returns how many. */
  public int removeHeaders(QName name) {
    int before = headers.size();
    headers.removeIf(b -> b.name().equals(name));
    return before - headers.size();
  }

  /**
   * Replaces the first block called {@code block.name()} in place (removing any others of that
   * name), or appends it if there is none.
   */
  public Message replaceHeader(HeaderBlock block) {
    int at = -1;
    HeaderBlock replaced = null;
    for (int i = headers.size() - 1; i >= 0; i--) {
      if (headers.get(i).name().equals(block.name())) {
        replaced = headers.remove(i);
        at = i;
      }
    }
    if (replaced == null) {
      headers.add(block);
    } else {
      headers.add(at, block.withLeading(replaced.leading())); // keep the layout
    }
    return this;
  }

  /** Returns a typed view of the WS-Addressing 1.0 headers, for reading and setting. */
  public Addressing addressing() {
    return new Addressing(this);
  }

  /**
   * Returns the mustUnderstand blocks addressed to this node (no role, or one of
   * {@code roles}, or the version's "next" role) whose names are not in {@code understood}:
   * a non-empty result means the node must answer with a MustUnderstand fault.
   */
  public List<HeaderBlock> notUnderstood(Set<QName> understood, Set<String> roles) {
    List<HeaderBlock> out = new ArrayList<>();
    for (HeaderBlock b : headers) {
      boolean forUs = b.role() == null || roles.contains(b.role()) || isNextRole(b.role());
      if (b.mustUnderstand() && forUs && !understood.contains(b.name())) {
        out.add(b);
      }
    }
    return out;
  }

  private boolean isNextRole(String role) {
    return role.equals(version() == SoapVersion.SOAP_11
        ? "http://schemas.xmlsoap.org/soap/actor/next"
        : "http://www.w3.org/2003/05/soap-envelope/role/next")
        || role.equals("http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver");
  }

  /** Returns an independent copy: the overlay is copied, the buffer and body are shared. */
  public Message copy() {
    return new Message(buffer, new ArrayList<>(headers), body);
  }

  /**
   * Replaces the Body's content with {@code content}, XML that declares every namespace it uses
   * (or uses those the envelope declares).
   */
  public Message replaceBody(ByteString content) {
    String tag = buffer.qualified("Body");
    ByteStringBuilder b = new ByteStringBuilder(content.size() + 2 * tag.length() + 5);
    b.appendUtf8("<" + tag + ">").append(content).appendUtf8("</" + tag + ">");
    body = b.toByteString();
    return this;
  }

  /**
   * Replaces the whole Body element, its own tags included, with {@code element}: for content
   * derived from the received body's bytes, such as a renamed operation element.
   */
  public Message replaceBodyElement(ByteString element) {
    body = element;
    return this;
  }

  /**
   * Replaces the whole envelope with {@code envelope} (UTF-8), indexed now; the attachments stay
   * the package's. For a step that rewrites the envelope as a whole, such as WS-Security signing
   * or decrypting it. Copies made before keep the old envelope.
   *
   * @throws SoapException if {@code envelope} is not a SOAP envelope of this message's version
   */
  public Message replaceEnvelope(ByteString envelope) throws IOException {
    MessageBuffer b = MessageBuffer.index(buffer.codec(), envelope, buffer.attachments());
    if (b.version() != buffer.version()) {
      throw new SoapException("the new envelope is " + b.version() + ", the message "
          + buffer.version(), 0, "envelope");
    }
    buffer = b;
    headers.clear();
    headers.addAll(b.headers());
    body = null;
    return this;
  }

  /** Returns the Body element as bytes: the buffer's slice, or the replacement. */
  public ByteString body() {
    return body != null ? body : buffer.body();
  }

  /**
   * Returns a StAX reader positioned on the Body's start tag: the Envelope's child after its
   * Header, found by the envelope's structure, never by name (an element called Body elsewhere,
   * such as inside a header block, is not the Body). Parses the envelope up to there; with a
   * package, {@code xop:Include} elements read as the package's {@code XopReader} says.
   */
  public XMLStreamReader bodyReader() throws IOException {
    return bodyReader(buffer.attachments() != null);
  }

  /**
   * As {@link #bodyReader}, with {@code xop:Include} elements read as the elements they are:
   * nothing of the package is read, so a node that looks at the Body on its way through (a
   * broker routing on it) leaves the attachments to stream on.
   */
  public XMLStreamReader bodyXmlReader() throws IOException {
    return bodyReader(false);
  }

  private XMLStreamReader bodyReader(boolean includes) throws IOException {
    ByteString xml = toByteString();
    try {
      XMLStreamReader r = includes
          ? buffer.attachments().newXmlReader(xml, "UTF-8")
          : buffer.codec().xop().newXmlReader(xml, null);
      toEnvelopeChild(r);
      if (isEnvelopeChild(r, "Header")) {
        skipElement(r);
        toEnvelopeChild(r);
      }
      if (!isEnvelopeChild(r, "Body")) {
        throw new SoapException("no Body where the envelope has it (after the Header)", -1,
            "envelope");
      }
      return r;
    } catch (XMLStreamException e) {
      throw new SoapException("malformed envelope: " + e.getMessage(), -1, "envelope", e);
    }
  }

  /** Moves to the next element event (from the document's start: into the Envelope). */
  private static void toEnvelopeChild(XMLStreamReader r) throws XMLStreamException {
    boolean inEnvelope = r.getEventType() != XMLStreamConstants.START_DOCUMENT;
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.END_ELEMENT) {
        return; // the Envelope's end: no child left
      }
      if (e == XMLStreamConstants.START_ELEMENT) {
        if (inEnvelope) {
          return;
        }
        inEnvelope = true; // the Envelope itself
      }
    }
  }

  private boolean isEnvelopeChild(XMLStreamReader r, String local) {
    return r.getEventType() == XMLStreamConstants.START_ELEMENT
        && local.equals(r.getLocalName()) && version().namespace().equals(r.getNamespaceURI());
  }

  /** From an element's start to its end, whatever it holds. */
  private static void skipElement(XMLStreamReader r) throws XMLStreamException {
    for (int depth = 1; depth > 0; ) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        depth--;
      }
    }
  }

  /** Returns true if the body's first element is a SOAP Fault. */
  public boolean isFault() throws IOException {
    try {
      XMLStreamReader r = bodyReader();
      while (r.hasNext()) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          return r.getName().equals(version().qname("Fault"));
        }
        if (e == XMLStreamConstants.END_ELEMENT) {
          return false;
        }
      }
      return false;
    } catch (XMLStreamException e) {
      throw new SoapException("malformed body: " + e.getMessage(), -1, "Body", e);
    }
  }

  /** Writes the envelope (not the attachments) to {@code out}. */
  public void writeTo(OutputStream out) throws IOException {
    if (isUntouched()) {
      buffer.envelope().writeTo(out); // the bytes as received
      return;
    }
    buffer.write(out, headers, body);
  }

  /**
   * Returns this message as it goes on the wire: the envelope (as {@link #writeTo} writes it)
   * and, for a multipart package, every attachment, forwarded without a spool where not read
   * yet. The package is consumed by writing, so a message is sent once.
   */
  public Payload toPayload() {
    return new MessagePayload(this);
  }

  /**
   * Writes this message's envelope over its package where that is held whole in {@code held}
   * ({@code length} bytes at {@code offset}; the {@code offset} bytes before are room to grow
   * into) and returns the package's new head, up to the envelope's end: the message as it goes
   * on is that head and then {@code held}'s bytes from the head's {@code limit()} to
   * {@code offset + length}, the attachments where they are (see {@link XopPackage#spliceRoot}).
   * Returns null if it cannot be done this way, such as for a plain envelope or one transcoded
   * to UTF-8 when read; then write the message out instead.
   *
   * @throws IOException if a part after the root is malformed, over a limit, or missing
   */
  public ByteBuffer spliceInto(byte[] held, int offset, int length) throws IOException {
    XopPackage pkg = buffer.attachments();
    if (pkg == null || buffer.envelope() != pkg.root()) {
      return null; // plain, or transcoded: the package's root is not these bytes
    }
    return pkg.spliceRoot(toByteString(), held, offset, length);
  }

  /** Returns the envelope as bytes: the received bytes themselves while nothing changed. */
  public ByteString toByteString() throws IOException {
    if (isUntouched()) {
      return buffer.envelope();
    }
    ByteStringBuilder b = new ByteStringBuilder(buffer.envelope().size() + 256);
    buffer.write(b.asOutputStream(), headers, body);
    return b.toByteString();
  }

  private boolean isUntouched() {
    return body == null && buffer.isOriginal(headers);
  }

  @Override
  public String toString() {
    return "Message[" + version() + ", " + headers.size() + " header blocks]";
  }
}
