package dev.ferry.ldap.server;

import java.nio.ByteBuffer;

/**
 * The tag and definite length of a BER element (X.690 8.1.2, 8.1.3 with minimal lengths, as
 * {@link dev.ferry.asn1.BerWriter} writes them). Only this is written here: stored entries are
 * spliced from elements the codec's rules already shaped, and a splice needs new headers around
 * them, never a new encoding of what they hold.
 */
final class BerHeaders {
  private BerHeaders() {}

  /** Returns the size of a header (low tag number) for {@code length} content bytes. */
  static int size(long length) {
    return length < 0x80 ? 2 : 2 + (63 - Long.numberOfLeadingZeros(length)) / 8 + 1;
  }

  /** Returns the size of a whole element with {@code length} content bytes. */
  static long element(long length) {
    return size(length) + length;
  }

  /** Writes a header at {@code a[p]}; returns the position after it. */
  static int put(byte[] a, int p, int tag, int length) {
    a[p] = (byte) tag;
    if (length < 0x80) {
      a[p + 1] = (byte) length;
      return p + 2;
    }
    int octets = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
    a[p + 1] = (byte) (0x80 | octets);
    p += 2;
    for (int shift = 8 * (octets - 1); shift >= 0; shift -= 8) {
      a[p++] = (byte) (length >>> shift);
    }
    return p;
  }

  /** Returns the content length of the element whose header starts at {@code b.get(p)}. */
  static int length(ByteBuffer b, int p) {
    int l = b.get(p + 1);
    if (l >= 0) {
      return l;
    }
    int n = l & 0x7f;
    int length = 0;
    for (int i = 0; i < n; i++) {
      length = length << 8 | (b.get(p + 2 + i) & 0xff);
    }
    return length;
  }

  /** Returns the size of the header that starts at {@code b.get(p)}. */
  static int headerSize(ByteBuffer b, int p) {
    int l = b.get(p + 1);
    return l >= 0 ? 2 : 2 + (l & 0x7f);
  }

  /** Returns the position after the element whose header starts at {@code b.get(p)}. */
  static int end(ByteBuffer b, int p) {
    return p + headerSize(b, p) + length(b, p);
  }
}
