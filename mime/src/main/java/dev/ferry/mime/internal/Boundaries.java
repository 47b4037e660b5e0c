package dev.ferry.mime.internal;

/** The characters RFC 2046 allows in a boundary. */
public final class Boundaries {
  private Boundaries() {}

  /** Returns true for an RFC 2046 {@code bchars} character. */
  public static boolean isBchar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
        || "'()+_,-./:=? ".indexOf(c) >= 0;
  }
}
