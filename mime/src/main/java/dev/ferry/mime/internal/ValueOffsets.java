package dev.ferry.mime.internal;

import java.nio.charset.StandardCharsets;
import java.util.function.IntToLongFunction;

/**
 * Where the characters of a header field's value came from: maps an index in the value as
 * {@code MimeHeaders} gives it (unfolded, surrounding white space stripped) to the absolute
 * offset of its byte in the input, so an error found in the value names its byte. It reads the
 * header buffer only when asked, for an error, which is before the buffer is reused; a value
 * that parses costs nothing more. Exact where the value's bytes before the index are valid UTF-8
 * (a malformed byte was decoded to one U+FFFD, counted here as its three-byte encoding).
 */
public final class ValueOffsets implements IntToLongFunction {
  private final byte[] buf;
  private final int start; // the value's first byte, after the colon
  private final int end; // after the field's last line
  private final long baseOffset; // the absolute offset of buf[0]

  ValueOffsets(byte[] buf, int start, int end, long baseOffset) {
    this.buf = buf;
    this.start = start;
    this.end = end;
    this.baseOffset = baseOffset;
  }

  @Override
  public long applyAsLong(int index) {
    StringBuilder unfolded = new StringBuilder();
    for (int line = start; line < end; line = next(line)) {
      unfolded.append(text(line));
    }
    String raw = unfolded.toString();
    int r = index + raw.length() - raw.stripLeading().length();
    int chars = 0; // of raw, in the lines before this one
    for (int line = start; ; line = next(line)) {
      int lineChars = text(line).length();
      if (r < chars + lineChars || next(line) >= end) {
        return baseOffset + line + Bytes.utf8Length(raw, chars, r);
      }
      chars += lineChars;
    }
  }

  /** The line at {@code line} without its line break, as HeaderParser unfolded it. */
  private String text(int line) {
    int lf = Bytes.indexOf(buf, (byte) '\n', line, end);
    int contentEnd = lf < 0 ? end : lf > line && buf[lf - 1] == '\r' ? lf - 1 : lf;
    return new String(buf, line, contentEnd - line, StandardCharsets.UTF_8);
  }

  private int next(int line) {
    int lf = Bytes.indexOf(buf, (byte) '\n', line, end);
    return lf < 0 ? end : lf + 1;
  }
}
