package dev.ferry.xop;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.bytes.Spool;
import dev.ferry.mime.ContentIds;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.mime.MimeHeaders;
import dev.ferry.mime.MultipartReader;
import dev.ferry.mime.MultipartWriter;
import dev.ferry.mime.Part;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  private final XopCodec codec;
  private final MediaType contentType;
  private final MultipartReader reader; // null for plain XML
  private final Map<String, Attachment> attachments = new LinkedHashMap<>();
  private final List<Attachment> unnamed = new ArrayList<>();
  private ByteString root;
  private MimeHeaders rootHeaders = MimeHeaders.EMPTY;
  private String rootContentId;
  private long rootOffset = -1;
  private boolean complete;

  private XopPackage(XopCodec codec, MediaType contentType, MultipartReader reader) {
    this.codec = codec;
    this.contentType = contentType;
    this.reader = reader;
    this.complete = reader == null;
  }

  static XopPackage read(XopCodec codec, InputStream in, String contentTypeValue)
      throws IOException {
    MediaType type;
    try {
      type = MediaType.parse(contentTypeValue);
    } catch (MimeException e) {
      throw new XopException("malformed Content-Type: " + e.reason(), e.byteOffset(),
          e.context(), e);
    }
    if (!type.isMultipart()) {
      XopPackage plain = new XopPackage(codec, type, null);
      plain.root = readRoot(in, codec.limits().maxRootBytes(), "root");
      plain.rootHeaders = MimeHeaders.builder().add("Content-Type", contentTypeValue).build();
      return plain;
    }
    MultipartReader reader = MultipartReader.builder(in, type.boundary())
        .limits(codec.limits().mime()).lenientLineEnds(codec.lenientLineEnds()).build();
    XopPackage pkg = new XopPackage(codec, type, reader);
    try {
      pkg.findRoot();
    } catch (IOException | RuntimeException e) {
      pkg.close();
      throw e;
    }
    return pkg;
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
    complete = true;
    if (start != null && codec.lenientStart() && !unnamedOrNamedEmpty()) {
      Attachment first = firstAttachment();
      root = first.bytes();
      rootHeaders = first.headers();
      rootContentId = first.contentId();
      forget(first);
      return;
    }
    throw new XopException(start == null ? "the package has no parts"
        : "the start parameter names Content-ID <" + start + ">, which no part has",
        reader.byteOffset(), "Content-Type start");
  }

  private void takeRoot(Part p) throws IOException {
    root = readRoot(p.decodedBody(), codec.limits().maxRootBytes(), "part " + p.index());
    rootHeaders = p.headers();
    rootContentId = p.contentId();
    rootOffset = p.bodyOffset();
  }

  private static ByteString readRoot(InputStream in, int maxBytes, String where)
      throws IOException {
    ByteStringBuilder b = new ByteStringBuilder(4096);
    byte[] chunk = new byte[8192];
    for (int n; (n = in.read(chunk)) >= 0; ) {
      if (b.size() + n > maxBytes) {
        throw XopException.limitExceeded("XopLimits.maxRootBytes", maxBytes,
            (long) b.size() + n, -1, where + " (root)");
      }
      b.append(chunk, 0, n);
    }
    return b.toByteString();
  }

  /** Reads the next part into a spool; returns false when there are no more. */
  private boolean readNext() throws IOException {
    if (complete) {
      return false;
    }
    Part p = reader.nextPart();
    if (p == null) {
      complete = true;
      return false;
    }
    keep(p);
    return true;
  }

  private void keep(Part p) throws IOException {
    String id = p.contentId();
    if (id != null && (attachments.containsKey(id) || id.equals(rootContentId))) {
      throw new XopException("duplicate Content-ID <" + id + ">", p.bodyOffset(),
          "part " + p.index() + " > headers");
    }
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

  /**
   * Returns where the root part's body begins in the source, counted in bytes from its first
   * byte, or -1 if the root is not a part (plain XML) or was taken by the lenient start rule.
   * With the source held whole, a forwarder can send all but the root part's body as it came.
   */
  public long rootOffset() {
    return rootOffset;
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
    MediaType t = rootHeaders.contentType();
    String name = t != null ? t.parameter("charset") : null;
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
        complete = true;
        break;
      }
      try (InputStream in = p.body()) {
        out.writePart(p.headers(), in);
      }
      forwarded++;
    }
    return forwarded;
  }

  /**
   * Reads the rest of the package and keeps nothing of it: each part not read yet is checked as
   * {@link #forwardAttachments} would read it (well-formed, within the MIME limits) and skipped
   * unread. For a forwarder that holds the source whole and sends its bytes as they came;
   * returns how many parts were skipped. Afterwards the package is complete.
   *
   * @throws dev.ferry.mime.MimeException if the rest is malformed or over a limit
   */
  public int skipRest() throws IOException {
    int skipped = 0;
    while (!complete) {
      if (reader.nextPart() == null) {
        complete = true;
      } else {
        skipped++;
      }
    }
    return skipped;
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
      XMLStreamReader r = codec.inputFactory().createXMLStreamReader(xml.asInputStream(),
          charset);
      return new XopReader(r, this);
    } catch (XMLStreamException e) {
      throw XopReader.translate(e, "root");
    }
  }

  /** Releases every attachment (deletes temp files) and closes the source. */
  @Override
  public void close() throws IOException {
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
}
