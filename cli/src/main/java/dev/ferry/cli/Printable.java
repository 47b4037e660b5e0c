package dev.ferry.cli;

/**
 * Makes text from a message safe to print in a terminal or a tab-separated file: a Content-ID or
 * a type is the sender's to choose, and an escape sequence in it would reach the user's terminal,
 * a TAB would shift the columns of a TSV file.
 */
final class Printable {
  private Printable() {}

  /**
   * Returns {@code s} with a backslash doubled, TAB, LF and CR as {@code \t}, {@code \n},
   * {@code \r}, every other control character as {@code \xNN}, and the invisible characters that
   * can reorder or hide text (Unicode format characters such as U+202E, line and paragraph
   * separators) as a Java unicode escape; null stays null. Printable text, non-ASCII included,
   * is unchanged.
   */
  static String escape(String s) {
    if (s == null || s.codePoints().allMatch(Printable::isPlain)) {
      return s;
    }
    StringBuilder b = new StringBuilder(s.length() + 8);
    s.codePoints().forEach(c -> {
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        default -> {
          if (isPlain(c)) {
            b.appendCodePoint(c);
          } else {
            b.append(c <= 0xff ? String.format("\\x%02X", c) : String.format("\\u%04X", c));
          }
        }
      }
    });
    return b.toString();
  }

  private static boolean isPlain(int c) {
    if (c == '\\' || Character.isISOControl(c)) {
      return false;
    }
    int type = Character.getType(c);
    return type != Character.FORMAT && type != Character.LINE_SEPARATOR
        && type != Character.PARAGRAPH_SEPARATOR && type != Character.SURROGATE;
  }
}
