package dev.ferry.bytes;

import static dev.ferry.bytes.internal.Checks.checkNotNegative;
import static dev.ferry.bytes.internal.Checks.checkRange;

import java.nio.charset.StandardCharsets;

/**
 * Reads a {@link ByteString} from front to back: {@code read*} consumes, {@code peek*} does not.
 *
 * <p>Values come out as slices of the underlying byte string ({@link #readByteString(int)}), so
 * reading never copies unless asked to ({@link #readBytes}). Reading past the end throws a
 * {@link DecodeException} whose byte offset is the reader's position plus {@code baseOffset}, the
 * absolute offset of the first byte (so that a reader over one PDU of a stream reports stream
 * offsets).
 *
 * <pre>{@code
 * ByteSequenceReader r = ByteString.decodeHex("0203 414243").newReader();
 * assert r.readUnsignedByte() == 2;
 * int n = r.readUnsignedByte();
 * assert r.readByteString(n).utf8().equals("ABC");
 * assert r.remaining() == 0;
 * }</pre>
 */
public final class ByteSequenceReader {
  private final byte[] data;
  private final int start;
  private final int end;
  private final long baseOffset;
  private int pos;

  /** Creates a reader over {@code seq}; a mutable sequence is snapshotted first. */
  public ByteSequenceReader(ByteSequence seq) {
    this(seq, 0);
  }

  /** Creates a reader whose first byte is at absolute offset {@code baseOffset}. */
  public ByteSequenceReader(ByteSequence seq, long baseOffset) {
    ByteString s = seq.toByteString();
    this.data = s.array();
    this.start = s.arrayOffset();
    this.end = start + s.size();
    this.pos = start;
    this.baseOffset = checkNotNegative("baseOffset", baseOffset);
  }

  /** Returns the number of bytes read so far. */
  public int position() {
    return pos - start;
  }

  /** Moves to {@code position} (0 to {@link #size()}), forward or back. */
  public void position(int position) {
    checkRange(end - start, position, 0);
    pos = start + position;
  }

  /** Returns the total number of bytes, read or not. */
  public int size() {
    return end - start;
  }

  /** Returns the number of bytes not yet read. */
  public int remaining() {
    return end - pos;
  }

  /** Returns true if at least one byte remains. */
  public boolean hasRemaining() {
    return pos < end;
  }

  /** Returns the absolute offset of the next byte: {@code baseOffset + position()}. */
  public long byteOffset() {
    return baseOffset + (pos - start);
  }

  /** Returns true if {@code byteCount} bytes remain; never throws. */
  public boolean request(int byteCount) {
    return byteCount <= end - pos;
  }

  /**
   * Checks that {@code byteCount} bytes remain.
   *
   * @throws DecodeException if fewer remain
   */
  public void require(int byteCount) throws DecodeException {
    checkNotNegative("byteCount", byteCount);
    if (byteCount > end - pos) {
      throw new DecodeException("truncated input (expected: " + byteCount
          + " more bytes, found: " + (end - pos) + ")", byteOffset(), null);
    }
  }

  /** Returns the next byte without consuming it. */
  public byte peekByte() throws DecodeException {
    require(1);
    return data[pos];
  }

  /** Returns the byte {@code ahead} positions after the next one without consuming anything. */
  public byte peekByte(int ahead) throws DecodeException {
    require(ahead + 1);
    return data[pos + ahead];
  }

  /** Consumes and returns the next byte. */
  public byte readByte() throws DecodeException {
    require(1);
    return data[pos++];
  }

  /** Consumes the next byte and returns it as an int in {@code [0, 255]}. */
  public int readUnsignedByte() throws DecodeException {
    return readByte() & 0xff;
  }

  /** Consumes two bytes, big-endian. */
  public int readUnsignedShort() throws DecodeException {
    require(2);
    int v = (data[pos] & 0xff) << 8 | (data[pos + 1] & 0xff);
    pos += 2;
    return v;
  }

  /** Consumes four bytes, big-endian. */
  public int readInt() throws DecodeException {
    require(4);
    int v = (data[pos] & 0xff) << 24 | (data[pos + 1] & 0xff) << 16
        | (data[pos + 2] & 0xff) << 8 | (data[pos + 3] & 0xff);
    pos += 4;
    return v;
  }

  /** Consumes {@code byteCount} bytes and returns them as a slice, without a copy. */
  public ByteString readByteString(int byteCount) throws DecodeException {
    require(byteCount);
    ByteString s = ByteString.wrapOwned(data, pos, byteCount);
    pos += byteCount;
    return s;
  }

  /** Consumes {@code byteCount} bytes into {@code dest} at {@code destOffset}. */
  public void readBytes(byte[] dest, int destOffset, int byteCount) throws DecodeException {
    checkRange(dest.length, destOffset, byteCount);
    require(byteCount);
    System.arraycopy(data, pos, dest, destOffset, byteCount);
    pos += byteCount;
  }

  /** Consumes {@code byteCount} bytes and decodes them as UTF-8. */
  public String readUtf8(int byteCount) throws DecodeException {
    require(byteCount);
    String s = new String(data, pos, byteCount, StandardCharsets.UTF_8);
    pos += byteCount;
    return s;
  }

  /** Discards {@code byteCount} bytes. */
  public void skip(int byteCount) throws DecodeException {
    require(byteCount);
    pos += byteCount;
  }

  @Override
  public String toString() {
    return "ByteSequenceReader[position=" + position() + " size=" + size() + "]";
  }
}
