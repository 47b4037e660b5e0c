package dev.ferry.mime.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * Decodes base64 (RFC 2045 section 6.8) while streaming. Line breaks and white space are skipped;
 * any other byte outside the alphabet, data after padding, or a dangling group is a
 * {@code MimeException} naming the byte offset.
 */
public final class Base64DecodingInputStream extends EncodedInput {
  private static final int[] DECODE = new int[256];

  static {
    Arrays.fill(DECODE, -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < alphabet.length(); i++) {
      DECODE[alphabet.charAt(i)] = i;
    }
  }

  private int quad; // bits of the group being read
  private int quadChars; // alphabet characters in the group
  private int padChars;
  private boolean padded;
  private boolean finished;
  private final byte[] out = new byte[3];
  private int outPos;
  private int outEnd;

  public Base64DecodingInputStream(InputStream raw, long baseOffset, String context) {
    super(raw, baseOffset, context);
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    int n = 0;
    while (n < len) {
      if (outPos < outEnd) {
        b[off + n++] = out[outPos++];
        continue;
      }
      if (inPos == inEnd && ensure(1) == 0) {
        if (finished) {
          break;
        }
        finished = true;
        finish(); // may leave a last unpadded group in out
        continue;
      }
      decodeOne(in[inPos] & 0xff, inPos);
      inPos++;
    }
    return n == 0 && len > 0 ? -1 : n;
  }

  private void decodeOne(int c, int position) throws IOException {
    int v = DECODE[c];
    if (v >= 0) {
      if (padded) {
        throw error("base64 data after padding '='", position);
      }
      quad = quad << 6 | v;
      if (++quadChars == 4) {
        emit(3);
      }
    } else if (c == '=') {
      if (quadChars < 2 || ++padChars + quadChars > 4) {
        throw error("misplaced base64 padding '='", position);
      }
      padded = true;
      if (quadChars + padChars == 4) {
        quad <<= 6 * padChars;
        emit(quadChars - 1);
      }
    } else if (c != '\r' && c != '\n' && c != ' ' && c != '\t') {
      throw error("invalid base64 character " + Bytes.describe((byte) c), position);
    }
  }

  private void emit(int bytes) {
    out[0] = (byte) (quad >> 16);
    out[1] = (byte) (quad >> 8);
    out[2] = (byte) quad;
    outPos = 0;
    outEnd = bytes;
    quad = 0;
    quadChars = 0;
    padChars = padded ? padChars : 0;
  }

  private void finish() throws IOException {
    if (quadChars != 0 && !(padded && quadChars + padChars == 4)) {
      if (padded || quadChars == 1) {
        throw error("truncated base64: " + quadChars + " characters in the last group",
            inPos);
      }
      // Unpadded final group (2 or 3 characters): accepted, as most decoders do.
      quad <<= 6 * (4 - quadChars);
      emit(quadChars - 1);
      quadChars = 0;
      padded = true;
    }
  }
}
