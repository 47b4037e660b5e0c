package dev.ferry.asn1;

import dev.ferry.bytes.ByteSequenceReader;
import dev.ferry.bytes.DecodeException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A small cache of short ASCII strings for {@link BerReader#readUtf8String(int, BerStrings)}, so
 * that names which repeat in every PDU (LDAP attribute descriptions such as {@code cn} or
 * {@code objectClass}) are not allocated again each time.
 *
 * <p>The cache is direct-mapped: {@value #SLOTS} slots indexed by a hash of the bytes, each holding
 * the last string seen there. A hit compares the input bytes with the cached string, so a
 * collision only costs a miss. Strings are immutable and slot writes are single reference writes,
 * so one instance may be shared by any number of threads without locking; a lost race only
 * costs an allocation. Only strings of at most {@value #MAX_BYTES} ASCII bytes are cached.
 */
public final class BerStrings {
  /** Number of slots: {@value}. */
  public static final int SLOTS = 1024;
  /** Longest string cached, in bytes: {@value}. */
  public static final int MAX_BYTES = 48;

  private final String[] slots = new String[SLOTS];

  /** Creates an empty cache. */
  public BerStrings() {}

  /**
   * Returns the string of the next {@code byteCount} bytes of {@code in} if they are ASCII and
   * cached, consuming them; otherwise consumes nothing and returns null.
   */
  String lookup(ByteSequenceReader in, int byteCount) throws DecodeException {
    if (byteCount > MAX_BYTES || byteCount == 0) {
      return null;
    }
    int h = 0;
    for (int i = 0; i < byteCount; i++) {
      int b = in.peekByte(i);
      if (b < 0) {
        return null; // not ASCII
      }
      h = 31 * h + b;
    }
    int slot = (h ^ (h >>> 10)) & (SLOTS - 1);
    String s = slots[slot];
    if (s != null && s.length() == byteCount && matches(in, s)) {
      in.skip(byteCount);
      return s;
    }
    s = in.readUtf8(byteCount);
    slots[slot] = s;
    return s;
  }

  /**
   * Returns the string of {@code byteCount} bytes of {@code src} from {@code offset} if they are
   * ASCII and at most {@value #MAX_BYTES} long, from the cache when it holds them (no allocation)
   * and else new and cached; returns null for an empty, longer or non-ASCII run.
   *
   * @throws IndexOutOfBoundsException if the range is not within {@code src}
   */
  public String ascii(byte[] src, int offset, int byteCount) {
    Objects.checkFromIndexSize(offset, byteCount, src.length);
    if (byteCount > MAX_BYTES || byteCount == 0) {
      return null;
    }
    int h = 0;
    for (int i = offset, end = offset + byteCount; i < end; i++) {
      int b = src[i];
      if (b < 0) {
        return null;
      }
      h = 31 * h + b;
    }
    int slot = (h ^ (h >>> 10)) & (SLOTS - 1);
    String s = slots[slot];
    if (s != null && s.length() == byteCount && matches(src, offset, s)) {
      return s;
    }
    s = new String(src, offset, byteCount, StandardCharsets.US_ASCII);
    slots[slot] = s;
    return s;
  }

  private static boolean matches(byte[] src, int offset, String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (src[offset + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  private static boolean matches(ByteSequenceReader in, String s) throws DecodeException {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (in.peekByte(i) != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
