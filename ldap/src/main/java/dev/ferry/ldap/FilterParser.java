package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive-descent parser for the RFC 4515 string form, with the nesting capped so that a hostile
 * string cannot exhaust the stack.
 *
 * <pre>
 * filter     = "(" filtercomp ")"
 * filtercomp = "&amp;" *filter / "|" *filter / "!" filter / item
 * item       = attr ("=" / "~=" / "&gt;=" / "&lt;=") value      ; "=*" alone: present
 *            / attr "=" [initial] "*" *(any "*") [final]     ; substrings
 *            / [attr] [":dn"] [":" rule] ":=" value           ; extensible
 * value      = *(char except NUL ( ) * \ / "\" 2HEX)
 * </pre>
 */
final class FilterParser {
  private final String s;
  private final int maxDepth;
  private int pos;

  FilterParser(String s, int maxDepth) {
    this.s = s;
    this.maxDepth = maxDepth;
  }

  Filter parse() {
    Filter f = filter(1);
    if (pos != s.length()) {
      throw error("unexpected text after the filter");
    }
    return f;
  }

  private Filter filter(int depth) {
    if (depth > maxDepth) {
      throw error("filter nests deeper than " + maxDepth);
    }
    expect('(');
    Filter f = switch (peek()) {
      case '&' -> new Filter.And(list(depth));
      case '|' -> new Filter.Or(list(depth));
      case '!' -> {
        pos++;
        yield new Filter.Not(filter(depth + 1));
      }
      default -> item();
    };
    expect(')');
    return f;
  }

  private List<Filter> list(int depth) {
    pos++;
    List<Filter> filters = new ArrayList<>();
    while (peek() == '(') {
      filters.add(filter(depth + 1));
    }
    return filters;
  }

  private Filter item() {
    int start = pos;
    String attr = attribute();
    char c = peek();
    if (c == ':') {
      return extensible(attr.isEmpty() ? null : attr);
    }
    if (attr.isEmpty()) {
      throw error("expected an attribute description", start);
    }
    if (c == '~' || c == '>' || c == '<') {
      pos++;
      expect('=');
      ByteString v = value();
      return c == '~' ? new Filter.Approx(attr, v)
          : c == '>' ? new Filter.GreaterOrEqual(attr, v) : new Filter.LessOrEqual(attr, v);
    }
    expect('=');
    return equalityOrSubstrings(attr);
  }

  private Filter equalityOrSubstrings(String attr) {
    List<ByteString> parts = new ArrayList<>();
    parts.add(value());
    while (pos < s.length() && s.charAt(pos) == '*') {
      pos++;
      parts.add(value());
    }
    if (parts.size() == 1) {
      return new Filter.Equality(attr, parts.get(0));
    }
    if (parts.size() == 2 && parts.get(0).isEmpty() && parts.get(1).isEmpty()) {
      return new Filter.Present(attr);
    }
    ByteString initial = parts.get(0).isEmpty() ? null : parts.get(0);
    ByteString fin = parts.get(parts.size() - 1).isEmpty() ? null : parts.get(parts.size() - 1);
    List<ByteString> any = new ArrayList<>();
    for (ByteString p : parts.subList(1, parts.size() - 1)) {
      if (p.isEmpty()) {
        throw error("empty substring between two '*'");
      }
      any.add(p);
    }
    return new Filter.Substrings(attr, initial, any, fin);
  }

  private Filter extensible(String attr) {
    boolean dn = false;
    String rule = null;
    if (s.regionMatches(true, pos, ":dn", 0, 3) && pos + 3 < s.length()
        && s.charAt(pos + 3) == ':') {
      dn = true;
      pos += 3;
    }
    if (pos + 1 < s.length() && s.charAt(pos) == ':' && s.charAt(pos + 1) != '=') {
      pos++;
      rule = attribute();
      if (rule.isEmpty()) {
        throw error("expected a matching rule");
      }
    }
    if (attr == null && rule == null) {
      throw error("extensible match needs an attribute or a matching rule");
    }
    expect(':');
    expect('=');
    return new Filter.Extensible(rule, attr, value(), dn);
  }

  private String attribute() {
    int start = pos;
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (!(Character.isLetterOrDigit(c) && c < 0x80 || c == '-' || c == '.' || c == ';')) {
        break;
      }
      pos++;
    }
    return s.substring(start, pos);
  }

  private ByteString value() {
    ByteStringBuilder b = new ByteStringBuilder(16);
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c == '(' || c == ')' || c == '*' || c == 0) {
        break;
      }
      if (c == '\\') {
        b.append((byte) hexPair());
        continue;
      }
      int cp = s.codePointAt(pos);
      pos += Character.charCount(cp);
      b.appendUtf8(Character.toString(cp));
    }
    return b.toByteString();
  }

  private int hexPair() {
    if (pos + 2 >= s.length()) {
      throw error("'\\' must be followed by two hex digits");
    }
    int hi = Character.digit(s.charAt(pos + 1), 16);
    int lo = Character.digit(s.charAt(pos + 2), 16);
    if (hi < 0 || lo < 0) {
      throw error("'\\' must be followed by two hex digits");
    }
    pos += 3;
    return hi << 4 | lo;
  }

  private char peek() {
    if (pos >= s.length()) {
      throw error("unexpected end of filter");
    }
    return s.charAt(pos);
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private IllegalArgumentException error(String what) {
    return error(what, pos);
  }

  private IllegalArgumentException error(String what, int at) {
    return new IllegalArgumentException(what + " at index " + at + " of filter \"" + s + "\"");
  }
}
