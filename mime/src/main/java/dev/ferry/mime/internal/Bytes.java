package dev.ferry.mime.internal;

/** Describes bytes in error messages: {@code 0x41 'A'}. */
public final class Bytes {
  private Bytes() {}

  public static String describe(byte b) {
    int c = b & 0xff;
    String hex = String.format("0x%02X", c);
    return c >= 0x21 && c < 0x7f ? hex + " '" + (char) c + "'" : hex;
  }
}
