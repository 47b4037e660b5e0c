package dev.ferry.mime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Decodes quoted-printable (RFC 2045 section 6.7) while streaming: {@code =XX} escapes, soft line
 * breaks ({@code =} at the end of a line, CRLF or bare LF), and trailing white space on a line is
 * dropped as rule 3 requires. A malformed escape is a {@code MimeException} with its offset.
 */
public final class QuotedPrintableDecodingInputStream extends EncodedInput {
  private static final int MAX_HELD_SPACE = 1024;

  private final byte[] held = new byte[MAX_HELD_SPACE]; // white space that may be trailing
  private int heldLen;
  private int heldPos = -1; // >= 0 while flushing held white space

  public QuotedPrintableDecodingInputStream(InputStream raw, long baseOffset, String context) {
    super(raw, baseOffset, context);
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    int n = 0;
    while (n < len) {
      if (heldPos >= 0) {
        b[off + n++] = held[heldPos++];
        if (heldPos == heldLen) {
          heldPos = -1;
          heldLen = 0;
        }
        continue;
      }
      if (ensure(1) == 0) {
        heldLen = 0; // white space at the very end is trailing
        break;
      }
      int c = in[inPos] & 0xff;
      if (c == ' ' || c == '\t') {
        holdSpace((byte) c);
      } else if (c == '\r' || c == '\n') {
        heldLen = 0; // trailing white space is dropped before a line break
        b[off + n++] = (byte) c;
        inPos++;
      } else if (heldLen > 0) {
        heldPos = 0; // the white space was not trailing: emit it first
      } else if (c == '=') {
        int decoded = escape();
        if (decoded >= 0) {
          b[off + n++] = (byte) decoded;
        }
      } else {
        b[off + n++] = (byte) c;
        inPos++;
      }
    }
    return n == 0 && len > 0 ? -1 : n;
  }

  private void holdSpace(byte c) {
    if (heldLen == held.length) {
      heldPos = 0; // a run this long is data, not trailing padding
      return;
    }
    held[heldLen++] = c;
    inPos++;
  }

  /** Consumes an escape at inPos; returns the byte, or -1 for a soft line break. */
  private int escape() throws IOException {
    int available = ensure(80); // room for "=", trailing white space and the line break
    if (available >= 2 && in[inPos + 1] == '\n') {
      inPos += 2;
      return -1;
    }
    if (available >= 3 && in[inPos + 1] == '\r' && in[inPos + 2] == '\n') {
      inPos += 3;
      return -1;
    }
    int end = inPos + 1;
    while (end < inPos + available && (in[end] == ' ' || in[end] == '\t')) {
      end++; // "=" then white space then a line break: a soft break with padding
    }
    if (end > inPos + 1 && end < inPos + available && (in[end] == '\r' || in[end] == '\n')) {
      inPos = in[end] == '\r' && end + 1 < inPos + available && in[end + 1] == '\n'
          ? end + 2 : end + 1;
      return -1;
    }
    int hi = available >= 3 ? Character.digit(in[inPos + 1], 16) : -1;
    int lo = available >= 3 ? Character.digit(in[inPos + 2], 16) : -1;
    if (hi < 0 || lo < 0) {
      if (available < 3 && eof && available == 1) {
        inPos++; // "=" as the very last byte: a soft break before the end
        return -1;
      }
      throw error("invalid quoted-printable escape (expected: =XX with hex digits or a soft"
          + " line break)", inPos);
    }
    inPos += 3;
    return hi << 4 | lo;
  }
}
