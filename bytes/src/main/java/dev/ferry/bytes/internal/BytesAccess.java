package dev.ferry.bytes.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;

/**
 * Array-level access to {@link ByteString} and {@link ByteStringBuilder} for Ferry's own codecs
 * (exported only to them): reading a byte string's backing array, and writing straight into a
 * builder's array after one capacity check instead of one per append.
 *
 * <p>The rules of {@link ByteString} still hold: the array of a byte string is read, never
 * written; a builder's array is written only in {@code [size, size + byteCount)} after
 * {@link #reserve}, which guarantees that this range is not shared with any byte string.
 */
public abstract class BytesAccess {
  private static BytesAccess instance;

  /** For {@code dev.ferry.bytes} only: installs the implementation once. */
  protected BytesAccess() {}

  /** Installs the implementation; called once by the {@code dev.ferry.bytes} package. */
  public static synchronized void install(BytesAccess access) {
    if (instance != null) {
      throw new IllegalStateException("already installed");
    }
    instance = access;
  }

  /** Returns the implementation. */
  public static BytesAccess get() {
    BytesAccess a = instance;
    if (a == null) {
      ByteString.EMPTY.size(); // initializes ByteString, which installs it
      a = instance;
    }
    return a;
  }

  /** Returns the array holding {@code s}; read it only in {@code [arrayOffset, +size)}. */
  public abstract byte[] array(ByteString s);

  /** Returns the index of {@code s}'s first byte in {@link #array}. */
  public abstract int arrayOffset(ByteString s);

  /**
   * Makes room for {@code byteCount} more bytes in {@code b} and returns its array; the caller
   * writes them at {@code [b.size(), b.size() + byteCount)}, then calls {@link #commit}. Any
   * other call on {@code b} in between may move it to another array.
   */
  public abstract byte[] reserve(ByteStringBuilder b, int byteCount);

  /** Adds {@code byteCount} bytes, written into the array {@link #reserve} returned, to b. */
  public abstract void commit(ByteStringBuilder b, int byteCount);
}
