package dev.ferry.ldap;

import dev.ferry.asn1.BerLimits;
import dev.ferry.asn1.BerStrings;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.bytes.internal.BytesAccess;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The fast path for the messages that carry entries: SearchResultEntry and AddRequest without
 * controls, an [APPLICATION n] SEQUENCE of an LDAPDN and a PartialAttributeList. They are most of
 * the bytes an LDAP peer moves, so they are encoded and decoded straight on arrays here instead
 * of element by element through {@link dev.ferry.asn1.BerWriter} and
 * {@link dev.ferry.asn1.BerReader}.
 *
 * <p>Encoding computes every length from the model (one pass over the attributes), reserves the
 * exact total in the builder once and writes headers, names and values into its array. The
 * output is byte for byte what {@link MessageEncoder} writes (DER-shaped: minimal lengths).
 *
 * <p>Decoding reads the PDU's array directly and returns {@code null}, so that the caller falls
 * back to {@link MessageDecoder}, as soon as anything is not the plain shape: another operation,
 * controls, another tag, an indefinite or over-long length, a trailing or unknown element, a limit
 * that would be hit, a string that is not clean UTF-8. What it accepts, {@link MessageDecoder}
 * accepts with the same result; everything else, errors included, is left to it, so errors keep
 * their exact reasons and offsets.
 */
final class EntryCodec {
  private static final BytesAccess BYTES = BytesAccess.get();
  /** The depth {@link MessageDecoder} reaches inside an entry: message, op, list, attr, set. */
  private static final int DEPTH = 5;

  private EntryCodec() {}

  // --- encoding ---------------------------------------------------------------------------------

  /**
   * Appends the PDU of {@code m} to {@code out} if {@code m} is an entry-carrying message this
   * path handles; returns false, having written nothing, otherwise.
   */
  static boolean encode(LdapMessage m, ByteStringBuilder out) {
    if (!m.controls().isEmpty()) {
      return false;
    }
    int opType;
    String dn;
    List<Attribute> attributes;
    switch (m.op()) {
      case ProtocolOp.SearchResultEntry e -> {
        opType = Tags.SEARCH_RESULT_ENTRY;
        dn = e.objectName();
        attributes = e.attributes();
      }
      case ProtocolOp.AddRequest a -> {
        opType = Tags.ADD_REQUEST;
        dn = a.entry();
        attributes = a.attributes();
      }
      default -> {
        return false;
      }
    }
    byte[] dnUtf8 = isAscii(dn) ? null : dn.getBytes(StandardCharsets.UTF_8);
    int dnLength = dnUtf8 == null ? dn.length() : dnUtf8.length;
    long list = 0;
    for (int i = 0, n = attributes.size(); i < n; i++) {
      Attribute a = attributes.get(i);
      if (!a.descriptionIsAscii()) {
        return false; // not a valid description (RFC 4512 keeps them ASCII): the general path
      }
      long length = attributeLength(a);
      if (length < 0) {
        return false;
      }
      list += elementSize(length);
    }
    long op = elementSize(dnLength) + elementSize(list);
    int id = m.messageId();
    long message = 2 + integerOctets(id) + elementSize(op);
    long total = elementSize(message);
    if (total > Integer.MAX_VALUE - 8) {
      return false; // BerWriter reports it
    }
    byte[] a = BYTES.reserve(out, (int) total);
    int start = out.size();
    int p = header(a, start, 0x30, (int) message);
    p = integer(a, p, id);
    p = header(a, p, opType, (int) op);
    p = header(a, p, 0x04, dnLength);
    if (dnUtf8 == null) {
      ascii(dn, a, p);
    } else {
      System.arraycopy(dnUtf8, 0, a, p, dnLength);
    }
    p += dnLength;
    p = header(a, p, 0x30, (int) list);
    for (int i = 0, n = attributes.size(); i < n; i++) {
      p = attribute(a, p, attributes.get(i));
    }
    if (p - start != total) {
      throw new IllegalStateException("entry changed while encoding");
    }
    BYTES.commit(out, (int) total);
    return true;
  }

  /** Returns the content length of the attribute's SEQUENCE, or -1 if it is too large. */
  private static long attributeLength(Attribute a) {
    ByteString only = a.onlyValue();
    long set = only != null ? elementSize(only.size()) : setLength(a);
    long length = elementSize(a.description().length()) + elementSize(set);
    return length > Integer.MAX_VALUE ? -1 : length;
  }

  private static long setLength(Attribute a) {
    long set = 0;
    for (int j = 0, m = a.size(); j < m; j++) {
      set += elementSize(a.value(j).size());
    }
    return set;
  }

  private static int attribute(byte[] a, int p, Attribute attr) {
    String desc = attr.description();
    int d = desc.length();
    ByteString only = attr.onlyValue();
    int set = (int) (only != null ? elementSize(only.size()) : setLength(attr));
    p = header(a, p, 0x30, (int) (elementSize(d) + elementSize(set)));
    p = header(a, p, 0x04, d);
    ascii(desc, a, p);
    p += d;
    p = header(a, p, 0x31, set);
    if (only != null) {
      return writeValue(a, p, only);
    }
    for (int j = 0, n = attr.size(); j < n; j++) {
      p = writeValue(a, p, attr.value(j));
    }
    return p;
  }

  private static int writeValue(byte[] a, int p, ByteString v) {
    int size = v.size();
    p = header(a, p, 0x04, size);
    System.arraycopy(BYTES.array(v), BYTES.arrayOffset(v), a, p, size);
    return p + size;
  }

  /** Returns the size of a whole element (low tag number) with {@code length} content bytes. */
  static long elementSize(long length) {
    if (length < 0x80) {
      return 2 + length;
    }
    return 3 + (63 - Long.numberOfLeadingZeros(length)) / 8 + length;
  }

  /** Writes a header with a low tag number and a minimal definite length; returns the end. */
  static int header(byte[] a, int p, int tag, int length) {
    a[p] = (byte) tag;
    if (length < 0x80) {
      a[p + 1] = (byte) length;
      return p + 2;
    }
    int octets = 1 + (31 - Integer.numberOfLeadingZeros(length)) / 8;
    a[p + 1] = (byte) (0x80 | octets);
    p += 2;
    for (int shift = 8 * (octets - 1); shift >= 0; shift -= 8) {
      a[p++] = (byte) (length >>> shift);
    }
    return p;
  }

  private static int integerOctets(int nonNegative) {
    return (33 - Integer.numberOfLeadingZeros(nonNegative) + 7) / 8;
  }

  private static int integer(byte[] a, int p, int nonNegative) {
    int n = integerOctets(nonNegative);
    a[p] = 0x02;
    a[p + 1] = (byte) n;
    p += 2;
    for (int shift = 8 * (n - 1); shift >= 0; shift -= 8) {
      a[p++] = (byte) (nonNegative >>> shift);
    }
    return p;
  }

  static boolean isAscii(String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): exact for ASCII
  private static void ascii(String s, byte[] a, int p) {
    s.getBytes(0, s.length(), a, p);
  }

  // --- decoding ---------------------------------------------------------------------------------
  //
  // Each element is parsed once, into a span: where its content starts and ends, packed in a
  // long as start << 32 | end (-1: not the element expected).

  /**
   * Decodes {@code pdu} if it is a plain SearchResultEntry or AddRequest within
   * {@code limits}; returns null, having decided nothing, for anything else.
   */
  static LdapMessage decode(ByteString pdu, LdapLimits limits, BerStrings descriptions) {
    BerLimits ber = limits.ber();
    int size = pdu.size();
    if (ber.maxDepth() < DEPTH || size > ber.maxPduBytes() || size < 2) {
      return null;
    }
    int maxValue = ber.maxElementBytes();
    byte[] a = BYTES.array(pdu);
    int base = BYTES.arrayOffset(pdu);
    int end = base + size;
    long message = span(a, base, end, 0x30); // must be the whole PDU
    if (message < 0 || end(message) != end) {
      return null;
    }
    long idSpan = span(a, start(message), end, 0x02);
    int id = messageId(a, idSpan, maxValue);
    if (id < 0) {
      return null;
    }
    int p = end(idSpan);
    int opType = p < end ? a[p] & 0xff : -1;
    if (opType != Tags.SEARCH_RESULT_ENTRY && opType != Tags.ADD_REQUEST) {
      return null;
    }
    long op = span(a, p, end, opType); // must end the message: no controls, nothing else
    if (op < 0 || end(op) != end) {
      return null;
    }
    long objectName = span(a, start(op), end, 0x04);
    String dn = objectName < 0 || length(objectName) > maxValue ? null
        : utf8(a, start(objectName), length(objectName));
    if (dn == null) {
      return null;
    }
    long list = span(a, end(objectName), end, 0x30); // must end the operation
    List<Attribute> attributes = list < 0 || end(list) != end ? null
        : attributes(pdu, a, base, list, maxValue, descriptions);
    if (attributes == null) {
      return null;
    }
    ProtocolOp decoded = opType == Tags.SEARCH_RESULT_ENTRY
        ? new ProtocolOp.SearchResultEntry(dn, attributes)
        : new ProtocolOp.AddRequest(dn, attributes);
    return new LdapMessage(id, decoded, List.of());
  }

  /** Returns the message ID in {@code span}, or -1 if it is not a plain non-negative one. */
  private static int messageId(byte[] a, long span, int maxValue) {
    int length = span < 0 ? 0 : length(span);
    if (length < 1 || length > 4 || length > maxValue) {
      return -1;
    }
    int p = start(span);
    if (length > 1 && a[p] == 0 && a[p + 1] >= 0) {
      return -1; // a redundant leading octet (X.690 8.3.2): the general path reports it
    }
    int id = a[p]; // sign-extended: a negative ID stays negative, for the general path
    for (int i = 1; i < length; i++) {
      id = id << 8 | (a[p + i] & 0xff);
    }
    return id;
  }

  /** Returns the attributes of the list in {@code list}, or null if any is not plain. */
  private static List<Attribute> attributes(ByteString pdu, byte[] a, int base, long list,
      int maxValue, BerStrings descriptions) {
    int end = end(list);
    int count = count(a, start(list), end);
    if (count < 0) {
      return null;
    }
    FrozenList<Attribute> attributes = new FrozenList<>(count);
    for (int p = start(list); p < end; ) {
      long attr = span(a, p, end, 0x30); // counted above: a SEQUENCE within the list
      Attribute decoded = attribute(pdu, a, base, attr, maxValue, descriptions);
      if (decoded == null) {
        return null;
      }
      attributes.add0(decoded);
      p = end(attr);
    }
    return attributes.freeze();
  }

  private static Attribute attribute(ByteString pdu, byte[] a, int base, long attr,
      int maxValue, BerStrings descriptions) {
    int attrEnd = end(attr);
    long type = span(a, start(attr), attrEnd, 0x04);
    if (type < 0 || length(type) > maxValue) {
      return null;
    }
    String desc = descriptions.ascii(a, start(type), length(type));
    if (desc == null && (desc = utf8(a, start(type), length(type))) == null) {
      return null;
    }
    long vals = span(a, end(type), attrEnd, 0x31); // must end the attribute
    if (vals < 0 || end(vals) != attrEnd) {
      return null;
    }
    if (start(vals) == attrEnd) {
      return new Attribute(desc, List.of());
    }
    long first = span(a, start(vals), attrEnd, 0x04);
    if (first < 0 || length(first) > maxValue) {
      return null;
    }
    if (end(first) == attrEnd) {
      return Attribute.single(desc, slice(pdu, base, first));
    }
    FrozenList<ByteString> values = new FrozenList<>(4);
    values.add0(slice(pdu, base, first));
    for (int p = end(first); p < attrEnd; ) {
      long value = span(a, p, attrEnd, 0x04);
      if (value < 0 || length(value) > maxValue) {
        return null;
      }
      values.add0(slice(pdu, base, value));
      p = end(value);
    }
    return new Attribute(desc, values.freeze());
  }

  /** Returns the content in {@code span} as a slice of {@code pdu}. */
  private static ByteString slice(ByteString pdu, int base, long span) {
    int length = length(span);
    return length == 0 ? ByteString.EMPTY : pdu.subSequence(start(span) - base, length);
  }

  /** Returns the number of SEQUENCEs that exactly fill {@code [p, end)}, or -1. */
  private static int count(byte[] a, int p, int end) {
    int n = 0;
    while (p < end) {
      long s = span(a, p, end, 0x30);
      if (s < 0) {
        return -1;
      }
      p = end(s);
      n++;
    }
    return n;
  }

  /**
   * Returns the content span of the element at {@code p} if its identifier octet is {@code tag}
   * and its definite length fits before {@code bound}; else -1.
   */
  private static long span(byte[] a, int p, int bound, int tag) {
    if (bound - p < 2 || a[p] != (byte) tag) {
      return -1;
    }
    int l = a[p + 1];
    int q = p + 2;
    long length;
    if (l >= 0) {
      length = l;
    } else {
      int n = l & 0x7f;
      if (n == 0 || n > 4 || bound - q < n) {
        return -1; // indefinite (not LDAP), reserved, or truncated: the general path says which
      }
      length = 0;
      for (int i = 0; i < n; i++) {
        length = length << 8 | (a[q + i] & 0xff);
      }
      q += n;
    }
    return length <= bound - q ? (long) q << 32 | (q + length) : -1;
  }

  private static int start(long span) {
    return (int) (span >>> 32);
  }

  private static int end(long span) {
    return (int) span;
  }

  private static int length(long span) {
    return end(span) - start(span);
  }

  /** Decodes UTF-8; null if that would replace bytes (the general path checks strictly). */
  private static String utf8(byte[] a, int p, int length) {
    String s = new String(a, p, length, StandardCharsets.UTF_8);
    return s.indexOf('\uFFFD') < 0 ? s : null;
  }
}
