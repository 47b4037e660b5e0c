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
    // LDAPMessage, which must be the whole PDU
    int p = content(a, base, end, 0x30);
    if (p < 0 || contentEnd(a, base) != end) {
      return null;
    }
    // messageID
    if (a[p] != 0x02 || end - p < 3) {
      return null;
    }
    int idLength = a[p + 1];
    if (idLength < 1 || idLength > 4 || idLength > maxValue || end - p - 2 < idLength) {
      return null;
    }
    int id = a[p + 2]; // sign-extended
    for (int i = 1; i < idLength; i++) {
      id = id << 8 | (a[p + 2 + i] & 0xff);
    }
    if (id < 0 || (idLength > 1 && a[p + 2] == 0 && a[p + 3] >= 0)) {
      return null; // negative, or a redundant leading octet (X.690 8.3.2): the general path says
    }
    p += 2 + idLength;
    // protocolOp, which must end the message: no controls, nothing else
    if (p >= end) {
      return null;
    }
    int opType = a[p] & 0xff;
    if (opType != Tags.SEARCH_RESULT_ENTRY && opType != Tags.ADD_REQUEST) {
      return null;
    }
    int q = content(a, p, end, opType);
    if (q < 0 || contentEnd(a, p) != end) {
      return null;
    }
    p = q;
    // objectName
    q = content(a, p, end, 0x04);
    if (q < 0) {
      return null;
    }
    int dnEnd = contentEnd(a, p);
    if (dnEnd - q > maxValue) {
      return null;
    }
    String dn = utf8(a, q, dnEnd - q);
    if (dn == null) {
      return null;
    }
    p = dnEnd;
    // attributes, which must end the operation
    q = content(a, p, end, 0x30);
    if (q < 0 || contentEnd(a, p) != end) {
      return null;
    }
    int count = count(a, q, end);
    if (count < 0) {
      return null;
    }
    FrozenList<Attribute> attributes = new FrozenList<>(count);
    p = q;
    while (p < end) {
      int attrEnd = contentEnd(a, p); // counted above: a well-formed SEQUENCE within the list
      p = content(a, p, end, 0x30);
      // type
      q = content(a, p, attrEnd, 0x04);
      if (q < 0) {
        return null;
      }
      int descEnd = contentEnd(a, p);
      int descLength = descEnd - q;
      if (descLength > maxValue) {
        return null;
      }
      String desc = descriptions.ascii(a, q, descLength);
      if (desc == null && (desc = utf8(a, q, descLength)) == null) {
        return null;
      }
      p = descEnd;
      // vals, which must end the attribute
      q = content(a, p, attrEnd, 0x31);
      if (q < 0 || contentEnd(a, p) != attrEnd) {
        return null;
      }
      p = q;
      Attribute attr;
      if (p == attrEnd) {
        attr = new Attribute(desc, List.of());
      } else {
        ByteString first = value(pdu, a, base, p, attrEnd, maxValue);
        if (first == null) {
          return null;
        }
        p = contentEnd(a, p);
        if (p == attrEnd) {
          attr = Attribute.single(desc, first);
        } else {
          FrozenList<ByteString> values = new FrozenList<>(4);
          values.add0(first);
          while (p < attrEnd) {
            ByteString v = value(pdu, a, base, p, attrEnd, maxValue);
            if (v == null) {
              return null;
            }
            values.add0(v);
            p = contentEnd(a, p);
          }
          attr = new Attribute(desc, values.freeze());
        }
      }
      attributes.add0(attr);
      p = attrEnd;
    }
    List<Attribute> list = attributes.freeze();
    ProtocolOp op = opType == Tags.SEARCH_RESULT_ENTRY
        ? new ProtocolOp.SearchResultEntry(dn, list)
        : new ProtocolOp.AddRequest(dn, list);
    return new LdapMessage(id, op, List.of());
  }

  /** Returns the value at {@code p} as a slice of {@code pdu}, or null if it is not plain. */
  private static ByteString value(ByteString pdu, byte[] a, int base, int p, int bound,
      int maxValue) {
    int q = content(a, p, bound, 0x04);
    if (q < 0) {
      return null;
    }
    int length = contentEnd(a, p) - q;
    if (length > maxValue) {
      return null;
    }
    return length == 0 ? ByteString.EMPTY : pdu.subSequence(q - base, length);
  }

  /** Returns the number of SEQUENCEs that exactly fill {@code [p, end)}, or -1. */
  private static int count(byte[] a, int p, int end) {
    int n = 0;
    while (p < end) {
      if (content(a, p, end, 0x30) < 0) {
        return -1;
      }
      p = contentEnd(a, p);
      n++;
    }
    return n;
  }

  /**
   * Returns where the content of the element at {@code p} begins if its identifier octet is
   * {@code tag} and its definite length fits before {@code bound}; else -1.
   */
  private static int content(byte[] a, int p, int bound, int tag) {
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
    return length <= bound - q ? q : -1;
  }

  /** Returns where the element at {@code p}, already checked by {@link #content}, ends. */
  private static int contentEnd(byte[] a, int p) {
    int l = a[p + 1];
    if (l >= 0) {
      return p + 2 + l;
    }
    int n = l & 0x7f;
    int length = 0;
    for (int i = 0; i < n; i++) {
      length = length << 8 | (a[p + 2 + i] & 0xff);
    }
    return p + 2 + n + length;
  }

  /** Decodes UTF-8; null if that would replace bytes (the general path checks strictly). */
  private static String utf8(byte[] a, int p, int length) {
    String s = new String(a, p, length, StandardCharsets.UTF_8);
    return s.indexOf('\uFFFD') < 0 ? s : null;
  }
}
