package dev.ferry.asn1;

import dev.ferry.bytes.ByteSequence;
import dev.ferry.bytes.ByteSequenceReader;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.Objects;

/**
 * Pulls ASN.1 BER elements one at a time: {@code read*} consumes an element, {@code peek*} looks
 * at the next one's header without consuming it.
 *
 * <p>Octet strings come out as {@link ByteString} slices of the input: nothing is copied until the
 * caller asks (the exception is a BER constructed string, whose segments must be joined). Over an
 * {@link InputStream}, each top-level element is first framed into one byte string (its declared
 * length checked against {@link BerLimits} before any buffer is sized for it, the buffer grown as
 * bytes arrive), then read like in-memory input; its slices stay valid after the reader moves on.
 *
 * <p>Declared lengths are claims: every element must fit its enclosing element and the input, and
 * every violation is a {@link BerException} with the absolute offset of the offending byte.
 *
 * <pre>{@code
 * BerReader r = BerReader.of(ByteString.decodeHex("30 06 02 01 05 04 01 41"));
 * r.readStartSequence();
 * assert r.readInteger() == 5;
 * assert r.readOctetString().utf8().equals("A");
 * r.readEndSequence();
 * assert !r.hasNextElement();
 * }</pre>
 *
 * <p>Not thread-safe.
 */
public final class BerReader {
  private static final int INDEFINITE = -1;

  private final BerRules rules;
  private final BerLimits limits;
  private final StreamFramer framer; // null for in-memory input
  private ByteSequenceReader in;

  private int[] frameEnd = new int[8]; // reader position where each open frame ends, or -1
  private int[] frameBound = new int[8]; // position no child of the frame may pass
  private int depth;

  private final BerHeader hdr = new BerHeader();
  private final ReaderOctets octets = new ReaderOctets();
  private boolean peeked;
  private int type;
  private int length; // -1: indefinite
  private int headerStart;
  private int valueStart;

  private BerReader(ByteSequenceReader in, StreamFramer framer, BerRules rules,
      BerLimits limits) {
    this.in = in;
    this.framer = framer;
    this.rules = Objects.requireNonNull(rules, "rules");
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /** Returns a BER reader with the default limits over {@code input}. */
  public static BerReader of(ByteSequence input) {
    return of(input, BerRules.BER, BerLimits.DEFAULTS);
  }

  /** Returns a reader over {@code input}, which holds whole elements (offsets start at 0). */
  public static BerReader of(ByteSequence input, BerRules rules, BerLimits limits) {
    return new BerReader(new ByteSequenceReader(input), null, rules, limits);
  }

  /**
   * Returns a reader that consumes elements from {@code in}, starting at its position; offsets
   * in errors are {@code in}'s absolute offsets.
   */
  public static BerReader of(ByteSequenceReader in, BerRules rules, BerLimits limits) {
    return new BerReader(Objects.requireNonNull(in, "in"), null, rules, limits);
  }

  /** Returns a reader over a stream; offsets in errors count from the stream's first byte. */
  public static BerReader of(InputStream in, BerRules rules, BerLimits limits) {
    StreamFramer framer = new StreamFramer(Objects.requireNonNull(in, "in"), rules, limits);
    return new BerReader(new ByteSequenceReader(ByteString.EMPTY), framer, rules, limits);
  }

  /** Returns the rules this reader enforces. */
  public BerRules rules() {
    return rules;
  }

  /** Returns the absolute offset of the next unread byte. */
  public long byteOffset() {
    return in.byteOffset();
  }

  /** Returns the number of constructed elements entered and not yet ended. */
  public int depth() {
    return depth;
  }

  /**
   * Returns true if another element follows in the current constructed element (or, at depth 0,
   * in the input). At the end of a stream that ends cleanly between elements this returns false.
   *
   * @throws BerException if an indefinite-length element ends without its end-of-contents octets,
   *     or a stream's next element is malformed
   */
  public boolean hasNextElement() throws IOException {
    if (peeked) {
      return true;
    }
    int pos = in.position();
    int bound = bound();
    if (depth > 0 && frameEnd[depth - 1] == INDEFINITE) {
      if (pos >= bound) {
        throw error("missing end-of-contents octets (expected: 00 00)", in.byteOffset());
      }
      return !(bound - pos >= 2 && in.peekByte() == 0 && in.peekByte(1) == 0);
    }
    if (pos < bound) {
      return true;
    }
    return depth == 0 && framer != null && frameNext();
  }

  /** Returns the type of the next element (see {@link BerTags}) without consuming it. */
  public int peekType() throws IOException {
    header();
    return type;
  }

  /** Returns the declared length of the next element, or -1 for an indefinite length. */
  public int peekLength() throws IOException {
    header();
    return length;
  }

  /** Enters a universal SEQUENCE. */
  public void readStartSequence() throws IOException {
    readStartConstructed(BerTags.SEQUENCE);
  }

  /** Enters a constructed element of {@code type} (a SEQUENCE with an implicit tag). */
  public void readStartSequence(int type) throws IOException {
    readStartConstructed(type);
  }

  /** Enters a universal SET. */
  public void readStartSet() throws IOException {
    readStartConstructed(BerTags.SET);
  }

  /** Enters a constructed element of {@code type} (a SET with an implicit tag). */
  public void readStartSet(int type) throws IOException {
    readStartConstructed(type);
  }

  /**
   * Leaves the current constructed element. Unread elements left in it are skipped (RFC 4511
   * section 4 asks decoders to ignore extensions), except in DER, where they are an error. What
   * is skipped must be well-formed elements all the way down: leftover bytes that are not (a
   * length one short inside a signature, say) are an error, not something to step over.
   *
   * @throws BerException if leftover bytes are not well-formed elements, or under DER
   * @throws IllegalStateException if no constructed element is open
   */
  public void readEndSequence() throws IOException {
    if (depth == 0) {
      throw new IllegalStateException("no sequence or set is open");
    }
    int end = frameEnd[depth - 1];
    if (end != INDEFINITE && in.position() < end && rules.isDer()) {
      throw error((end - in.position()) + " unread bytes at the end of a constructed element"
          + " (expected: none in DER)", in.byteOffset());
    }
    while (hasNextElement()) {
      skipWellFormed();
    }
    if (end == INDEFINITE) {
      in.skip(2);
    }
    depth--;
    peeked = false;
  }

  /** Leaves the current SET; same as {@link #readEndSequence()}. */
  public void readEndSet() throws IOException {
    readEndSequence();
  }

  /** Reads a universal BOOLEAN. */
  public boolean readBoolean() throws IOException {
    return readBoolean(BerTags.BOOLEAN);
  }

  /** Reads a BOOLEAN with type {@code type}. */
  public boolean readBoolean(int type) throws IOException {
    readPrimitiveHeader(type);
    if (length != 1) {
      throw error("boolean of " + length + " bytes (expected: 1)", lengthOffset());
    }
    long offset = in.byteOffset();
    int b = in.readUnsignedByte();
    peeked = false;
    if (rules.isDer() && b != 0 && b != 0xff) {
      throw error("boolean " + hexByte(b) + " (expected: 0x00 or 0xff in DER)", offset);
    }
    return b != 0;
  }

  /** Reads a universal INTEGER that fits in an int. */
  public int readInteger() throws IOException {
    return readInteger(BerTags.INTEGER);
  }

  /** Reads an INTEGER with type {@code type} that fits in an int. */
  public int readInteger(int type) throws IOException {
    return (int) readSigned(type, 4, "int");
  }

  /** Reads a universal INTEGER that fits in a long. */
  public long readLong() throws IOException {
    return readLong(BerTags.INTEGER);
  }

  /** Reads an INTEGER with type {@code type} that fits in a long. */
  public long readLong(int type) throws IOException {
    return readSigned(type, 8, "long");
  }

  /** Reads a universal INTEGER of any size. */
  public BigInteger readBigInteger() throws IOException {
    return readBigInteger(BerTags.INTEGER);
  }

  /** Reads an INTEGER with type {@code type} of any size (up to the element limit). */
  public BigInteger readBigInteger(int type) throws IOException {
    readPrimitiveHeader(type);
    checkIntegerLength(Integer.MAX_VALUE, "BigInteger");
    byte[] bytes = new byte[length];
    in.readBytes(bytes, 0, length);
    peeked = false;
    return new BigInteger(bytes);
  }

  /** Reads a universal ENUMERATED. */
  public int readEnumerated() throws IOException {
    return readInteger(BerTags.ENUMERATED);
  }

  /** Reads an ENUMERATED with type {@code type}. */
  public int readEnumerated(int type) throws IOException {
    return readInteger(type);
  }

  /** Reads a universal NULL. */
  public void readNull() throws IOException {
    readNull(BerTags.NULL);
  }

  /** Reads a NULL with type {@code type}: an element with no content. */
  public void readNull(int type) throws IOException {
    readPrimitiveHeader(type);
    if (length != 0) {
      throw error("null of " + length + " bytes (expected: 0)", lengthOffset());
    }
    peeked = false;
  }

  /** Reads a universal OCTET STRING as a slice of the input. */
  public ByteString readOctetString() throws IOException {
    return readOctetString(BerTags.OCTET_STRING);
  }

  /**
   * Reads an OCTET STRING with primitive type {@code type} as a slice of the input. Under
   * {@link BerRules#BER} the constructed form is accepted too, and its segments are joined into
   * a new byte string.
   */
  public ByteString readOctetString(int type) throws IOException {
    header();
    if (this.type != type && rules.allowsConstructedStrings() && !BerTags.isConstructed(type)
        && this.type == (type | BerTags.CONSTRUCTED)) {
      return readConstructedString(type);
    }
    readPrimitiveHeader(type);
    ByteString s = in.readByteString(length);
    peeked = false;
    return s;
  }

  /** Reads a universal UTF8String. */
  public String readUtf8String() throws IOException {
    return readUtf8String(BerTags.UTF8_STRING);
  }

  /**
   * Reads an element of type {@code type} whose content is UTF-8 (an LDAPString is an OCTET
   * STRING holding UTF-8).
   *
   * @throws BerException at the first malformed byte if the content is not valid UTF-8
   */
  public String readUtf8String(int type) throws IOException {
    header();
    if (this.type != type) {
      long offset = valueOffsetAfterHeader(type);
      return Utf8.decode(readOctetString(type), offset); // constructed, or the type error
    }
    in.position(valueStart);
    String s = in.readUtf8(length);
    peeked = false;
    if (s.indexOf('\uFFFD') >= 0) { // replaced bytes, or a literal U+FFFD: check strictly
      int end = in.position();
      in.position(valueStart);
      long offset = in.byteOffset();
      Utf8.decode(in.readByteString(length), offset);
      in.position(end);
    }
    return s;
  }

  /**
   * Like {@link #readUtf8String(int)}, taking short ASCII strings from {@code cache} when it
   * holds them (no allocation), and adding them when it does not.
   */
  public String readUtf8String(int type, BerStrings cache) throws IOException {
    header();
    if (this.type == type) {
      in.position(valueStart);
      String s = cache.lookup(in, length);
      if (s != null) {
        peeked = false;
        return s;
      }
      in.position(headerStart);
    }
    return readUtf8String(type);
  }

  /**
   * Skips the next element, whatever its type. A definite-length element is skipped by its
   * declared length (which must fit), without reading its contents; an indefinite-length one is
   * read through to its end-of-contents octets.
   */
  public void skipElement() throws IOException {
    header();
    if (length != INDEFINITE) {
      in.position(valueStart + length);
      peeked = false;
      return;
    }
    enter();
    readEndSequence();
  }

  /**
   * Returns the whole next element, header included, as a slice, and consumes it. Over a stream
   * at depth 0 this is one framed top-level element.
   */
  public ByteString readRawElement() throws IOException {
    header();
    int start = headerStart;
    skipElement();
    int end = in.position();
    in.position(start);
    return in.readByteString(end - start);
  }

  // ---------------------------------------------------------------------------------------------

  /** Skips the next element after checking that its contents, if constructed, are elements. */
  private void skipWellFormed() throws IOException {
    header();
    if (!BerTags.isConstructed(type)) {
      skipElement();
      return;
    }
    enter(); // checks the depth limit, which bounds this recursion
    readEndSequence();
  }

  private void readStartConstructed(int expected) throws IOException {
    header();
    checkType(expected);
    if (!BerTags.isConstructed(type)) {
      throw error("expected a constructed element, found " + BerTags.toString(type),
          headerOffset());
    }
    enter();
  }

  private void enter() throws IOException {
    limits.checkDepth(depth + 1, headerOffset());
    if (depth == frameEnd.length) {
      frameEnd = java.util.Arrays.copyOf(frameEnd, depth * 2);
      frameBound = java.util.Arrays.copyOf(frameBound, depth * 2);
    }
    int bound = bound();
    frameEnd[depth] = length == INDEFINITE ? INDEFINITE : valueStart + length;
    frameBound[depth] = length == INDEFINITE ? bound : valueStart + length;
    depth++;
    in.position(valueStart);
    peeked = false;
  }

  private long readSigned(int type, int maxBytes, String javaType) throws IOException {
    readPrimitiveHeader(type);
    checkIntegerLength(maxBytes, javaType);
    long v = in.readByte(); // sign-extends the first octet
    for (int i = 1; i < length; i++) {
      v = v << 8 | in.readUnsignedByte();
    }
    peeked = false;
    return v;
  }

  private void checkIntegerLength(int maxBytes, String javaType) throws IOException {
    if (length == 0) {
      throw error("integer of 0 bytes (expected: at least 1)", lengthOffset());
    }
    if (length > maxBytes) {
      throw error("integer of " + length + " bytes does not fit in " + javaType
          + " (expected: 1.." + maxBytes + ")", lengthOffset());
    }
    if (length > 1) {
      // X.690 8.3.2 holds for BER too: the first nine bits are never all zeros or all ones.
      int first = in.peekByte();
      int second = in.peekByte(1);
      if ((first == 0 && second >= 0) || (first == -1 && second < 0)) {
        throw error("integer with a redundant leading octet (expected: the minimal encoding,"
            + " X.690 8.3.2)", in.byteOffset());
      }
    }
  }

  private ByteString readConstructedString(int primitiveType) throws IOException {
    enter();
    ByteStringBuilder joined = new ByteStringBuilder(64);
    while (hasNextElement()) {
      joined.append(readOctetString(primitiveType));
      limits.checkElement(joined.size(), in.byteOffset());
    }
    readEndSequence();
    return joined.toByteString();
  }

  private long valueOffsetAfterHeader(int expected) throws IOException {
    header();
    return in.byteOffset() + (valueStart - headerStart);
  }

  private void readPrimitiveHeader(int expected) throws IOException {
    header();
    checkType(expected);
    in.position(valueStart);
  }

  private void checkType(int expected) throws BerException {
    if (type != expected) {
      throw error("expected " + BerTags.toString(expected) + ", found " + BerTags.toString(type),
          headerOffset());
    }
  }

  private int bound() {
    return depth == 0 ? in.size() : frameBound[depth - 1];
  }

  private boolean frameNext() throws IOException {
    ByteString element = framer.next();
    if (element == null) {
      return false;
    }
    in = new ByteSequenceReader(element, framer.elementOffset());
    return true;
  }

  /** Parses the next header into the peek fields; leaves the position at the header's start. */
  private void header() throws IOException {
    if (peeked) {
      return;
    }
    if (!hasNextElement()) {
      throw error(depth == 0 ? "truncated input (expected: another element)"
          : "no more elements in the enclosing element (expected: another element)",
          in.byteOffset());
    }
    int start = in.position();
    int bound = bound();
    int valueAt;
    if (bound - start >= 2 && isShortHeader(in.peekByte(), in.peekByte(1))) {
      // The common case, a low tag number and a short-form length, without the general parser.
      hdr.type = in.peekByte() & 0xff;
      hdr.length = in.peekByte(1);
      hdr.lengthOffset = in.byteOffset() + 1;
      hdr.headerBytes = 2;
      valueAt = start + 2;
    } else {
      octets.bound = bound;
      hdr.parse(octets, rules);
      valueAt = in.position();
      in.position(start);
    }
    hdr.checkNotEndOfContents(in.byteOffset());
    if (hdr.length != BerHeader.INDEFINITE) {
      checkLength(valueAt - start, bound - valueAt, bound == in.size());
    }
    this.type = hdr.type;
    this.length = (int) hdr.length;
    this.headerStart = start;
    this.valueStart = valueAt;
    this.peeked = true;
  }

  private static boolean isShortHeader(byte identifier, byte length) {
    return (identifier & 0x1f) != 0x1f && length >= 0;
  }

  private void checkLength(int headerBytes, int left, boolean atInputEnd) throws BerException {
    long len = hdr.length;
    if (depth == 0) {
      limits.checkPdu(headerBytes + len, hdr.lengthOffset);
    }
    if (!hdr.isConstructed()) {
      limits.checkElement(len, hdr.lengthOffset);
    }
    if (len > left) {
      String reason = atInputEnd
          ? "truncated input (expected: " + len + " bytes of content, found: " + left + ")"
          : "element length " + len + " overruns its enclosing element (expected: at most "
              + left + ")";
      throw error(reason, hdr.lengthOffset);
    }
  }

  /** Header octets from {@link #in}, never past the enclosing element. */
  private final class ReaderOctets implements BerHeader.Octets {
    int bound;

    @Override
    public int octet() throws IOException {
      if (in.position() >= bound) {
        throw error(bound == in.size() ? "truncated input (expected: more header octets)"
            : "element header overruns its enclosing element", in.byteOffset());
      }
      return in.readUnsignedByte();
    }

    @Override
    public long offset() {
      return in.byteOffset();
    }
  }

  private long headerOffset() {
    return in.byteOffset() - (in.position() - headerStart);
  }

  private long lengthOffset() {
    return headerOffset() + BerTags.identifierOctets(type);
  }

  private static BerException error(String reason, long offset) {
    return new BerException(reason, offset, null);
  }

  static String hexByte(int b) {
    return String.format("0x%02x", b & 0xff);
  }
}
