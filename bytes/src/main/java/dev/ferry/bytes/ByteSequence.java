package dev.ferry.bytes;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A read-only view of a run of bytes.
 *
 * <p>A view promises nothing about who else may change the bytes: {@link ByteString} is the
 * immutable implementation, {@link ByteStringBuilder} a mutable one. Call {@link #toByteString()}
 * to keep the bytes beyond the life of a mutable view.
 *
 * <pre>{@code
 * ByteSequence s = ByteString.encodeUtf8("ferry");
 * assert s.size() == 5;
 * assert s.byteAt(0) == 'f';
 * assert s.subSequence(1, 3).toByteString().utf8().equals("err");
 * }</pre>
 */
public interface ByteSequence {

  /** Returns the number of bytes in this sequence. */
  int size();

  /**
   * Returns the byte at {@code index}.
   *
   * @throws IndexOutOfBoundsException if {@code index} is negative or not less than {@link #size()}
   */
  byte byteAt(int index);

  /**
   * Returns the {@code byteCount} bytes starting at {@code offset}, sharing storage where the
   * implementation can do so safely.
   *
   * @throws IndexOutOfBoundsException if the range does not lie within this sequence
   */
  ByteSequence subSequence(int offset, int byteCount);

  /**
   * Copies {@code byteCount} bytes starting at {@code srcOffset} into {@code dest} at
   * {@code destOffset}.
   *
   * @throws IndexOutOfBoundsException if either range is out of bounds
   */
  void copyTo(int srcOffset, byte[] dest, int destOffset, int byteCount);

  /** Returns these bytes as an immutable {@link ByteString}, copying only if they could change. */
  ByteString toByteString();

  /** Writes every byte of this sequence to {@code out}. */
  void writeTo(OutputStream out) throws IOException;

  /** Returns true if {@link #size()} is 0. */
  default boolean isEmpty() {
    return size() == 0;
  }

  /** Returns a new array holding a copy of these bytes. */
  default byte[] toByteArray() {
    byte[] copy = new byte[size()];
    copyTo(0, copy, 0, copy.length);
    return copy;
  }
}
