package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;

/** Writes the RFC 4515 string form of a filter. */
final class FilterText {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private FilterText() {}

  static String format(Filter f) {
    StringBuilder s = new StringBuilder();
    append(s, f);
    return s.toString();
  }

  private static void append(StringBuilder s, Filter f) {
    s.append('(');
    switch (f) {
      case Filter.And a -> list(s.append('&'), a.filters());
      case Filter.Or o -> list(s.append('|'), o.filters());
      case Filter.Not n -> append(s.append('!'), n.filter());
      case Filter.Equality e -> value(s.append(e.attribute()).append('='), e.value());
      case Filter.GreaterOrEqual g -> value(s.append(g.attribute()).append(">="), g.value());
      case Filter.LessOrEqual l -> value(s.append(l.attribute()).append("<="), l.value());
      case Filter.Approx a -> value(s.append(a.attribute()).append("~="), a.value());
      case Filter.Present p -> s.append(p.attribute()).append("=*");
      case Filter.Substrings sub -> substrings(s, sub);
      case Filter.Extensible x -> extensible(s, x);
    }
    s.append(')');
  }

  private static void list(StringBuilder s, java.util.List<Filter> filters) {
    for (Filter f : filters) {
      append(s, f);
    }
  }

  private static void substrings(StringBuilder s, Filter.Substrings sub) {
    s.append(sub.attribute()).append('=');
    if (sub.initial() != null) {
      value(s, sub.initial());
    }
    s.append('*');
    for (ByteString any : sub.any()) {
      value(s, any).append('*');
    }
    if (sub.finalValue() != null) {
      value(s, sub.finalValue());
    }
  }

  private static void extensible(StringBuilder s, Filter.Extensible x) {
    if (x.attribute() != null) {
      s.append(x.attribute());
    }
    if (x.dnAttributes()) {
      s.append(":dn");
    }
    if (x.matchingRule() != null) {
      s.append(':').append(x.matchingRule());
    }
    value(s.append(":="), x.value());
  }

  /**
   * Escapes {@code * ( ) \ NUL} as RFC 4515 requires, and every non-printable or non-ASCII byte.
   */
  static StringBuilder value(StringBuilder s, ByteString v) {
    for (int i = 0; i < v.size(); i++) {
      int b = v.unsignedByteAt(i);
      if (b < 0x20 || b >= 0x7f || b == '*' || b == '(' || b == ')' || b == '\\') {
        s.append('\\').append(HEX[b >> 4]).append(HEX[b & 0xf]);
      } else {
        s.append((char) b);
      }
    }
    return s;
  }
}
