package dev.ferry.soap;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.DecodeException;
import dev.ferry.bytes.internal.BytesAccess;
import dev.ferry.soap.internal.Utf8Offsets;
import dev.ferry.xop.XopException;
import dev.ferry.xop.XopPackage;
import dev.ferry.xop.XopReader;
import dev.ferry.xop.internal.XmlErrors;
import dev.ferry.xop.internal.XopAccess;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import org.codehaus.stax2.XMLStreamReader2;

/**
 * An immutable received SOAP message: the envelope bytes, an index built in one StAX pass over
 * the header section (each header block is a slice of those bytes), the body as one slice that
 * is not parsed, and the attachments, referenced in their package, not copied.
 *
 * <pre>
 *  envelope: [prolog + &lt;Envelope ...&gt; ws][&lt;Header&gt;][ws block][ws block]...
 *            [ws &lt;/Header&gt;][ws]
 *            [&lt;Body&gt; ... &lt;/Body&gt;][ws &lt;/Envelope&gt; ws]
 *            ^0          headerOpenStart^           headerCloseStart^   bodyStart^  bodyEnd^
 * </pre>
 *
 * <p>The body's end is found from the end of the envelope ({@code </Body> </Envelope>}); only
 * if that shape is not there is the body parsed to find it. A {@link Message} over the buffer
 * adds, removes and replaces header blocks without touching these bytes.
 */
public final class MessageBuffer implements Closeable {
  private static final BytesAccess BYTES = BytesAccess.get();
  private static final XopAccess XOP = XopAccess.get();
  private final SoapCodec codec;
  private final SoapVersion version;
  private final ByteString envelope;
  private final String envelopePrefix;
  private final int headerOpenStart; // -1 when the envelope has no Header element
  private final int headerOpenEnd;
  private final int headerCloseStart;
  private final int headerCloseEnd;
  private final boolean headerSelfClosing;
  private final int bodyStart;
  private final int bodyEnd;
  private final QName bodyElement; // null for an empty Body
  private final int bodyPrefixLength;
  private final List<HeaderBlock> headers;
  private final XopPackage attachments; // null for a plain envelope
  private volatile boolean bodyChecked; // read through, by the index or a check: nothing left

  private MessageBuffer(Indexer ix, XopPackage attachments) {
    this.codec = ix.codec;
    this.version = ix.version;
    this.envelope = ix.envelope;
    this.envelopePrefix = ix.envelopePrefix;
    this.headerOpenStart = ix.headerOpenStart;
    this.headerOpenEnd = ix.headerOpenEnd;
    this.headerCloseStart = ix.headerCloseStart;
    this.headerCloseEnd = ix.headerCloseEnd;
    this.headerSelfClosing = ix.headerSelfClosing;
    this.bodyStart = ix.bodyStart;
    this.bodyEnd = ix.bodyEnd;
    this.bodyElement = ix.bodyElement;
    this.bodyPrefixLength = ix.bodyPrefix.getBytes(java.nio.charset.StandardCharsets.UTF_8)
        .length;
    this.headers = Collections.unmodifiableList(ix.blocks);
    this.attachments = attachments;
    this.bodyChecked = ix.bodyRead;
  }

  static MessageBuffer index(SoapCodec codec, ByteString envelope, XopPackage pkg)
      throws IOException {
    return index(codec, envelope, pkg, false);
  }

  /**
   * Indexes the root of {@code pkg}, just read by {@link XopAccess#readLeavingIncludes}: the
   * index reports its {@code xop:Include} elements to the package, reading the Body through if
   * the root uses the XOP namespace (the package would otherwise parse the root once more).
   */
  static MessageBuffer indexReceived(SoapCodec codec, ByteString envelope, XopPackage pkg)
      throws IOException {
    MessageBuffer b = index(codec, envelope, pkg, true);
    XOP.includesRead(pkg);
    return b;
  }

  private static MessageBuffer index(SoapCodec codec, ByteString envelope, XopPackage pkg,
      boolean reportIncludes) throws IOException {
    boolean includes = reportIncludes && XOP.mayInclude(pkg, envelope);
    Indexer ix = new Indexer(codec, envelope, includes ? pkg : null);
    try {
      ix.run();
    } catch (XMLStreamException e) {
      throw ix.failure(e);
    }
    return new MessageBuffer(ix, pkg);
  }

  public SoapVersion version() {
    return version;
  }

  /** Returns the envelope bytes as received (after transfer decoding). */
  public ByteString envelope() {
    return envelope;
  }

  /** Returns the header blocks in document order. */
  public List<HeaderBlock> headers() {
    return headers;
  }

  /**
   * Returns the Body element, from its start tag to its end tag, as a slice. The index finds the
   * Body's end from the envelope's tail without parsing the Body; in an envelope with a second
   * Body after the first, which {@link #checkBody} refuses, the slice spans both.
   */
  public ByteString body() {
    return envelope.subSequence(bodyStart, bodyEnd - bodyStart);
  }

  /**
   * Returns the name of the Body's first child element (for a request, the operation in
   * document/literal; for a fault, {@code Fault}), or null if the Body holds no element.
   */
  public QName bodyElement() {
    return bodyElement;
  }

  /**
   * Reads the Body through and checks what the index did not: the XML limits over its whole
   * content (depth, attributes, text, elements, as {@link dev.ferry.xop.XmlLimits} says), and
   * that the envelope has one Body, its last child. The index reads the Body only as far as its
   * first element, so that a message forwarded or sliced costs no parse of its content; a
   * consumer that parses the Body ({@link Message#bodyReader}) meets the same limits as it
   * reads. A server calls this before it dispatches; a forwarder leaves it to the next hop; a
   * guard that verifies a signature checks the envelope's shape in its own pass.
   *
   * @throws SoapException naming the limit hit or what is wrong, at its byte offset
   */
  public void checkBody() throws SoapException {
    if (bodyChecked) {
      return;
    }
    XMLStreamReader2 r = null;
    try {
      r = (XMLStreamReader2) codec.xop().newXmlReader(envelope, null);
      for (int depth = 0; r.hasNext(); ) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          depth++;
          if (depth == 2 && r.getLocalName().equals("Body")
              && version.namespace().equals(r.getNamespaceURI())) {
            r.skipElement();
            depth--;
            int next = r.nextTag();
            if (next == XMLStreamConstants.START_ELEMENT) {
              throw new SoapException("unexpected " + r.getName() + " after the Body (an"
                  + " envelope has one Body, its last child)", new Utf8Offsets(envelope)
                  .byteOffset(r.getLocationInfo().getStartingCharOffset()), "envelope");
            }
            bodyChecked = true;
            return;
          }
        } else if (e == XMLStreamConstants.END_ELEMENT) {
          depth--;
        }
      }
    } catch (XMLStreamException e) {
      XopException x = XmlErrors.translate(e, "Body", r == null ? null : r.getLocation());
      long at = x.byteOffset() < 0 ? -1 : new Utf8Offsets(envelope).byteOffset(x.byteOffset());
      throw x.isLimitExceeded() ? SoapException.limitExceeded(x.limitName(), x.limitValue(),
          x.actualValue(), at, "Body") : new SoapException(x.reason().replace(
              "malformed or refused XML", "malformed Body"), at, "Body", e);
    }
  }

  /**
   * Checks that every reader of the message finds the Body this index found, the one
   * {@link Message#bodyReader} returns: the Envelope's children are an optional Header and one
   * Body, and no element in the Header is called Body (a reader that takes the first element of
   * that name would take it for the Body). For a node that acts on what the Body says without
   * reading it through, such as a broker routing on its content: what it read must be what the
   * next hop reads. {@link #checkBody} checks more and reads the whole Body.
   *
   * <p>No tag can be called Body without the bytes {@code Body}, so this costs a search of the
   * envelope's bytes while they occur only in the Body's own tags; anywhere else (in a header
   * block's text, an element of the Body's content) they send it to a parse of the envelope.
   *
   * @throws SoapException naming what is wrong and where
   */
  public void checkShape() throws SoapException {
    if (headerOpenStart >= 0 && indexOf(BODY_NAME, headerOpenEnd, headerCloseStart) >= 0) {
      parseShape();
      return;
    }
    if (bodyChecked) {
      return; // the index read the Body through and found the Envelope's end after it
    }
    int startName = bodyStart + 1 + (bodyPrefixLength > 0 ? bodyPrefixLength + 1 : 0);
    int endName = bodyEndTagName();
    if (endName < 0 || indexOf(BODY_NAME, startName + BODY_NAME.length, endName) >= 0) {
      parseShape();
    }
  }

  private static final byte[] BODY_NAME = {'B', 'o', 'd', 'y'};

  /** Where the name's {@code Body} is in the Body's end tag, or -1. */
  private int bodyEndTagName() {
    int i = bodyEnd - 1; // on the end tag's '>'
    while (i > bodyStart && isSpace(envelope.byteAt(i - 1))) {
      i--;
    }
    i -= BODY_NAME.length;
    return i > bodyStart && envelope.byteAt(i) == 'B' ? i : -1;
  }

  private static boolean isSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\r' || b == '\n';
  }

  /** The first {@code name} in the envelope's bytes {@code [start, end)}, or -1. */
  private int indexOf(byte[] name, int start, int end) {
    byte[] a = BYTES.array(envelope);
    int base = BYTES.arrayOffset(envelope);
    int last = base + end - name.length;
    for (int i = base + start; i <= last; i++) {
      if (a[i] == name[0] && a[i + 1] == name[1] && a[i + 2] == name[2]
          && a[i + 3] == name[3]) {
        return i - base;
      }
    }
    return -1;
  }

  /** {@link #checkShape} by a parse of the envelope: where its bytes did not settle it. */
  private void parseShape() throws SoapException {
    XMLStreamReader2 r = null;
    try {
      r = (XMLStreamReader2) codec.xop().newXmlReader(envelope, null);
      int children = 0;
      boolean inHeader = false;
      for (int depth = 0; r.hasNext(); ) {
        int e = r.next();
        if (e == XMLStreamConstants.END_ELEMENT) {
          inHeader &= --depth > 1;
          continue;
        }
        if (e != XMLStreamConstants.START_ELEMENT) {
          continue;
        }
        depth++;
        String local = r.getLocalName();
        boolean soap = version.namespace().equals(r.getNamespaceURI());
        String wrong = null;
        if (depth == 2) {
          children++;
          inHeader = soap && children == 1 && local.equals("Header");
          if (!inHeader && !(soap && local.equals("Body") && children == (headerOpenStart >= 0
              ? 2 : 1))) {
            wrong = "the Envelope's child " + children + " is " + r.getName() + " (expected: an"
                + " optional Header, then one Body)";
          }
        } else if (inHeader && local.equals("Body")) {
          wrong = "an element called Body in the Header (" + r.getName() + ")";
        }
        if (wrong != null) {
          throw new SoapException(wrong, new Utf8Offsets(envelope).byteOffset(
              r.getLocationInfo().getStartingCharOffset()), "envelope");
        }
      }
    } catch (XMLStreamException e) {
      XopException x = XmlErrors.translate(e, "envelope", r == null ? null : r.getLocation());
      long at = x.byteOffset() < 0 ? -1 : new Utf8Offsets(envelope).byteOffset(x.byteOffset());
      throw new SoapException(x.reason().replace("malformed or refused XML",
          "malformed envelope"), at, "envelope", e);
    }
  }

  /** Returns the attachments' package, or null for a plain envelope. */
  public XopPackage attachments() {
    return attachments;
  }

  /** Returns a new message over this buffer, with the buffer's headers. */
  public Message toMessage() {
    return new Message(this);
  }

  /** Releases the attachments (temp files). */
  @Override
  public void close() throws IOException {
    if (attachments != null) {
      attachments.close();
    }
  }

  SoapCodec codec() {
    return codec;
  }

  /**
   * Writes an envelope made of this buffer's bytes with {@code blocks} as its header blocks and
   * {@code body} (null: this buffer's body) as its Body element.
   */
  void write(OutputStream out, List<HeaderBlock> blocks, ByteString body) throws IOException {
    Splice w = new Splice(out);
    // A self-closing <Header/> is written as it was only while it stays empty.
    boolean hasHeader = headerOpenStart >= 0 && !(headerSelfClosing && !blocks.isEmpty());
    w.original(0, headerOpenStart >= 0 ? headerOpenStart : bodyStart);
    if (hasHeader || !blocks.isEmpty()) {
      if (hasHeader) {
        w.original(headerOpenStart, headerOpenEnd);
      } else {
        w.bytes(ByteString.encodeUtf8('<' + qualified("Header") + '>'));
      }
      for (HeaderBlock b : blocks) {
        int at = b.startIn(envelope);
        if (at >= 0) {
          w.original(at, at + b.leading().size() + b.xml().size());
        } else {
          w.bytes(b.leading());
          w.bytes(b.xml());
        }
      }
      if (hasHeader) {
        w.original(headerCloseStart, headerCloseEnd);
      } else {
        w.bytes(ByteString.encodeUtf8("</" + qualified("Header") + '>'));
      }
      if (headerOpenStart >= 0) {
        w.original(headerCloseEnd, bodyStart);
      }
    }
    if (body != null) {
      w.bytes(body);
    } else {
      w.original(bodyStart, bodyEnd);
    }
    w.original(bodyEnd, envelope.size());
    w.flush();
  }

  /**
   * Writes pieces of an envelope, joining ranges of the original bytes that follow each other
   * into one write: an envelope with one header replaced is written in a handful of writes, not
   * one per block.
   */
  private final class Splice {
    private final OutputStream out;
    private int runStart = -1;
    private int runEnd = -1;

    Splice(OutputStream out) {
      this.out = out;
    }

    void original(int start, int end) throws IOException {
      if (start == end) {
        return;
      }
      if (start != runEnd) {
        flush();
        runStart = start;
      }
      runEnd = end;
    }

    /**
     * Writes {@code b}; when it is itself a range of the envelope (the white space a replaced
     * block keeps), as that range, so that it joins the run before it.
     */
    void bytes(ByteString b) throws IOException {
      if (b.isEmpty()) {
        return;
      }
      int at = BYTES.array(b) == BYTES.array(envelope)
          ? BYTES.arrayOffset(b) - BYTES.arrayOffset(envelope) : -1;
      if (at >= 0 && at + b.size() <= envelope.size()) {
        original(at, at + b.size());
        return;
      }
      flush();
      b.writeTo(out);
    }

    void flush() throws IOException {
      if (runStart >= 0 && runEnd > runStart) {
        out.write(BYTES.array(envelope), BYTES.arrayOffset(envelope) + runStart,
            runEnd - runStart);
      }
      runStart = -1;
      runEnd = -1;
    }
  }

  /** Returns true if {@code blocks} are exactly this buffer's blocks, in order. */
  boolean isOriginal(List<HeaderBlock> blocks) {
    if (blocks.size() != headers.size()) {
      return false;
    }
    for (int i = 0; i < blocks.size(); i++) {
      if (blocks.get(i) != headers.get(i)) {
        return false;
      }
    }
    return true;
  }

  String qualified(String local) {
    return envelopePrefix.isEmpty() ? local : envelopePrefix + ":" + local;
  }

  /** One pass over the header section; records offsets, blocks and the body's extent. */
  private static final class Indexer {
    final SoapCodec codec;
    final ByteString envelope;
    XMLStreamReader2 r;
    final Utf8Offsets offsets; // the parser reports chars; slices need bytes
    SoapVersion version;
    String envelopePrefix;
    int headerOpenStart = -1;
    int headerOpenEnd = -1;
    int headerCloseStart = -1;
    int headerCloseEnd = -1;
    boolean headerSelfClosing;
    int bodyStart;
    int bodyEnd;
    String bodyPrefix;
    QName bodyElement;
    final List<HeaderBlock> blocks = new ArrayList<>();
    /** The package to report {@code xop:Include} elements to; null: none to look for. */
    final XopPackage includesOf;
    boolean bodyRead;
    private int lastEnd;

    Indexer(SoapCodec codec, ByteString envelope, XopPackage includesOf) {
      this.codec = codec;
      this.envelope = envelope;
      this.offsets = new Utf8Offsets(envelope);
      this.includesOf = includesOf;
    }

    void run() throws XMLStreamException, DecodeException {
      r = (XMLStreamReader2) codec.xop().newXmlReader(envelope, null);
      try {
        requireUtf8();
        envelopeStart();
        int e = nextElementEvent();
        if (e == XMLStreamConstants.START_ELEMENT && isEnvelopeChild("Header")) {
          header();
          e = nextElementEvent();
        }
        if (e != XMLStreamConstants.START_ELEMENT || !isEnvelopeChild("Body")) {
          throw new SoapException("expected " + version.qname("Body") + " but found "
              + describe(e), start(), "envelope");
        }
        bodyStart = start();
        bodyPrefix = r.getPrefix() == null ? "" : r.getPrefix();
        bodyElement = firstChild();
        if (includesOf != null) {
          bodyEnd = readBody();
          requireEnvelopeEnd();
          bodyRead = true; // read through, and nothing but the Envelope's end after it
          return;
        }
        if (bodyElement == null) {
          bodyEnd = end(); // the parser stands on the Body's end tag
          requireEnvelopeEnd();
          bodyRead = true;
          return;
        }
        bodyEnd = bodyEndFromTail();
        if (bodyEnd < 0) {
          // the tail is not the usual shape: parse the Body to find its end, check what follows
          r.skipElement();
          bodyEnd = endOfBody();
          requireEnvelopeEnd();
        }
      } finally {
        r.close();
      }
    }

    /** The exception for a parser failure: a limit by name, else malformed, at a byte offset. */
    SoapException failure(XMLStreamException e) {
      XopException x = XmlErrors.translate(e, "envelope", r == null ? null : r.getLocation());
      long at = x.byteOffset() < 0 ? -1 : new Utf8Offsets(envelope).byteOffset(x.byteOffset());
      if (x.isLimitExceeded()) {
        return SoapException.limitExceeded(x.limitName(), x.limitValue(), x.actualValue(), at,
            "envelope");
      }
      return new SoapException(x.reason().replace("malformed or refused XML", "malformed envelope"),
          at, "envelope", e);
    }

    private void requireUtf8() throws SoapException {
      String declared = r.getCharacterEncodingScheme();
      String used = r.getEncoding();
      for (String e : new String[] {declared, used}) {
        if (e != null && !e.equalsIgnoreCase("UTF-8") && !e.equalsIgnoreCase("UTF8")
            && !e.equalsIgnoreCase("US-ASCII")) {
          throw new SoapException("envelope encoding " + e + " is not supported (expected:"
              + " UTF-8, which SOAP stacks send)", 0, "envelope");
        }
      }
    }

    private void envelopeStart() throws XMLStreamException, DecodeException {
      int e = nextElementEvent();
      if (e != XMLStreamConstants.START_ELEMENT || !"Envelope".equals(r.getLocalName())) {
        throw new SoapException("not a SOAP envelope: the root element is " + describe(e),
            e == XMLStreamConstants.START_ELEMENT ? start() : -1, "envelope");
      }
      version = SoapVersion.fromNamespace(r.getNamespaceURI());
      if (version == null) {
        throw new VersionMismatchException(r.getNamespaceURI(), start());
      }
      envelopePrefix = r.getPrefix() == null ? "" : r.getPrefix();
    }

    private void header() throws XMLStreamException, DecodeException {
      headerOpenStart = start();
      headerOpenEnd = end();
      if (r.isEmptyElement()) {
        // <Header/>: written back as it is while empty; blocks added get an open/close pair
        headerSelfClosing = true;
        r.next();
        headerCloseStart = headerOpenEnd;
        headerCloseEnd = headerOpenEnd;
        return;
      }
      lastEnd = headerOpenEnd;
      while (true) {
        int e = nextElementEvent();
        if (e == XMLStreamConstants.END_ELEMENT) {
          headerCloseStart = lastEnd;
          headerCloseEnd = end();
          return;
        }
        if (blocks.size() == codec.limits().maxHeaderBlocks()) {
          throw SoapException.limitExceeded("SoapLimits.maxHeaderBlocks",
              codec.limits().maxHeaderBlocks(), blocks.size() + 1L, start(), "Header");
        }
        blocks.add(block());
      }
    }

    /** Reads one header block from its START_ELEMENT to its END_ELEMENT. */
    private HeaderBlock block() throws XMLStreamException, DecodeException {
      int start = start();
      QName name = r.getName();
      String mu = r.getAttributeValue(version.namespace(), "mustUnderstand");
      String role = r.getAttributeValue(version.namespace(), version.roleAttribute());
      StringBuilder text = new StringBuilder();
      boolean simple = true;
      String address = null;
      reportInclude();
      for (int depth = 1; depth > 0; ) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          depth++;
          simple = false;
          reportInclude();
          if (depth == 2 && "Address".equals(r.getLocalName())) {
            address = r.getElementText().strip();
            depth--;
          }
        } else if (e == XMLStreamConstants.END_ELEMENT) {
          depth--;
        } else if (depth == 1 && (e == XMLStreamConstants.CHARACTERS
            || e == XMLStreamConstants.CDATA || e == XMLStreamConstants.SPACE)) {
          text.append(r.getText());
        }
      }
      int end = end();
      HeaderBlock b = new HeaderBlock(name, "1".equals(mu) || "true".equals(mu), role,
          simple ? text.toString().strip() : null, address,
          envelope.subSequence(start, end - start), envelope.subSequence(lastEnd,
              start - lastEnd), envelope, lastEnd);
      lastEnd = end;
      return b;
    }

    /**
     * Reads to the Body's first child element and returns its name, or null if the Body holds
     * none; the rest of the Body is not parsed here (see {@link MessageBuffer#checkBody}).
     */
    private QName firstChild() throws XMLStreamException {
      if (r.isEmptyElement()) {
        r.next();
        return null;
      }
      while (true) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          return r.getName();
        }
        if (e == XMLStreamConstants.END_ELEMENT) {
          return null;
        }
      }
    }

    /**
     * Reads the Body through from its first child (where {@link #firstChild} stopped), reporting
     * the {@code xop:Include} elements; returns where the Body ends.
     */
    private int readBody() throws XMLStreamException, DecodeException {
      if (bodyElement != null) {
        reportInclude();
        for (int depth = 1; ; ) {
          int e = r.next();
          if (e == XMLStreamConstants.START_ELEMENT) {
            depth++;
            reportInclude();
          } else if (e == XMLStreamConstants.END_ELEMENT && depth-- == 0) {
            break;
          }
        }
      }
      return end();
    }

    /** At a START_ELEMENT: reports it to the package if it is an {@code xop:Include}. */
    private void reportInclude() throws XopException {
      if (includesOf != null && "Include".equals(r.getLocalName())
          && XopReader.XOP_NS.equals(r.getNamespaceURI())) {
        XOP.include(includesOf, r.getAttributeValue(null, "href"), start());
      }
    }

    /** Reads past the Body's children to its end tag; returns where it ends. */
    private int endOfBody() throws XMLStreamException {
      while (true) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          r.skipElement();
        } else if (e == XMLStreamConstants.END_ELEMENT) {
          return end();
        }
      }
    }

    /**
     * After the Body's end tag: the Envelope's end must follow (white space and comments aside).
     * An envelope has one Body, its last child; anything else there (a second Body above all,
     * which a parser that takes the first Body would read instead) is refused where it starts.
     */
    private void requireEnvelopeEnd() throws XMLStreamException, SoapException {
      int e = nextElementEvent();
      if (e != XMLStreamConstants.END_ELEMENT) {
        throw new SoapException("unexpected " + describe(e) + " after the Body (an envelope has"
            + " one Body, its last child)", e == XMLStreamConstants.START_ELEMENT ? start() : -1,
            "envelope");
      }
    }

    /**
     * Finds the Body's end from the envelope's end: {@code </Body> ws </Envelope> ws}, with the
     * prefixes the start tags used. Returns -1 if the tail has another shape.
     */
    private int bodyEndFromTail() {
      int i = skipSpaceBack(envelope.size());
      i = expectEndTagBack(i, envelopePrefix.isEmpty() ? "Envelope" : envelopePrefix
          + ":Envelope");
      if (i < 0) {
        return -1;
      }
      int bodyTagEnd = skipSpaceBack(i);
      int open = expectEndTagBack(bodyTagEnd, bodyPrefix.isEmpty() ? "Body" : bodyPrefix
          + ":Body");
      return open < 0 || open < bodyStart ? -1 : bodyTagEnd;
    }

    /** Expects {@code </qname ws>} ending at {@code end}; returns where it starts, or -1. */
    private int expectEndTagBack(int end, String qname) {
      if (end < 1 || envelope.byteAt(end - 1) != '>') {
        return -1;
      }
      int i = skipSpaceBack(end - 1);
      byte[] q = qname.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      int from = i - q.length - 2;
      if (from < 0 || envelope.byteAt(from) != '<' || envelope.byteAt(from + 1) != '/') {
        return -1;
      }
      for (int k = 0; k < q.length; k++) {
        if (envelope.byteAt(from + 2 + k) != q[k]) {
          return -1;
        }
      }
      return from;
    }

    private int skipSpaceBack(int end) {
      int i = end;
      while (i > 0) {
        byte b = envelope.byteAt(i - 1);
        if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
          break;
        }
        i--;
      }
      return i;
    }

    private boolean isEnvelopeChild(String local) {
      return local.equals(r.getLocalName()) && version.namespace().equals(r.getNamespaceURI());
    }

    /** Skips white space and comments; returns the next START_ELEMENT, END_ELEMENT or other. */
    private int nextElementEvent() throws XMLStreamException, SoapException {
      while (true) {
        int e = r.next();
        switch (e) {
          case XMLStreamConstants.SPACE, XMLStreamConstants.COMMENT -> { }
          case XMLStreamConstants.CHARACTERS -> {
            if (!r.isWhiteSpace()) {
              throw new SoapException("text outside header blocks", start(), "envelope");
            }
          }
          case XMLStreamConstants.PROCESSING_INSTRUCTION -> throw new SoapException(
              "processing instruction in a SOAP envelope", start(), "envelope");
          case XMLStreamConstants.DTD -> throw new SoapException(
              "DTD not allowed (SOAP forbids it)", start(), "envelope");
          default -> {
            return e;
          }
        }
      }
    }

    private String describe(int event) {
      return event == XMLStreamConstants.START_ELEMENT ? String.valueOf(r.getName())
          : event == XMLStreamConstants.END_DOCUMENT ? "the end of the document"
          : "event " + event;
    }

    private int start() {
      return offsets.byteOffset(r.getLocationInfo().getStartingCharOffset());
    }

    private int end() throws XMLStreamException {
      return offsets.byteOffset(r.getLocationInfo().getEndingCharOffset());
    }
  }
}
