package dev.ferry.bytes;

import static dev.ferry.bytes.internal.Checks.checkIndex;
import static dev.ferry.bytes.internal.Checks.checkNotNegative;
import static dev.ferry.bytes.internal.Checks.checkRange;

import dev.ferry.bytes.internal.BytesAccess;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * An immutable run of bytes. {@link #subSequence} is a zero-copy slice: it shares the array.
 *
 * <p>Invariant: no code ever writes to {@code data[offset, offset + size)} after a ByteString
 * over it exists. Factories that take an array copy it, except {@link #takeOwnership}, whose
 * caller hands the array over and promises not to write to it again; the other zero-copy paths
 * are those of {@link ByteStringBuilder#toByteString()} and {@link #readFrom(InputStream, int)},
 * which own the array they hand over.
 *
 * <pre>{@code
 * ByteString s = ByteString.encodeUtf8("Hello, Ferry");
 * ByteString ferry = s.subSequence(7, 5);        // no copy
 * assert ferry.equals(ByteString.encodeUtf8("Ferry"));
 * assert ferry.hex().equals("4665727279");
 * assert ByteString.decodeBase64(ferry.base64()).equals(ferry);
 * }</pre>
 */
public final class ByteString implements ByteSequence, Comparable<ByteString> {
  /** The empty byte string. */
  public static final ByteString EMPTY = new ByteString(new byte[0], 0, 0);

  static {
    BytesAccess.install(new Access());
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final int TO_STRING_MAX_BYTES = 32;

  private final byte[] data;
  private final int offset;
  private final int size;
  private int hash; // 0 = not computed yet; racy single-check is safe for an int

  ByteString(byte[] data, int offset, int size) {
    this.data = data;
    this.offset = offset;
    this.size = size;
  }

  /** Returns a byte string holding a copy of {@code bytes}. */
  public static ByteString of(byte... bytes) {
    return copyOf(bytes, 0, bytes.length);
  }

  /** Returns a byte string holding a copy of {@code byteCount} bytes of {@code src}. */
  public static ByteString copyOf(byte[] src, int offset, int byteCount) {
    checkRange(src.length, offset, byteCount);
    if (byteCount == 0) {
      return EMPTY;
    }
    return new ByteString(Arrays.copyOfRange(src, offset, offset + byteCount), 0, byteCount);
  }

  /**
   * Returns a byte string over {@code array} itself, without a copy: the caller hands the array
   * over. From this call on the caller must not write to it, for as long as this byte string,
   * any slice of it, or anything decoded from it (decoders hand out slices) is in use: nothing
   * checks this, and a later write would change all of them, and the hash codes they cached.
   * Use it for an array that was filled once and is passed on, such as a PDU read from a socket;
   * use {@link #of(byte...)} for an array that will be reused.
   *
   * <pre>{@code
   * byte[] pdu = receive();                // filled once, never written again
   * ByteString s = ByteString.takeOwnership(pdu);
   * assert s.contentEquals(pdu, 0, pdu.length) && s.subSequence(1).size() == pdu.length - 1;
   * }</pre>
   */
  public static ByteString takeOwnership(byte[] array) {
    return takeOwnership(array, 0, array.length);
  }

  /**
   * Returns a byte string over {@code byteCount} bytes of {@code array} from {@code offset},
   * without a copy, on the terms of {@link #takeOwnership(byte[])}: the caller must not write to
   * that range again.
   */
  public static ByteString takeOwnership(byte[] array, int offset, int byteCount) {
    checkRange(array.length, offset, byteCount);
    return wrapOwned(array, offset, byteCount);
  }

  /** Returns a byte string holding a copy of the remaining bytes of {@code src}, consuming them. */
  public static ByteString copyOf(ByteBuffer src) {
    byte[] copy = new byte[src.remaining()];
    src.get(copy);
    return new ByteString(copy, 0, copy.length);
  }

  /** Returns the UTF-8 encoding of {@code s}. */
  public static ByteString encodeUtf8(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    return new ByteString(bytes, 0, bytes.length);
  }

  /** Returns {@code s} encoded with {@code charset}. */
  public static ByteString encode(String s, Charset charset) {
    byte[] bytes = s.getBytes(charset);
    return new ByteString(bytes, 0, bytes.length);
  }

  /**
   * Reads exactly {@code byteCount} bytes from {@code in} into a new byte string; the array read
   * into becomes the byte string's storage, so there is no further copy.
   *
   * @throws EOFException if {@code in} ends first
   */
  public static ByteString readFrom(InputStream in, int byteCount) throws IOException {
    checkNotNegative("byteCount", byteCount);
    byte[] bytes = in.readNBytes(byteCount);
    if (bytes.length != byteCount) {
      throw new EOFException("expected " + byteCount + " bytes, stream ended after "
          + bytes.length);
    }
    return new ByteString(bytes, 0, byteCount);
  }

  /**
   * Decodes hexadecimal digits, upper or lower case; spaces, tabs and line breaks between bytes
   * are ignored so that commented test vectors read naturally.
   *
   * @throws IllegalArgumentException if a character is not a hex digit or the digit count is odd
   */
  public static ByteString decodeHex(CharSequence hex) {
    byte[] out = new byte[hex.length() / 2];
    int n = 0;
    int high = -1;
    for (int i = 0; i < hex.length(); i++) {
      char c = hex.charAt(i);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        continue;
      }
      int digit = Character.digit(c, 16);
      if (digit < 0) {
        throw new IllegalArgumentException("not a hex digit: '" + c + "' at index " + i);
      }
      if (high < 0) {
        high = digit;
      } else {
        out[n++] = (byte) (high << 4 | digit);
        high = -1;
      }
    }
    if (high >= 0) {
      throw new IllegalArgumentException("odd number of hex digits");
    }
    return new ByteString(out, 0, n);
  }

  /**
   * Decodes standard base64 (RFC 4648 section 4), with or without padding.
   *
   * @throws IllegalArgumentException if {@code base64} is not valid base64
   */
  public static ByteString decodeBase64(CharSequence base64) {
    byte[] bytes = Base64.getDecoder().decode(base64.toString());
    return new ByteString(bytes, 0, bytes.length);
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public byte byteAt(int index) {
    checkIndex(size, index);
    return data[offset + index];
  }

  /** Returns the byte at {@code index} as an int in {@code [0, 255]}. */
  public int unsignedByteAt(int index) {
    return byteAt(index) & 0xff;
  }

  @Override
  public ByteString subSequence(int offset, int byteCount) {
    checkRange(size, offset, byteCount);
    if (offset == 0 && byteCount == size) {
      return this;
    }
    return new ByteString(data, this.offset + offset, byteCount);
  }

  /** Returns the bytes from {@code offset} to the end, sharing storage. */
  public ByteString subSequence(int offset) {
    return subSequence(offset, size - offset);
  }

  @Override
  public void copyTo(int srcOffset, byte[] dest, int destOffset, int byteCount) {
    checkRange(size, srcOffset, byteCount);
    checkRange(dest.length, destOffset, byteCount);
    System.arraycopy(data, offset + srcOffset, dest, destOffset, byteCount);
  }

  @Override
  public ByteString toByteString() {
    return this;
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    out.write(data, offset, size);
  }

  /** Returns a read-only buffer over these bytes, without a copy. */
  public ByteBuffer asByteBuffer() {
    return ByteBuffer.wrap(data, offset, size).slice().asReadOnlyBuffer();
  }

  /** Returns a stream over these bytes, without a copy. */
  public InputStream asInputStream() {
    return new ByteArrayInputStream(data, offset, size);
  }

  /** Returns a reader positioned at the first byte. */
  public ByteSequenceReader newReader() {
    return new ByteSequenceReader(this);
  }

  /** Returns these bytes decoded as UTF-8; malformed input becomes U+FFFD. */
  public String utf8() {
    return new String(data, offset, size, StandardCharsets.UTF_8);
  }

  /** Returns these bytes decoded with {@code charset}. */
  public String string(Charset charset) {
    return new String(data, offset, size, charset);
  }

  /** Returns lower-case hexadecimal, two digits per byte. */
  public String hex() {
    char[] out = new char[size * 2];
    for (int i = 0; i < size; i++) {
      int b = data[offset + i];
      out[2 * i] = HEX[(b >> 4) & 0xf];
      out[2 * i + 1] = HEX[b & 0xf];
    }
    return new String(out);
  }

  /** Returns standard base64 with padding (RFC 4648 section 4). */
  public String base64() {
    return Base64.getEncoder().encodeToString(toByteArray());
  }

  /** Returns the index of the first {@code b} at or after {@code fromIndex}, or -1. */
  public int indexOf(byte b, int fromIndex) {
    for (int i = Math.max(fromIndex, 0); i < size; i++) {
      if (data[offset + i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** Returns the index of the first occurrence of {@code target} at or after {@code fromIndex}. */
  public int indexOf(ByteString target, int fromIndex) {
    int from = Math.max(fromIndex, 0);
    if (target.size == 0) {
      return from <= size ? from : -1;
    }
    int last = size - target.size;
    byte first = target.data[target.offset];
    // only where the first byte is: a range compare at every position costs a call each
    for (int i = indexOf(first, from); i >= 0 && i <= last; i = indexOf(first, i + 1)) {
      if (Arrays.equals(data, offset + i, offset + i + target.size,
          target.data, target.offset, target.offset + target.size)) {
        return i;
      }
    }
    return -1;
  }

  /** Returns the index of the last occurrence of {@code target}, or -1; scans from the end. */
  public int lastIndexOf(ByteString target) {
    for (int i = size - target.size; i >= 0; i--) {
      if (Arrays.equals(data, offset + i, offset + i + target.size,
          target.data, target.offset, target.offset + target.size)) {
        return i;
      }
    }
    return -1;
  }

  /** Returns true if this byte string begins with {@code prefix}. */
  public boolean startsWith(ByteString prefix) {
    return prefix.size <= size && Arrays.equals(data, offset, offset + prefix.size,
        prefix.data, prefix.offset, prefix.offset + prefix.size);
  }

  /** Returns true if this byte string ends with {@code suffix}. */
  public boolean endsWith(ByteString suffix) {
    return suffix.size <= size && Arrays.equals(data, offset + size - suffix.size, offset + size,
        suffix.data, suffix.offset, suffix.offset + suffix.size);
  }

  /** Returns true if the bytes {@code [offset, offset + byteCount)} of {@code other} equal ours. */
  public boolean contentEquals(byte[] other, int offset, int byteCount) {
    checkRange(other.length, offset, byteCount);
    return byteCount == size
        && Arrays.equals(data, this.offset, this.offset + size, other, offset, offset + byteCount);
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    return o instanceof ByteString that && that.size == size
        && Arrays.equals(data, offset, offset + size, that.data, that.offset,
            that.offset + that.size);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0 && size > 0) {
      h = 1;
      for (int i = offset, end = offset + size; i < end; i++) {
        h = 31 * h + data[i];
      }
      hash = h;
    }
    return h;
  }

  /** Compares as unsigned bytes, lexicographically; a proper prefix sorts first. */
  @Override
  public int compareTo(ByteString o) {
    return Arrays.compareUnsigned(data, offset, offset + size, o.data, o.offset,
        o.offset + o.size);
  }

  /** Returns {@code [size=n hex=...]}, quoting at most 32 bytes. */
  @Override
  public String toString() {
    if (size <= TO_STRING_MAX_BYTES) {
      return "[size=" + size + " hex=" + hex() + "]";
    }
    return "[size=" + size + " hex=" + subSequence(0, TO_STRING_MAX_BYTES).hex() + "…]";
  }

  // Package-private zero-copy access for the builder, the reader and the spool.
  static ByteString wrapOwned(byte[] data, int offset, int size) {
    return size == 0 ? EMPTY : new ByteString(data, offset, size);
  }

  byte[] array() {
    return data;
  }

  int arrayOffset() {
    return offset;
  }
}
