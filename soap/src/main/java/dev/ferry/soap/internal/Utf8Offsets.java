package dev.ferry.soap.internal;

import dev.ferry.bytes.ByteString;

/**
 * Turns the character offsets a StAX parser reports into byte offsets of the UTF-8 bytes it
 * read. Offsets must be asked for in increasing order: each call walks on from the last one, so
 * a whole pass costs one walk over the bytes. A 4-byte sequence counts as two chars (a
 * surrogate pair), as Java counts them. A leading byte-order mark is not a char.
 */
public final class Utf8Offsets {
  private final ByteString bytes;
  private int bytePos;
  private long charPos;

  public Utf8Offsets(ByteString bytes) {
    this.bytes = bytes;
    if (bytes.size() >= 3 && bytes.unsignedByteAt(0) == 0xEF && bytes.unsignedByteAt(1) == 0xBB
        && bytes.unsignedByteAt(2) == 0xBF) {
      bytePos = 3;
    }
  }

  /** Returns the byte offset of char {@code charOffset}. */
  public int byteOffset(long charOffset) {
    if (charOffset < charPos) {
      throw new IllegalStateException("offsets must increase: " + charOffset + " < " + charPos);
    }
    while (charPos < charOffset && bytePos < bytes.size()) {
      int b = bytes.unsignedByteAt(bytePos);
      if (b < 0x80) {
        bytePos++;
        charPos++;
      } else if (b < 0xE0) {
        bytePos += 2;
        charPos++;
      } else if (b < 0xF0) {
        bytePos += 3;
        charPos++;
      } else {
        bytePos += 4;
        charPos += 2;
      }
    }
    return bytePos;
  }
}
