package dev.ferry.mime.internal;

/** The characters RFC 2046 allows in a boundary. */
public final class Boundaries {
  private static final boolean[] BCHARS = new boolean[128];

  static {
    String allowed = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ";
    for (int i = 0; i < allowed.length(); i++) {
      BCHARS[allowed.charAt(i)] = true;
    }
  }

  private Boundaries() {}

  /**
   * Returns the index of the first character a boundary may not have, or -1: RFC 2046
   * {@code bchars}, not ending in a space; {@code lenient} allows any printable ASCII instead.
   */
  public static int firstInvalid(String boundary, boolean lenient) {
    for (int i = 0; i < boundary.length(); i++) {
      char c = boundary.charAt(i);
      boolean ok = lenient ? c >= ' ' && c < 127 : isBchar(c);
      if (!ok || (c == ' ' && i == boundary.length() - 1)) {
        return i;
      }
    }
    return -1;
  }

  /** Returns true for an RFC 2046 {@code bchars} character. */
  public static boolean isBchar(char c) {
    return c < 128 && BCHARS[c];
  }
}
