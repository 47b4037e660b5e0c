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

  /** Returns the number of bytes {@code s[start, end)} takes in UTF-8. */
  public static long utf8Length(CharSequence s, int start, int end) {
    long n = 0;
    for (int i = start; i < end; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n++;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < end
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /**
   * Quotes input for an error message: at most 32 characters, each outside printable ASCII
   * escaped as {@code \xNN} or, past U+00FF, as a Java unicode escape, so that a message cannot
   * carry control characters to a terminal or a log.
   */
  public static String quote(CharSequence s) {
    int n = Math.min(s.length(), 32);
    StringBuilder b = new StringBuilder(n + 8).append('"');
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c >= 0x20 && c < 0x7f) {
        b.append(c);
      } else {
        b.append(c <= 0xff ? String.format("\\x%02X", (int) c)
            : String.format("\\u%04X", (int) c));
      }
    }
    return b.append(s.length() > n ? "\"..." : "\"").toString();
  }
}
