package dev.ferry.asn1;

import dev.ferry.bytes.ByteSequenceReader;
import dev.ferry.bytes.DecodeException;

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

  private static boolean matches(ByteSequenceReader in, String s) throws DecodeException {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (in.peekByte(i) != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }
}
