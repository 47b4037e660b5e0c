package dev.ferry.bytes;

import static dev.ferry.bytes.internal.Checks.checkIndex;
import static dev.ferry.bytes.internal.Checks.checkNotNegative;
import static dev.ferry.bytes.internal.Checks.checkRange;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that hands out {@link ByteString}s without copying.
 *
 * <p>{@link #toByteString()} shares the array: bytes already handed out are never written again.
 * Appending after a hand-out is free (it writes past the shared range); an operation that would
 * overwrite shared bytes ({@link #set}, {@link #openGap}, or appending after {@link #clear} or
 * {@link #truncate}) first moves to a fresh array. A builder reused with {@link #clear()} and
 * drained with {@link #writeTo(OutputStream)} never allocates once it has grown.
 *
 * <pre>{@code
 * ByteStringBuilder b = new ByteStringBuilder();
 * b.append((byte) 0x30).append((byte) 0).append(new byte[] {1, 2, 3});
 * b.set(1, (byte) 3);                       // patch a length in place
 * ByteString s = b.toByteString();          // no copy
 * assert s.hex().equals("3003010203");
 * }</pre>
 *
 * <p>Not thread-safe.
 */
public final class ByteStringBuilder implements ByteSequence {
  private static final int DEFAULT_CAPACITY = 256;
  private static final int MAX_ARRAY_SIZE = Integer.MAX_VALUE - 8;

  private byte[] buf;
  private int size;
  /** Bytes {@code [0, sharedEnd)} of {@code buf} belong to handed-out byte strings. */
  private int sharedEnd;

  /** Creates an empty builder with a small initial capacity. */
  public ByteStringBuilder() {
    this(DEFAULT_CAPACITY);
  }

  /** Creates an empty builder able to take {@code initialCapacity} bytes without growing. */
  public ByteStringBuilder(int initialCapacity) {
    checkNotNegative("initialCapacity", initialCapacity);
    buf = new byte[initialCapacity];
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public byte byteAt(int index) {
    checkIndex(size, index);
    return buf[index];
  }

  /** Appends one byte, the low 8 bits of {@code b}. */
  public ByteStringBuilder append(byte b) {
    ensureWritable(1);
    buf[size++] = b;
    return this;
  }

  /** Appends all of {@code src}. */
  public ByteStringBuilder append(byte[] src) {
    return append(src, 0, src.length);
  }

  /** Appends {@code byteCount} bytes of {@code src} starting at {@code offset}. */
  public ByteStringBuilder append(byte[] src, int offset, int byteCount) {
    checkRange(src.length, offset, byteCount);
    ensureWritable(byteCount);
    System.arraycopy(src, offset, buf, size, byteCount);
    size += byteCount;
    return this;
  }

  /** Appends the remaining bytes of {@code src}, consuming them. */
  public ByteStringBuilder append(ByteBuffer src) {
    int n = src.remaining();
    ensureWritable(n);
    src.get(buf, size, n);
    size += n;
    return this;
  }

  /** Appends all bytes of {@code src}. */
  public ByteStringBuilder append(ByteSequence src) {
    int n = src.size();
    ensureWritable(n);
    src.copyTo(0, buf, size, n);
    size += n;
    return this;
  }

  /** Appends the UTF-8 encoding of {@code s}. */
  public ByteStringBuilder appendUtf8(String s) {
    return append(s.getBytes(StandardCharsets.UTF_8));
  }

  /** Appends every byte of {@code in} up to its end; returns how many were read. */
  public long appendFrom(InputStream in) throws IOException {
    long total = 0;
    while (true) {
      ensureWritable(Math.max(1, Math.min(8192, buf.length - size)));
      int n = in.read(buf, size, buf.length - size);
      if (n < 0) {
        return total;
      }
      size += n;
      total += n;
    }
  }

  /**
   * Appends exactly {@code byteCount} bytes of {@code in}.
   *
   * @throws EOFException if {@code in} ends first; the bytes read so far stay appended
   */
  public ByteStringBuilder appendFrom(InputStream in, int byteCount) throws IOException {
    checkNotNegative("byteCount", byteCount);
    ensureWritable(byteCount);
    int n = in.readNBytes(buf, size, byteCount);
    size += n;
    if (n != byteCount) {
      throw new EOFException("expected " + byteCount + " bytes, stream ended after " + n);
    }
    return this;
  }

  /** Replaces the byte at {@code index}, used to patch a reserved length in place. */
  public ByteStringBuilder set(int index, byte b) {
    checkIndex(size, index);
    unshare();
    buf[index] = b;
    return this;
  }

  /**
   * Inserts {@code byteCount} zero bytes at {@code index}, moving the bytes after it up. A
   * writer that reserved too little room for a length uses this; the move is one arraycopy.
   */
  public ByteStringBuilder openGap(int index, int byteCount) {
    checkRange(size, index, 0);
    checkNotNegative("byteCount", byteCount);
    ensureWritable(byteCount);
    unshare();
    System.arraycopy(buf, index, buf, index + byteCount, size - index);
    Arrays.fill(buf, index, index + byteCount, (byte) 0);
    size += byteCount;
    return this;
  }

  /** Drops every byte from {@code newSize} on. */
  public ByteStringBuilder truncate(int newSize) {
    checkRange(size, newSize, 0);
    size = newSize;
    return this;
  }

  /** Empties the builder and keeps its capacity (unless that array was handed out). */
  public ByteStringBuilder clear() {
    size = 0;
    return this;
  }

  @Override
  public ByteString subSequence(int offset, int byteCount) {
    return toByteString().subSequence(offset, byteCount);
  }

  @Override
  public void copyTo(int srcOffset, byte[] dest, int destOffset, int byteCount) {
    checkRange(size, srcOffset, byteCount);
    checkRange(dest.length, destOffset, byteCount);
    System.arraycopy(buf, srcOffset, dest, destOffset, byteCount);
  }

  /** Returns the bytes appended so far, sharing this builder's array (no copy). */
  @Override
  public ByteString toByteString() {
    sharedEnd = Math.max(sharedEnd, size);
    return ByteString.wrapOwned(buf, 0, size);
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    out.write(buf, 0, size);
  }

  /** Returns an output stream that appends to this builder. */
  public OutputStream asOutputStream() {
    return new OutputStream() {
      @Override
      public void write(int b) {
        append((byte) b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        append(b, off, len);
      }
    };
  }

  @Override
  public String toString() {
    return "ByteStringBuilder[size=" + size + "]";
  }

  /** For {@link Access}: room for {@code byteCount} bytes at {@code size}; returns the array. */
  byte[] reserve(int byteCount) {
    checkNotNegative("byteCount", byteCount);
    ensureWritable(byteCount);
    return buf;
  }

  /** For {@link Access}: takes in {@code byteCount} bytes written past {@code size}. */
  void commit(int byteCount) {
    checkRange(buf.length, size, byteCount);
    size += byteCount;
  }

  /** Makes room for {@code byteCount} more bytes at {@code size}, never over shared bytes. */
  private void ensureWritable(int byteCount) {
    long needed = (long) size + byteCount;
    if (needed > MAX_ARRAY_SIZE) {
      throw new OutOfMemoryError("ByteStringBuilder cannot hold " + needed + " bytes");
    }
    if (size < sharedEnd) {
      // Appending would overwrite bytes a ByteString holds (after clear or truncate).
      moveTo(new byte[(int) Math.max(needed, buf.length)]);
    } else if (needed > buf.length) {
      long grown = Math.max(needed, Math.min((long) buf.length * 2, MAX_ARRAY_SIZE));
      moveTo(new byte[(int) Math.max(grown, 16)]);
    }
  }

  private void unshare() {
    if (sharedEnd > 0) {
      moveTo(new byte[buf.length]);
    }
  }

  private void moveTo(byte[] fresh) {
    System.arraycopy(buf, 0, fresh, 0, size);
    buf = fresh;
    sharedEnd = 0;
  }
}
