package dev.ferry.xop;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.Spool;
import dev.ferry.mime.ContentIds;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MultipartReader;
import dev.ferry.mime.MultipartWriter;
import dev.ferry.mime.Part;
import dev.ferry.xop.internal.RootBudget;
import dev.ferry.xop.internal.RootReader;
import dev.ferry.xop.internal.XopAccess;
import dev.ferry.xop.internal.XmlErrors;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A received message: an XOP/MTOM or SwA package (multipart/related), or plain XML. The root
 * part is read at once and held as a {@link ByteString}; attachments are read lazily, in order,
 * as they are asked for, each into a {@link Spool}. Close the package to release them.
 *
 * <p>Root selection follows RFC 2387: the part whose Content-ID equals the {@code start}
 * parameter (angle brackets optional on either side), or the first part if there is no
 * {@code start}. A {@code start} that names no part is an error (or, with
 * {@link XopCodec.Builder#lenientStart}, the first part). A duplicate Content-ID is an error.
 * Attachments no {@code xop:Include} refers to are kept and reachable.
 */
public final class XopPackage implements Closeable {
  private static final String XOP_TYPE = "application/xop+xml";
  private static final Cleaner CLEANER = Cleaner.create();
  private static final ByteString XOP_NS_BYTES = ByteString.encodeUtf8(XopReader.XOP_NS);

  static {
    XopAccess.install(new Access());
  }

  private final XopCodec codec;
  private final MediaType contentType;
  private final MultipartReader reader; // null for plain XML
  private final Map<String, Attachment> attachments = new LinkedHashMap<>();
  private final List<Attachment> unnamed = new ArrayList<>();
  private ByteString root;
  private MimeHeaders rootHeaders = MimeHeaders.EMPTY;
  private MediaType rootType; // the root's Content-Type, parsed once
  private String rootContentId;
  private long rootOffset = -1;
  private boolean complete;
  /** Gives the root's bytes back to the budget: at close, or when the package is dropped. */
  private Cleaner.Cleanable heldRoot;
  /** Content-IDs the root's {@code xop:Include} elements name; each must be a part. */
  private final Set<String> included = new LinkedHashSet<>();
  /** Content-IDs of every part after the root seen so far, kept, forwarded or skipped. */
  private final Set<String> seen = new HashSet<>();

  private XopPackage(XopCodec codec, MediaType contentType, MultipartReader reader) {
    this.codec = codec;
    this.contentType = contentType;
    this.reader = reader;
    this.complete = reader == null;
  }

  static XopPackage read(XopCodec codec, InputStream in, MediaType type, long length)
      throws IOException {
    return read(codec, in, type, length, false);
  }

  /** Reads a package; {@code leaveIncludes}: see {@link XopAccess#readLeavingIncludes}. */
  private static XopPackage read(XopCodec codec, InputStream in, MediaType type, long length,
      boolean leaveIncludes) throws IOException {
    if (!type.isMultipart()) {
      ByteString root = RootReader.read(in, length, codec.limits().maxRootBytes(),
          codec.rootBudget(), "root");
      return held(codec, root, type);
    }
    MultipartReader reader = MultipartReader.builder(in, type.boundary())
        .limits(codec.limits().mime()).lenientLineEnds(codec.lenientLineEnds()).build();
    XopPackage pkg = new XopPackage(codec, type, reader);
    try {
      pkg.findRoot();
      if (pkg.isXop() && !leaveIncludes) {
        pkg.findIncludes();
      }
    } catch (IOException | RuntimeException e) {
      pkg.close();
      throw e;
    }
    return pkg;
  }

  /** A plain message held whole by its reader: {@code root} is all of it. */
  static XopPackage plain(XopCodec codec, ByteString root, MediaType type) throws XopException {
    int max = codec.limits().maxRootBytes();
    if (root.size() > max) {
      throw XopException.limitExceeded("XopLimits.maxRootBytes", max, root.size(), -1,
          "root (root)");
    }
    codec.rootBudget().take(root.size(), "root");
    return held(codec, root, type);
  }

  /** A plain message whose root was taken from the budget. */
  private static XopPackage held(XopCodec codec, ByteString root, MediaType type) {
    XopPackage plain = new XopPackage(codec, type, null);
    plain.root = root;
    plain.holdRoot();
    plain.rootHeaders = MimeHeaders.builder().add("Content-Type", type.toString()).build();
    plain.rootType = type;
    return plain;
  }

  /**
   * Notes that the root's bytes were taken from the codec's budget: they go back when the
   * package closes, or, for a package its reader forgot to close, when it is collected (a
   * budget that only shrank would end in every message being refused).
   */
  private void holdRoot() {
    RootBudget budget = codec.rootBudget();
    long size = root.size();
    heldRoot = CLEANER.register(this, () -> budget.give(size));
  }

  private void findRoot() throws IOException {
    String start = contentType.parameter("start");
    start = start == null || start.isBlank() ? null : ContentIds.strip(start);
    for (Part p; (p = reader.nextPart()) != null; ) {
      String id = p.contentId();
      if (start == null || start.equals(id)) {
        takeRoot(p);
        return;
      }
      keep(p);
    }
    complete = true; // the references are checked once the root is known
    if (start != null && codec.lenientStart() && !unnamedOrNamedEmpty()) {
      Attachment first = firstAttachment();
      root = first.bytes();
      codec.rootBudget().take(root.size(), "part " + first.partIndex());
      holdRoot();
      rootHeaders = first.headers();
      rootType = rootHeaders.contentType();
      rootContentId = first.contentId();
      forget(first);
      return;
    }
    throw new XopException(start == null ? "the package has no parts"
        : "the start parameter names Content-ID <" + start + ">, which no part has",
        reader.byteOffset(), "Content-Type start");
  }

  private void takeRoot(Part p) throws IOException {
    root = RootReader.read(p.decodedBody(), -1, codec.limits().maxRootBytes(),
        codec.rootBudget(), "part " + p.index());
    holdRoot();
    rootHeaders = p.headers();
    rootType = rootHeaders.contentType();
    rootContentId = p.contentId();
    rootOffset = p.bodyOffset();
  }

  /** Reads the next part into a spool; returns false when there are no more. */
  private boolean readNext() throws IOException {
    if (complete) {
      return false;
    }
    Part p = reader.nextPart();
    if (p == null) {
      finish();
      return false;
    }
    keep(p);
    return true;
  }

  /**
   * Finds the root's {@code xop:Include} elements (XOP 1.0 section 3.2) and checks each href
   * before anything else reads or forwards the package: a {@code cid:} URL (no other scheme is
   * ever fetched), not the root itself. That each names a part is checked when the package has
   * been read to its end ({@link #finish}), since a forwarder streams the parts on as they come.
   * A root without the XOP namespace (the usual test of a few nanoseconds) has no Include.
   */
  private void findIncludes() throws IOException {
    Charset charset = rootCharset();
    boolean asciiCompatible = charset.equals(StandardCharsets.UTF_8)
        || charset.equals(StandardCharsets.US_ASCII) || charset.equals(StandardCharsets.ISO_8859_1);
    if (asciiCompatible && !mayInclude(root)) {
      return;
    }
    XMLStreamReader r = null;
    try {
      r = codec.newXmlReader(root, charset.name());
      while (r.hasNext()) {
        if (r.next() == XMLStreamConstants.START_ELEMENT && "Include".equals(r.getLocalName())
            && XopReader.XOP_NS.equals(r.getNamespaceURI())) {
          include(r.getAttributeValue(null, "href"),
              r.getLocation() == null ? -1 : r.getLocation().getCharacterOffset());
        }
      }
      r.close();
    } catch (XMLStreamException e) {
      throw XmlErrors.translate(e, "root", r == null ? null : r.getLocation());
    }
    includesRead();
  }

  /**
   * Whether {@code xml} (in an ASCII-compatible encoding) may hold an {@code xop:Include}: only
   * if it names the XOP namespace, a test of a few nanoseconds that spares the parse.
   */
  private boolean mayInclude(ByteString xml) {
    return isXop() && xml.indexOf(XOP_NS_BYTES, 0) >= 0;
  }

  /** Notes the Content-ID an {@code xop:Include} names, after checking its href. */
  private void include(String href, long offset) throws XopException {
    String where = "root > xop:Include href=\"" + href + "\"";
    if (href == null) {
      throw new XopException("xop:Include without href", offset, "root > xop:Include");
    }
    if (!ContentIds.isCidUrl(href)) {
      throw new XopException("xop:Include href is not a cid: URL; Ferry never fetches other"
          + " URLs", offset, where);
    }
    String id;
    try {
      id = ContentIds.fromCidUrl(href);
    } catch (IllegalArgumentException e) {
      throw new XopException(e.getMessage(), offset, where);
    }
    if (id.equals(rootContentId)) {
      throw new XopException("xop:Include refers to the root part itself", offset, where);
    }
    included.add(id);
  }

  /** After the last {@code xop:Include}: a package read to its end is checked now. */
  private void includesRead() throws XopException {
    if (complete) {
      finish();
    }
  }

  /**
   * Marks the package read to its end and checks that every {@code xop:Include} named a part:
   * a forwarder that finds one missing fails before it ends the package it sends on, so the
   * message never reaches its next hop whole.
   */
  private void finish() throws XopException {
    complete = true;
    for (String id : included) {
      if (!seen.contains(id)) {
        throw new XopException("xop:Include refers to Content-ID <" + id + ">, which no part"
            + " of the package has", reader == null ? -1 : reader.byteOffset(),
            "root > xop:Include href=\"cid:" + id + "\"");
      }
    }
  }

  private void keep(Part p) throws IOException {
    String id = see(p);
    Spool spool = Spool.builder().memoryThresholdBytes(codec.limits().attachmentMemoryBytes())
        .maxBytes(codec.limits().mime().maxPartBytes()).directory(codec.spoolDirectory())
        .build();
    try (InputStream body = p.decodedBody()) {
      body.transferTo(spool);
    } catch (IOException | RuntimeException e) {
      spool.close();
      throw e;
    }
    Attachment a = new Attachment(id, p.headers(), spool, p.index());
    if (id == null) {
      unnamed.add(a);
    } else {
      attachments.put(id, a);
    }
  }

  /** Notes a part after the root; returns its Content-ID. A duplicate one is an error. */
  private String see(Part p) throws XopException {
    String id = p.contentId();
    if (id != null && (!seen.add(id) || id.equals(rootContentId))) {
      throw new XopException("duplicate Content-ID <" + id + ">", p.bodyOffset(),
          "part " + p.index() + " > headers");
    }
    return id;
  }

  private boolean unnamedOrNamedEmpty() {
    return unnamed.isEmpty() && attachments.isEmpty();
  }

  private Attachment firstAttachment() {
    Attachment best = null;
    for (Attachment a : all()) {
      if (best == null || a.partIndex() < best.partIndex()) {
        best = a;
      }
    }
    return best;
  }

  private void forget(Attachment a) throws IOException {
    attachments.values().remove(a);
    unnamed.remove(a);
    // the bytes were copied out as the root; the spool is no longer needed
    a.close();
  }

  private List<Attachment> all() {
    List<Attachment> all = new ArrayList<>(attachments.values());
    all.addAll(unnamed);
    return all;
  }

  /** Returns the message's Content-Type. */
  public MediaType contentType() {
    return contentType;
  }

  /** Returns true for a multipart package (MTOM/XOP or SwA); false for plain XML. */
  public boolean isMultipart() {
    return reader != null;
  }

  /** Returns true for an XOP package: multipart/related with type application/xop+xml. */
  public boolean isXop() {
    return isMultipart() && XOP_TYPE.equalsIgnoreCase(contentType.parameter("type"));
  }

  /** Returns the root part's content, transfer encoding undone. */
  public ByteString root() {
    return root;
  }

  public MimeHeaders rootHeaders() {
    return rootHeaders;
  }

  /** Returns the root part's Content-Type (for plain XML, the message's), or null if none. */
  public MediaType rootContentType() {
    return rootType;
  }

  /** Returns the root part's Content-ID without brackets, or null. */
  public String rootContentId() {
    return rootContentId;
  }

  /**
   * Returns the root's charset: its own {@code charset} parameter, else the package's, else
   * UTF-8. Java names that are not IANA names (such as {@code Cp1252}) are accepted.
   */
  public Charset rootCharset() {
    String name = rootType != null ? rootType.parameter("charset") : null;
    if (name == null) {
      name = contentType.parameter("charset");
    }
    try {
      return name == null ? StandardCharsets.UTF_8 : Charset.forName(name.trim());
    } catch (IllegalArgumentException e) {
      return StandardCharsets.UTF_8;
    }
  }

  /**
   * Returns the attachment whose Content-ID is {@code contentId} (brackets optional), reading
   * ahead in the package as far as needed, or null if no part has it.
   */
  public Attachment attachment(String contentId) throws IOException {
    String id = ContentIds.strip(contentId);
    Attachment a = attachments.get(id);
    while (a == null && readNext()) {
      a = attachments.get(id);
    }
    return a;
  }

  /** Reads the rest of the package; returns every attachment in package order. */
  public Collection<Attachment> attachments() throws IOException {
    while (readNext()) {
      // read them all
    }
    List<Attachment> all = all();
    all.sort((x, y) -> Integer.compare(x.partIndex(), y.partIndex()));
    return Collections.unmodifiableList(all);
  }

  /**
   * Writes every attachment as a part of {@code out}, in package order, and returns how many.
   * Those already read come from their spools (decoded, so sent as binary); the rest go straight
   * from the source to {@code out} as they arrive, with their own headers and bytes, never
   * spooled: a forwarder holds at most a read buffer of each, whatever its size. Afterwards the
   * package is complete and holds only the attachments that were read before.
   */
  public int forwardAttachments(MultipartWriter out) throws IOException {
    List<Attachment> read = all();
    read.sort((x, y) -> Integer.compare(x.partIndex(), y.partIndex()));
    for (Attachment a : read) {
      MimeHeaders headers = MimeHeaders.builder().addAll(a.headers())
          .set("Content-Transfer-Encoding", "binary").build();
      try (InputStream in = a.openStream()) {
        out.writePart(headers, in);
      }
    }
    int forwarded = read.size();
    while (!complete) {
      Part p = reader.nextPart();
      if (p == null) {
        finish();
        break;
      }
      see(p);
      try (InputStream in = p.body()) {
        out.writePart(p.headers(), in);
      }
      forwarded++;
    }
    return forwarded;
  }

  /**
   * Replaces the root part's body by {@code newRoot} in the package as it came, for a forwarder
   * that holds the whole source in {@code held} (its {@code length} bytes start at
   * {@code offset}; the {@code offset} bytes before them are room it may write), and returns the
   * package's new head: its bytes up to the new root's end, in {@code held}. The package as it
   * goes on is that head followed by the source's bytes from the head's {@code limit()} to
   * {@code offset + length}, unchanged, which a forwarder may send from wherever it holds them.
   * Only the bytes before the root's end move: the new root is written over the old one so that
   * it ends where that ended, and what precedes it (preamble, first delimiter, root headers; a
   * few hundred bytes) moves back by as much as the root grew. The parts after the root are
   * neither framed anew nor copied, but checked as {@link #forwardAttachments} would read them
   * (well-formed, within the limits, every {@code xop:Include} resolved) and skipped; the package
   * is then complete. The Content-Type, and so the boundary, stay as they were.
   *
   * <p>Returns null, with neither {@code held} nor the package touched, where this cannot be
   * done: not a multipart package; a root that is not its bytes as they came (transfer-encoded,
   * or taken by the lenient start rule) or that states its own Content-Length (it would no
   * longer hold); a new root that holds the delimiter or outgrows the room. The caller then
   * writes the message out instead.
   *
   * @throws IOException if a part after the root is malformed, over a limit, or missing
   */
  public ByteBuffer spliceRoot(ByteString newRoot, byte[] held, int offset, int length)
      throws IOException {
    if (reader == null || rootOffset < 0 || rootHeaders.get("Content-Length") != null) {
      return null;
    }
    int start = offset + (int) rootOffset;
    int end = start + root.size();
    ByteString dashes = ByteString.encodeUtf8("--" + contentType.boundary());
    if (end + 2 + dashes.size() > offset + length || !root.contentEquals(held, start, root.size())
        || held[end] != '\r' || held[end + 1] != '\n'
        || !dashes.contentEquals(held, end + 2, dashes.size())) {
      return null; // decoded on its way in, or ending in a bare LF: written anew instead
    }
    int grow = newRoot.size() - root.size();
    if (grow > offset || newRoot.indexOf(dashes, 0) >= 0) {
      return null; // no room for it, or it would end the root part early
    }
    skipRest();
    System.arraycopy(held, offset, held, offset - grow, start - offset);
    newRoot.copyTo(0, held, end - newRoot.size(), newRoot.size());
    return ByteBuffer.wrap(held, offset - grow, end - offset + grow);
  }

  /** Reads the parts not read yet, checking each, and keeps none of them. */
  private void skipRest() throws IOException {
    while (!complete) {
      Part p = reader.nextPart();
      if (p == null) {
        finish();
      } else {
        see(p);
      }
    }
  }

  /**
   * Returns a StAX reader over the root part in which each {@code xop:Include} reads as the
   * base64 text it stands for (see {@link XopReader}).
   */
  public XopReader newXmlReader() throws XopException {
    return newXmlReader(root, rootCharset().name());
  }

  /**
   * Returns an {@link XopReader} over {@code xml} (for example the root after its headers were
   * changed) whose {@code xop:Include} elements resolve against this package's attachments.
   */
  public XopReader newXmlReader(ByteString xml, String charset) throws XopException {
    try {
      XMLStreamReader r = codec.newXmlReader(xml, charset);
      return new XopReader(r, this);
    } catch (XMLStreamException e) {
      throw XopReader.translate(e, "root");
    }
  }

  /** Releases every attachment (deletes temp files) and closes the source. */
  @Override
  public void close() throws IOException {
    if (heldRoot != null) {
      heldRoot.clean(); // gives the root's bytes back to the codec's budget, once
    }
    IOException first = null;
    for (Attachment a : all()) {
      try {
        a.close();
      } catch (IOException e) {
        first = first == null ? e : first;
      }
    }
    if (reader != null) {
      reader.close();
    }
    if (first != null) {
      throw first;
    }
  }

  /** The SOAP layer's way to the include checks: see {@link XopAccess}. */
  private static final class Access extends XopAccess {
    @Override
    public XopPackage readLeavingIncludes(XopCodec codec, InputStream in, MediaType contentType,
        long length) throws IOException {
      return read(codec, in, contentType, length, true);
    }

    @Override
    public boolean mayInclude(XopPackage pkg, ByteString root) {
      return pkg.mayInclude(root);
    }

    @Override
    public void include(XopPackage pkg, String href, long byteOffset) throws XopException {
      pkg.include(href, byteOffset);
    }

    @Override
    public void includesRead(XopPackage pkg) throws XopException {
      pkg.includesRead();
    }
  }
}
