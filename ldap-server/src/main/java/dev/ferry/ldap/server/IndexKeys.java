package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The bytes an index files a key under: {@code type OID, 0, kind, key}, where the key's bytes
 * order as its matching rule orders keys (strings by code point, as their UTF-8 bytes do;
 * integers by value; times by instant), so that an ordering range is one range of bytes in
 * either store. A key longer than {@link #MAX_BYTES} is cut: equal keys stay equal and order is
 * kept or made a tie, so postings stay a superset of the entries a filter matches, which the
 * search checks one by one.
 */
final class IndexKeys {
  /** Under LMDB's limit of 511 bytes for a key, with room for a type OID. */
  static final int MAX_BYTES = 480;

  static final byte EQUALITY = 'e';
  static final byte PRESENCE = 'p';
  static final byte SUBSTRING = 's';
  static final byte ORDERING = 'o';

  private IndexKeys() {}

  /** The prefix of every key of {@code kind} for {@code type}. */
  static byte[] prefix(AttributeType type, byte kind) {
    byte[] oid = type.oid.getBytes(StandardCharsets.UTF_8);
    byte[] p = new byte[oid.length + 2];
    System.arraycopy(oid, 0, p, 0, oid.length);
    p[oid.length + 1] = kind;
    return p;
  }

  /** The index key of {@code key} (a matching rule's key) under {@code prefix}. */
  static ByteString of(byte[] prefix, Object key) {
    return join(prefix, bytes(key));
  }

  static ByteString of(byte[] prefix, String text) {
    return join(prefix, text.getBytes(StandardCharsets.UTF_8));
  }

  /** The prefix alone: presence, or the lowest key of a kind. */
  static ByteString of(byte[] prefix) {
    return ByteString.of(prefix);
  }

  /** The first key after every key under {@code prefix}. */
  static ByteString after(byte[] prefix) {
    byte[] p = prefix.clone();
    p[p.length - 1]++;
    return ByteString.takeOwnership(p);
  }

  private static ByteString join(byte[] prefix, byte[] key) {
    int n = Math.min(MAX_BYTES, prefix.length + key.length);
    byte[] out = new byte[n];
    System.arraycopy(prefix, 0, out, 0, prefix.length);
    System.arraycopy(key, 0, out, prefix.length, n - prefix.length);
    return ByteString.takeOwnership(out);
  }

  /** A matching rule's key as bytes that order as the rule orders keys. */
  static byte[] bytes(Object key) {
    return switch (key) {
      case String s -> s.getBytes(StandardCharsets.UTF_8);
      case ByteString b -> b.toByteArray();
      case BigInteger i -> integer(i);
      case Instant t -> instant(t);
      default -> throw new IllegalArgumentException("no index form for " + key.getClass());
    };
  }

  /** Sign first (negative, zero, positive), then magnitude length, then magnitude. */
  private static byte[] integer(BigInteger i) {
    if (i.signum() == 0) {
      return new byte[] {1};
    }
    byte[] mag = i.abs().toByteArray();
    byte[] out = new byte[3 + mag.length];
    boolean negative = i.signum() < 0;
    out[0] = (byte) (negative ? 0 : 2);
    int length = negative ? ~mag.length : mag.length;
    out[1] = (byte) (length >>> 8);
    out[2] = (byte) length;
    for (int k = 0; k < mag.length; k++) {
      out[3 + k] = (byte) (negative ? ~mag[k] : mag[k]);
    }
    return out;
  }

  /** Seconds with the sign bit flipped, then nanoseconds, both big-endian. */
  private static byte[] instant(Instant t) {
    long s = t.getEpochSecond() ^ Long.MIN_VALUE;
    int n = t.getNano();
    byte[] out = new byte[12];
    for (int k = 0; k < 8; k++) {
      out[k] = (byte) (s >>> (56 - 8 * k));
    }
    for (int k = 0; k < 4; k++) {
      out[8 + k] = (byte) (n >>> (24 - 8 * k));
    }
    return out;
  }
}
