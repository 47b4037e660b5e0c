package dev.ferry.mime.internal;

/** Small byte helpers for the MIME code: search, and descriptions for error messages. */
public final class Bytes {
  private Bytes() {}

  /** Returns the index of the first {@code b} in {@code buf[start, end)}, or -1. */
  public static int indexOf(byte[] buf, byte b, int start, int end) {
    for (int i = start; i < end; i++) {
      if (buf[i] == b) {
        return i;
      }
    }
    return -1;
  }

  /** Describes a byte for an error message: {@code 0x41 'A'}. */
  public static String describe(byte b) {
    int c = b & 0xff;
    String hex = String.format("0x%02X", c);
    return c >= 0x21 && c < 0x7f ? hex + " '" + (char) c + "'" : hex;
  }
}
