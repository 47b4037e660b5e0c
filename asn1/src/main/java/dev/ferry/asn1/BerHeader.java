package dev.ferry.asn1;

import java.io.IOException;

/**
 * The identifier and length octets of one element, parsed from an {@link Octets} source. One
 * instance is reused per reader, so parsing a header allocates nothing.
 *
 * <pre>
 * header     = identifier length
 * identifier = octet                          ; number 0..30 in bits 5-1
 *            | (octet with bits 5-1 = 11111) 1*3(base-128 octet), first not 0x80, number >= 31
 * length     = %x00-7F                        ; short form
 *            | %x80                           ; indefinite: BER only, constructed only
 *            | %x81-84 1*4octet               ; long form: DER wants it minimal
 * </pre>
 */
final class BerHeader {
  static final long INDEFINITE = -1;

  /** Where header octets come from: the in-memory reader or the stream framer. */
  interface Octets {
    /** Returns the next octet in {@code [0, 255]}, or throws if the input ends. */
    int octet() throws IOException;

    /** Returns the absolute offset of the next octet. */
    long offset();
  }

  int type;
  long length;
  long lengthOffset;
  int headerBytes;

  void parse(Octets src, BerRules rules) throws IOException {
    long start = src.offset();
    int b0 = src.octet();
    type = (b0 & 0x1f) == 0x1f ? longTag(src, b0, start) : b0;
    lengthOffset = src.offset();
    int l = src.octet();
    if (l < 0x80) {
      length = l;
    } else if (l == 0x80) {
      length = indefinite(rules);
    } else {
      length = longLength(src, l, rules);
    }
    headerBytes = (int) (src.offset() - start);
  }

  boolean isConstructed() {
    return BerTags.isConstructed(type);
  }

  /** Returns true for end-of-contents: exactly the two octets 00 00 (X.690 8.1.5). */
  boolean isEndOfContents() {
    return type == 0 && length == 0 && headerBytes == 2;
  }

  /**
   * Throws if this header, which starts at {@code headerOffset} where an element must be, has
   * tag [UNIVERSAL 0]: X.690 reserves it for the end-of-contents octets, which may only end
   * indefinite-length contents (8.1.5). Read as an element, 00 00 in definite contents would let
   * two encodings with different lengths decode alike.
   */
  void checkNotEndOfContents(long headerOffset) throws BerException {
    if ((type & ~BerTags.CONSTRUCTED) != 0) {
      return;
    }
    throw new BerException(isEndOfContents()
        ? "end-of-contents octets outside indefinite-length contents (expected: an element)"
        : "tag [UNIVERSAL 0] is reserved for end-of-contents (expected: an element)",
        headerOffset, null);
  }

  private static int longTag(Octets src, int b0, long start) throws IOException {
    int number = 0;
    for (int i = 0; ; i++) {
      long offset = src.offset();
      int b = src.octet();
      if (i == 0 && b == 0x80) {
        throw new BerException("tag number with a leading zero octet (expected: none)", offset,
            null);
      }
      number = number << 7 | (b & 0x7f);
      if ((b & 0x80) == 0) {
        break;
      }
      if (i == 2) {
        throw new BerException("tag number uses more than 3 octets (expected: 1..3)", start,
            null);
      }
    }
    if (number < 31) {
      throw new BerException("tag number " + number
          + " in the long form (expected: the one-octet form below 31)", start, null);
    }
    return b0 | number << 8;
  }

  private long indefinite(BerRules rules) throws BerException {
    if (!rules.allowsIndefiniteLength()) {
      throw new BerException("indefinite length (expected: definite under " + rules + " rules)",
          lengthOffset, null);
    }
    if (!isConstructed()) {
      throw new BerException("indefinite length of a primitive element (expected: definite)",
          lengthOffset, null);
    }
    return INDEFINITE;
  }

  private long longLength(Octets src, int l, BerRules rules) throws IOException {
    if (l == 0xff) {
      throw new BerException("reserved length octet 0xff (expected: 0x00..0xfe)", lengthOffset,
          null);
    }
    int n = l & 0x7f;
    if (n > 4) {
      throw new BerException("BER length uses " + n + " octets (expected: 1..4)", lengthOffset,
          null);
    }
    long v = 0;
    int first = 0;
    for (int i = 0; i < n; i++) {
      int b = src.octet();
      first = i == 0 ? b : first;
      v = v << 8 | b;
    }
    if (rules.isDer() && (v < 0x80 || first == 0)) {
      throw new BerException("length " + v + " in " + n
          + " octets (expected: the minimal encoding in DER)", lengthOffset, null);
    }
    return v;
  }
}
