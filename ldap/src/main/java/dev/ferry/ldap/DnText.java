package dev.ferry.ldap;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses and escapes the RFC 4514 string form of DNs.
 *
 * <pre>
 * dn     = [ rdn *( "," rdn ) ]
 * rdn    = ava *( "+" ava )
 * ava    = type "=" ( string / "#" 1*hexpair )
 * type   = ALPHA *( ALPHA / DIGIT / "-" ) / numericoid
 * string = *( char / "\" ( special / hexpair ) )   ; special = " + , ; &lt; &gt; \ space # =
 * </pre>
 */
final class DnText {
  private final String s;
  private int pos;

  DnText(String s) {
    this.s = s;
  }

  Dn parse() {
    List<Dn.Rdn> rdns = new ArrayList<>();
    skipSpaces();
    if (pos == s.length()) {
      return Dn.ROOT;
    }
    while (true) {
      rdns.add(rdn());
      if (pos == s.length()) {
        return new Dn(rdns);
      }
      expect(',', ';');
      skipSpaces();
    }
  }

  private Dn.Rdn rdn() {
    List<Dn.Ava> avas = new ArrayList<>();
    avas.add(ava());
    while (pos < s.length() && s.charAt(pos) == '+') {
      pos++;
      skipSpaces();
      avas.add(ava());
    }
    return new Dn.Rdn(avas);
  }

  private Dn.Ava ava() {
    String type = type();
    skipSpaces();
    expect('=', '=');
    skipSpaces();
    if (pos < s.length() && s.charAt(pos) == '#') {
      pos++;
      return new Dn.Ava(type, hexString(), true);
    }
    return new Dn.Ava(type, string(), false);
  }

  private String type() {
    int start = pos;
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (!(c < 0x80 && (Character.isLetterOrDigit(c) || c == '-' || c == '.'))) {
        break;
      }
      pos++;
    }
    if (start == pos) {
      throw error("expected an attribute type");
    }
    return s.substring(start, pos);
  }

  private ByteString hexString() {
    ByteStringBuilder b = new ByteStringBuilder(16);
    while (pos + 1 < s.length() && hex(s.charAt(pos)) >= 0 && hex(s.charAt(pos + 1)) >= 0) {
      b.append((byte) (hex(s.charAt(pos)) << 4 | hex(s.charAt(pos + 1))));
      pos += 2;
    }
    if (b.size() == 0) {
      throw error("expected hex pairs after '#'");
    }
    skipSpaces();
    return b.toByteString();
  }

  private ByteString string() {
    ByteStringBuilder b = new ByteStringBuilder(32);
    int keep = 0; // bytes up to the last escaped or non-space char
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c == ',' || c == '+' || c == ';') {
        break;
      }
      if (c == '"' || c == '<' || c == '>') {
        throw error("'" + c + "' must be escaped");
      }
      if (c == '\\') {
        escape(b);
        keep = b.size();
        continue;
      }
      int cp = s.codePointAt(pos);
      pos += Character.charCount(cp);
      b.appendUtf8(Character.toString(cp));
      if (c != ' ') {
        keep = b.size();
      }
    }
    b.truncate(keep); // unescaped trailing spaces are not part of the value
    return b.toByteString();
  }

  private void escape(ByteStringBuilder b) {
    if (pos + 1 >= s.length()) {
      throw error("'\\' at the end");
    }
    char c = s.charAt(pos + 1);
    if ("\"+,;<>\\ #=".indexOf(c) >= 0) {
      b.append((byte) c);
      pos += 2;
      return;
    }
    if (pos + 2 < s.length() && hex(c) >= 0 && hex(s.charAt(pos + 2)) >= 0) {
      b.append((byte) (hex(c) << 4 | hex(s.charAt(pos + 2))));
      pos += 3;
      return;
    }
    throw error("bad escape '\\" + c + "'");
  }

  private void expect(char c, char alt) {
    if (pos >= s.length() || (s.charAt(pos) != c && s.charAt(pos) != alt)) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipSpaces() {
    while (pos < s.length() && s.charAt(pos) == ' ') {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at index " + pos + " of DN \"" + s + "\"");
  }

  private static int hex(char c) {
    return Character.digit(c, 16);
  }

  /** Appends {@code value} with the escapes RFC 4514 section 2.4 requires. */
  static StringBuilder escape(StringBuilder out, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean edge = (i == 0 && (c == ' ' || c == '#')) || (i == value.length() - 1 && c == ' ');
      if (c == 0) {
        out.append("\\00");
      } else if (edge || "\"+,;<>\\".indexOf(c) >= 0) {
        out.append('\\').append(c);
      } else {
        out.append(c);
      }
    }
    return out;
  }
}
