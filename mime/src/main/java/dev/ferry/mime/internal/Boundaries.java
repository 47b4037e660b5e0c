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

  /** Returns true for an RFC 2046 {@code bchars} character. */
  public static boolean isBchar(char c) {
    return c < 128 && BCHARS[c];
  }
}
