package dev.ferry.asn1;

import dev.ferry.bytes.ByteSequence;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.bytes.internal.BytesAccess;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes ASN.1 elements in DER shape (minimal lengths and integers, booleans as 0xFF), copying
 * each value exactly once into a {@link ByteStringBuilder} or an {@link OutputStream}.
 *
 * <p>Lengths are computed first: {@link #encode} runs the {@link BerEncoder} once in a measuring
 * pass, which only adds sizes and records the content length of every constructed element in
 * order, then once more to write, where each header is written with its final length. There is
 * no element tree, no encode-then-concatenate, and no moving of written bytes to make room for a
 * length. The price is calling the encoder twice, which is cheap next to copying the values.
 * Into a {@link ByteStringBuilder} the write pass reserves the measured total once and stores
 * straight into the builder's array (no capacity check per element); the builder grows by the
 * encoding only if the whole of it was written.
 *
 * <pre>{@code
 * ByteStringBuilder out = new ByteStringBuilder();
 * new BerWriter().encode(out, w -> {
 *   w.writeStartSequence();
 *   w.writeInteger(5);
 *   w.writeOctetString(ByteString.encodeUtf8("A"));
 *   w.writeEndSequence();
 * });
 * assert out.toByteString().hex().equals("3006020105040141");
 * }</pre>
 *
 * <p>Under {@link BerRules#DER} the elements of a {@link #writeStartSetOf() SET OF} are sorted
 * as X.690 section 11.6 requires: by their encodings compared as octet strings. Sorting needs
 * every element's encoding first, so the write pass gathers a SET OF's content in a buffer of its
 * measured size and then copies the elements out in order: values inside a DER SET OF are copied
 * once more per enclosing SET OF. Other rules keep the caller's order.
 *
 * <p>A writer may be reused for any number of {@code encode} calls (its length table is kept), but
 * is not thread-safe.
 */
public final class BerWriter {
  private static final BytesAccess BYTES = BytesAccess.get();
  private static final int IDLE = 0;
  private static final int MEASURE = 1;
  private static final int WRITE = 2;

  private final BerRules rules;
  private final boolean sortSetOf;
  private int pass = IDLE;
  private ByteStringBuilder builder;
  private OutputStream stream;
  private final byte[] scratch = new byte[16];
  // Headers and ASCII strings gather here and go out in one append per run of them; values never
  // pass through it (they are copied once, straight into the output).
  private final byte[] pending = new byte[1024];
  private int pendingSize;
  private long position; // bytes measured or written in this pass
  private long total; // bytes measured, during the write pass
  // Writing to a builder (and not sorting): its array, reserved for the measured total once, and
  // where in it this encoding starts. Null otherwise.
  private byte[] direct;
  private int directBase;

  private int[] lengths = new int[16]; // content length of each constructed element, by order
  private int constructs;
  private int nextConstruct;
  private long[] stack = new long[8]; // measure: start position; write: expected end position
  private int depth;
  private SetOfBuffer openSetOf; // the innermost SET OF being gathered for sorting, or null

  /** Creates a writer that keeps the caller's order of SET OF elements. */
  public BerWriter() {
    this(BerRules.LDAP);
  }

  /** Creates a writer for {@code rules}: under {@link BerRules#DER} it sorts SET OF elements. */
  public BerWriter(BerRules rules) {
    this.rules = Objects.requireNonNull(rules, "rules");
    this.sortSetOf = rules.isDer();
  }

  /** Returns the rules this writer was made for. */
  public BerRules rules() {
    return rules;
  }

  /** Appends the encoding of {@code encoder} to {@code out}. */
  public void encode(ByteStringBuilder out, BerEncoder encoder) throws IOException {
    Objects.requireNonNull(out, "out");
    run(out, null, encoder);
  }

  /** Writes the encoding of {@code encoder} to {@code out} (buffer it: headers are small). */
  public void encode(OutputStream out, BerEncoder encoder) throws IOException {
    Objects.requireNonNull(out, "out");
    run(null, out, encoder);
  }

  /** Returns the encoding of {@code encoder} in a new byte string. */
  public static ByteString encode(BerEncoder encoder) throws IOException {
    return encode(BerRules.LDAP, encoder);
  }

  /** Returns the encoding of {@code encoder} under {@code rules} in a new byte string. */
  public static ByteString encode(BerRules rules, BerEncoder encoder) throws IOException {
    ByteStringBuilder out = new ByteStringBuilder();
    new BerWriter(rules).encode(out, encoder);
    return out.toByteString();
  }

  private void run(ByteStringBuilder b, OutputStream s, BerEncoder encoder) throws IOException {
    if (pass != IDLE) {
      throw new IllegalStateException("encode is not reentrant");
    }
    try {
      begin(MEASURE);
      encoder.encode(this);
      end();
      total = position;
      builder = b;
      stream = s;
      if (b != null && !sortSetOf && total <= Integer.MAX_VALUE - 8) {
        // One capacity check for the whole encoding; the write pass stores into the array.
        direct = BYTES.reserve(b, (int) total);
        directBase = b.size();
      }
      begin(WRITE);
      encoder.encode(this);
      flush();
      end();
      if (position != total) {
        throw new IllegalStateException("the encoder wrote differently in its two passes");
      }
      if (direct != null) {
        BYTES.commit(b, (int) total);
      }
    } finally {
      direct = null;
      pendingSize = 0;
      pass = IDLE;
      builder = null;
      stream = null;
      openSetOf = null;
    }
  }

  private void begin(int p) {
    pass = p;
    position = 0;
    depth = 0;
    nextConstruct = 0;
    if (p == MEASURE) {
      constructs = 0;
    }
  }

  private void end() {
    if (depth != 0) {
      throw new IllegalStateException(depth + " constructed elements left open");
    }
    if (pass == WRITE && nextConstruct != constructs) {
      throw new IllegalStateException("the encoder wrote differently in its two passes");
    }
  }

  /** Starts a universal SEQUENCE. */
  public BerWriter writeStartSequence() throws IOException {
    return writeStartConstructed(BerTags.SEQUENCE);
  }

  /** Starts a constructed element of {@code type} (a SEQUENCE with an implicit tag). */
  public BerWriter writeStartSequence(int type) throws IOException {
    return writeStartConstructed(type);
  }

  /**
   * Starts a universal SET whose elements the caller orders (DER: by tag, X.690 section 10.3);
   * use {@link #writeStartSetOf()} for a SET OF.
   */
  public BerWriter writeStartSet() throws IOException {
    return writeStartConstructed(BerTags.SET);
  }

  /** Starts a constructed element of {@code type} (a SET with an implicit tag). */
  public BerWriter writeStartSet(int type) throws IOException {
    return writeStartConstructed(type);
  }

  /** Starts a universal SET OF: sorted under {@link BerRules#DER}, else in the caller's order. */
  public BerWriter writeStartSetOf() throws IOException {
    return writeStartSetOf(BerTags.SET);
  }

  /** Starts a SET OF with type {@code type} (an implicit tag); ends with {@link #writeEndSet}. */
  public BerWriter writeStartSetOf(int type) throws IOException {
    writeStartConstructed(type);
    if (sortSetOf && pass == WRITE) {
      gatherSetOf(lengths[nextConstruct - 1]);
    }
    return this;
  }

  /** Ends the innermost open SEQUENCE or SET. */
  public BerWriter writeEndSequence() throws IOException {
    if (depth == 0) {
      throw new IllegalStateException("no sequence or set is open");
    }
    long mark = stack[--depth];
    if (pass == MEASURE) {
      int idx = (int) (mark >>> 32);
      long contentLength = position - (int) mark;
      if (contentLength > Integer.MAX_VALUE) {
        throw new IllegalStateException("element of " + contentLength + " bytes is too large");
      }
      lengths[idx] = (int) contentLength;
      position += lengthOctets((int) contentLength);
    } else if (position != mark) {
      throw new IllegalStateException("the encoder wrote differently in its two passes");
    } else if (openSetOf != null && openSetOf.depth == depth + 1) {
      emitSorted();
    }
    return this;
  }

  /** Ends the innermost open SET; same as {@link #writeEndSequence()}. */
  public BerWriter writeEndSet() throws IOException {
    return writeEndSequence();
  }

  /** Writes a universal BOOLEAN. */
  public BerWriter writeBoolean(boolean value) throws IOException {
    return writeBoolean(BerTags.BOOLEAN, value);
  }

  /** Writes a BOOLEAN with type {@code type}: 0xFF for true, as DER requires. */
  public BerWriter writeBoolean(int type, boolean value) throws IOException {
    header(type, 1);
    return octet(value ? 0xff : 0);
  }

  /** Writes a universal INTEGER. */
  public BerWriter writeInteger(long value) throws IOException {
    return writeInteger(BerTags.INTEGER, value);
  }

  /** Writes an INTEGER with type {@code type} in the fewest octets. */
  public BerWriter writeInteger(int type, long value) throws IOException {
    int n = integerOctets(value);
    header(type, n);
    for (int i = n - 1; i >= 0; i--) {
      octet((int) (value >>> (8 * i)));
    }
    return this;
  }

  /** Writes an INTEGER with type {@code type} of any size. */
  public BerWriter writeInteger(int type, BigInteger value) throws IOException {
    byte[] bytes = value.toByteArray(); // already minimal two's complement
    header(type, bytes.length);
    return bytes(bytes, 0, bytes.length);
  }

  /** Writes a universal ENUMERATED. */
  public BerWriter writeEnumerated(int value) throws IOException {
    return writeInteger(BerTags.ENUMERATED, value);
  }

  /** Writes a universal NULL. */
  public BerWriter writeNull() throws IOException {
    return writeNull(BerTags.NULL);
  }

  /** Writes a NULL with type {@code type}. */
  public BerWriter writeNull(int type) throws IOException {
    return header(type, 0);
  }

  /** Writes a universal OCTET STRING. */
  public BerWriter writeOctetString(ByteSequence value) throws IOException {
    return writeOctetString(BerTags.OCTET_STRING, value);
  }

  /** Writes an OCTET STRING with type {@code type}, copying {@code value} once. */
  public BerWriter writeOctetString(int type, ByteSequence value) throws IOException {
    int n = value.size();
    header(type, n);
    if (pass == WRITE) {
      if (direct != null) {
        value.copyTo(0, direct, at(n), n);
        position += n;
        return this;
      }
      flush();
      if (builder != null) {
        builder.append(value);
      } else {
        value.writeTo(stream);
      }
    }
    position += n;
    return this;
  }

  /** Writes {@code byteCount} bytes of {@code value} as an OCTET STRING of type {@code type}. */
  public BerWriter writeOctetString(int type, byte[] value, int offset, int byteCount)
      throws IOException {
    Objects.checkFromIndexSize(offset, byteCount, value.length);
    header(type, byteCount);
    return bytes(value, offset, byteCount);
  }

  /** Writes a universal UTF8String. */
  public BerWriter writeUtf8String(String value) throws IOException {
    return writeUtf8String(BerTags.UTF8_STRING, value);
  }

  /**
   * Writes {@code value} in UTF-8 as an element of type {@code type} (use
   * {@link BerTags#OCTET_STRING} for an LDAPString). ASCII text is copied without an
   * intermediate array, gathered with the headers around it.
   */
  @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exact for ASCII
  public BerWriter writeUtf8String(int type, String value) throws IOException {
    if (Utf8.isAscii(value)) {
      int n = value.length();
      header(type, n);
      if (pass == MEASURE) {
        position += n;
        return this;
      }
      if (direct != null) {
        value.getBytes(0, n, direct, at(n)); // no allocation: the chars are ASCII
        position += n;
        return this;
      }
      if (n > pending.length - pendingSize) {
        flush();
      }
      if (n <= pending.length) {
        value.getBytes(0, n, pending, pendingSize); // no allocation: the chars are ASCII
        pendingSize += n;
        position += n;
        return this;
      }
      byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      return bytes(bytes, 0, n);
    }
    if (pass == MEASURE) {
      int n = Utf8.encodedLength(value);
      header(type, n);
      position += n;
      return this;
    }
    byte[] bytes = value.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    header(type, bytes.length);
    return bytes(bytes, 0, bytes.length);
  }

  // ---------------------------------------------------------------------------------------------

  private BerWriter writeStartConstructed(int type) throws IOException {
    if (!BerTags.isConstructed(type)) {
      throw new IllegalArgumentException("not a constructed type: " + BerTags.toString(type));
    }
    checkPass();
    if (depth == stack.length) {
      stack = Arrays.copyOf(stack, depth * 2);
    }
    if (pass == MEASURE) {
      if (constructs == lengths.length) {
        lengths = Arrays.copyOf(lengths, constructs * 2);
      }
      position += BerTags.identifierOctets(type);
      stack[depth++] = (long) constructs++ << 32 | position;
      return this;
    }
    if (nextConstruct == constructs) {
      throw new IllegalStateException("the encoder wrote differently in its two passes");
    }
    int contentLength = lengths[nextConstruct++];
    header(type, contentLength);
    stack[depth++] = position + contentLength;
    return this;
  }

  private BerWriter header(int type, int contentLength) throws IOException {
    checkPass();
    if (openSetOf != null && openSetOf.depth == depth && pass == WRITE) {
      openSetOf.elementStarts(Math.toIntExact(position - openSetOf.contentStart));
    }
    if (contentLength < 0x80 && (type & 0x1f) != 0x1f && (type & ~0xff) == 0) {
      if (direct != null) {
        int i = at(2);
        direct[i] = (byte) type;
        direct[i + 1] = (byte) contentLength;
        position += 2;
        return this;
      }
      if (pass == WRITE) {
        if (pending.length - pendingSize < 2) {
          flush();
        }
        pending[pendingSize++] = (byte) type;
        pending[pendingSize++] = (byte) contentLength;
        position += 2;
        return this;
      }
      scratch[0] = (byte) type;
      scratch[1] = (byte) contentLength;
      return bytes(scratch, 0, 2);
    }
    int n = 0;
    int lead = type & 0xff;
    scratch[n++] = (byte) lead;
    if ((lead & 0x1f) == 0x1f) {
      int number = type >>> 8;
      for (int shift = 7 * (BerTags.identifierOctets(type) - 2); shift > 0; shift -= 7) {
        scratch[n++] = (byte) (0x80 | (number >>> shift));
      }
      scratch[n++] = (byte) (number & 0x7f);
    }
    if (contentLength < 0x80) {
      scratch[n++] = (byte) contentLength;
    } else {
      int octets = lengthOctets(contentLength) - 1;
      scratch[n++] = (byte) (0x80 | octets);
      for (int i = octets - 1; i >= 0; i--) {
        scratch[n++] = (byte) (contentLength >>> (8 * i));
      }
    }
    return bytes(scratch, 0, n);
  }

  private BerWriter bytes(byte[] src, int offset, int byteCount) throws IOException {
    if (direct != null) {
      System.arraycopy(src, offset, direct, at(byteCount), byteCount);
    } else if (pass == WRITE) {
      if (byteCount > pending.length - pendingSize) {
        flush();
      }
      if (byteCount <= pending.length) {
        System.arraycopy(src, offset, pending, pendingSize, byteCount);
        pendingSize += byteCount;
      } else if (builder != null) {
        builder.append(src, offset, byteCount);
      } else {
        stream.write(src, offset, byteCount);
      }
    }
    position += byteCount;
    return this;
  }

  private BerWriter octet(int b) throws IOException {
    if (direct != null) {
      direct[at(1)] = (byte) b;
    } else if (pass == WRITE) {
      if (pendingSize == pending.length) {
        flush();
      }
      pending[pendingSize++] = (byte) b;
    }
    position++;
    return this;
  }

  private void flush() throws IOException {
    if (pendingSize > 0) {
      if (builder != null) {
        builder.append(pending, 0, pendingSize);
      } else {
        stream.write(pending, 0, pendingSize);
      }
      pendingSize = 0;
    }
  }

  /** Sends the rest of this SET OF's content to a buffer of its measured size. */
  private void gatherSetOf(int contentLength) throws IOException {
    flush();
    openSetOf = new SetOfBuffer(openSetOf, depth, position, contentLength, builder, stream);
    builder = null;
    stream = openSetOf;
  }

  /** Writes the gathered SET OF's elements, sorted, where its content would have gone. */
  private void emitSorted() throws IOException {
    flush();
    SetOfBuffer set = openSetOf;
    openSetOf = set.outer;
    builder = set.outerBuilder;
    stream = set.outerStream;
    for (int start : set.sortedStarts()) {
      int byteCount = set.end(start) - start;
      if (builder != null) {
        builder.append(set.bytes, start, byteCount);
      } else {
        stream.write(set.bytes, start, byteCount);
      }
    }
  }

  /** Returns where the next {@code byteCount} bytes go in {@link #direct}, within the total. */
  private int at(int byteCount) {
    if (position + byteCount > total) {
      throw new IllegalStateException("the encoder wrote differently in its two passes");
    }
    return directBase + (int) position;
  }

  private void checkPass() {
    if (pass == IDLE) {
      throw new IllegalStateException("write only inside encode(...)");
    }
  }

  /** Returns the number of length octets for {@code contentLength}, the first included. */
  static int lengthOctets(int contentLength) {
    if (contentLength < 0x80) {
      return 1;
    }
    return 2 + (31 - Integer.numberOfLeadingZeros(contentLength)) / 8;
  }

  private static int integerOctets(long value) {
    int significant = 65 - Long.numberOfLeadingZeros(value < 0 ? ~value : value);
    return Math.max(1, (significant + 7) / 8);
  }

  /** The content of one SET OF, gathered for sorting, and where the output went before it. */
  private static final class SetOfBuffer extends OutputStream {
    final SetOfBuffer outer;
    final int depth; // the writer's depth while this SET OF is open
    final long contentStart; // the writer's position at the first content octet
    final ByteStringBuilder outerBuilder;
    final OutputStream outerStream;
    final byte[] bytes;
    private int size;
    private int[] starts = new int[8];
    private int count;

    SetOfBuffer(SetOfBuffer outer, int depth, long contentStart, int contentLength,
        ByteStringBuilder outerBuilder, OutputStream outerStream) {
      this.outer = outer;
      this.depth = depth;
      this.contentStart = contentStart;
      this.outerBuilder = outerBuilder;
      this.outerStream = outerStream;
      this.bytes = new byte[contentLength];
    }

    void elementStarts(int offset) {
      if (count == starts.length) {
        starts = Arrays.copyOf(starts, count * 2);
      }
      starts[count++] = offset;
    }

    int end(int start) {
      int i = Arrays.binarySearch(starts, 0, count, start);
      return i + 1 < count ? starts[i + 1] : size;
    }

    /**
     * Returns the element offsets in X.690 11.6 order. The rule pads the shorter encoding with
     * zero octets; a plain unsigned comparison agrees, because two different whole encodings
     * already differ within the shorter one's tag and length octets.
     */
    Integer[] sortedStarts() {
      Integer[] order = new Integer[count];
      for (int i = 0; i < count; i++) {
        order[i] = starts[i];
      }
      Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(bytes, a, end(a), bytes, b, end(b)));
      return order;
    }

    @Override
    public void write(int b) {
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] src, int offset, int byteCount) {
      System.arraycopy(src, offset, bytes, size, byteCount);
      size += byteCount;
    }
  }
}
