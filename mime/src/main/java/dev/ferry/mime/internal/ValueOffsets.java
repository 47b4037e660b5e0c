package dev.ferry.mime.internal;

import java.util.function.IntToLongFunction;

/**
 * Where the characters of a header field's value came from: maps an index in the value as
 * {@code MimeHeaders} gives it (unfolded, surrounding white space stripped) to the absolute
 * offset of its first byte in the input, so an error found in the value names its byte.
 * Exact where the value's bytes before the index are valid UTF-8 (each malformed byte was
 * decoded to one U+FFFD, which is counted as its three-byte encoding).
 */
public final class ValueOffsets implements IntToLongFunction {
  private final String raw; // the unfolded value before stripping
  private final int[] lineChars; // where each of the field's lines starts in raw
  private final long[] lineOffsets; // and its absolute offset

  ValueOffsets(String raw, int[] lineChars, long[] lineOffsets) {
    this.raw = raw;
    this.lineChars = lineChars;
    this.lineOffsets = lineOffsets;
  }

  @Override
  public long applyAsLong(int index) {
    int r = index + raw.length() - raw.stripLeading().length();
    int line = lineChars.length - 1;
    while (lineChars[line] > r) {
      line--;
    }
    return lineOffsets[line] + Bytes.utf8Length(raw, lineChars[line], r);
  }
}
