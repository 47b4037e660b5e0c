package dev.ferry.mime;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A Content-Type value: type, subtype and parameters (RFC 2045 section 5.1).
 *
 * <p>Parsing is forgiving where real stacks differ and strict where it matters: type, subtype and
 * parameter names are case-insensitive (kept lower-case); values may be tokens or quoted strings
 * (quotes and backslash escapes removed); whitespace, tabs and a trailing {@code ;} are accepted;
 * the first of two parameters with one name wins.
 *
 * <pre>{@code
 * MediaType t = MediaType.parse(
 *     "Multipart/Related;boundary=\"b1\";\ttype=\"application/xop+xml\";");
 * assert t.is("multipart/related");
 * assert t.parameter("boundary").equals("b1");
 * assert t.toString().equals("multipart/related; boundary=b1; type=\"application/xop+xml\"");
 * }</pre>
 */
public final class MediaType {
  private static final boolean[] TOKEN_CHARS = new boolean[128];

  static {
    String tspecials = "()<>@,;:\\\"/[]?=";
    for (char c = '!'; c < 127; c++) {
      TOKEN_CHARS[c] = tspecials.indexOf(c) < 0;
    }
  }

  private final String type;
  private final String subtype;
  private final Map<String, String> parameters;

  private MediaType(String type, String subtype, Map<String, String> parameters) {
    this.type = type;
    this.subtype = subtype;
    this.parameters = Collections.unmodifiableMap(parameters);
  }

  /** Returns {@code type/subtype} with no parameters. */
  public static MediaType of(String type, String subtype) {
    return new MediaType(requireToken(type), requireToken(subtype), new LinkedHashMap<>());
  }

  /**
   * Parses a Content-Type value.
   *
   * @throws IllegalArgumentException if there is no {@code type/subtype} or a parameter is
   *     malformed; the message quotes the value
   */
  public static MediaType parse(String value) {
    return new Parser(value).parse();
  }

  /**
   * Returns {@code type/subtype} with the parameters given as name, value pairs, in that order
   * (a later value of a name replaces an earlier one); one map for all of them, where a chain of
   * {@link #withParameter} copies the map at each step.
   *
   * @throws IllegalArgumentException if a type or name is not a token, or a value lacks its name
   */
  public static MediaType of(String type, String subtype, String... parameters) {
    if (parameters.length % 2 != 0) {
      throw new IllegalArgumentException("parameters come as name, value pairs: "
          + parameters.length + " strings given");
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < parameters.length; i += 2) {
      params.put(requireToken(parameters[i]), Objects.requireNonNull(parameters[i + 1]));
    }
    return new MediaType(requireToken(type), requireToken(subtype), params);
  }

  /** Returns a copy with {@code name} set to {@code value} (replacing an earlier value). */
  public MediaType withParameter(String name, String value) {
    Map<String, String> copy = new LinkedHashMap<>(parameters);
    copy.put(requireToken(name).toLowerCase(Locale.ROOT), value);
    return new MediaType(type, subtype, copy);
  }

  /** Returns the type, lower-case (for example {@code multipart}). */
  public String type() {
    return type;
  }

  /** Returns the subtype, lower-case (for example {@code related}). */
  public String subtype() {
    return subtype;
  }

  /** Returns {@code type/subtype}, lower-case. */
  public String baseType() {
    return type + "/" + subtype;
  }

  /** Returns true if the base type equals {@code typeSlashSubtype}, ignoring case. */
  public boolean is(String typeSlashSubtype) {
    return baseType().equalsIgnoreCase(typeSlashSubtype);
  }

  /** Returns true for {@code multipart/*}. */
  public boolean isMultipart() {
    return type.equals("multipart");
  }

  /** Returns the parameter's value, unquoted, or null. */
  public String parameter(String name) {
    return parameters.get(name.toLowerCase(Locale.ROOT));
  }

  /** Returns all parameters, names lower-case, in the order given. */
  public Map<String, String> parameters() {
    return parameters;
  }

  /** Returns the {@code boundary} parameter, or null. */
  public String boundary() {
    return parameter("boundary");
  }

  /** Formats as {@code type/subtype; name=value}, quoting values that are not tokens. */
  @Override
  public String toString() {
    int length = type.length() + subtype.length() + 1;
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      length += p.getKey().length() + p.getValue().length() + 5; // "; " '=' and two quotes
    }
    StringBuilder s = new StringBuilder(length).append(type).append('/').append(subtype);
    for (Map.Entry<String, String> p : parameters.entrySet()) {
      s.append("; ").append(p.getKey()).append('=');
      appendValue(s, p.getValue());
    }
    return s.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MediaType m && m.type.equals(type) && m.subtype.equals(subtype)
        && m.parameters.equals(parameters);
  }

  @Override
  public int hashCode() {
    return (type.hashCode() * 31 + subtype.hashCode()) * 31 + parameters.hashCode();
  }

  private static void appendValue(StringBuilder s, String value) {
    if (isToken(value)) {
      s.append(value);
      return;
    }
    s.append('"');
    if (value.indexOf('"') < 0 && value.indexOf('\\') < 0) { // the usual case: nothing to escape
      s.append(value);
    } else {
      for (int i = 0; i < value.length(); i++) {
        char c = value.charAt(i);
        if (c == '"' || c == '\\') {
          s.append('\\');
        }
        s.append(c);
      }
    }
    s.append('"');
  }

  static boolean isTokenChar(char c) {
    return c < 128 && TOKEN_CHARS[c];
  }

  static boolean isToken(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (!isTokenChar(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static String requireToken(String s) {
    if (!isToken(s)) {
      throw new IllegalArgumentException("not a MIME token: \"" + s + "\"");
    }
    return s.toLowerCase(Locale.ROOT);
  }

  /** A single-pass parser over one Content-Type value. */
  private static final class Parser {
    private final String in;
    private int pos;

    Parser(String in) {
      this.in = in;
    }

    MediaType parse() {
      String type = token("type");
      skipSpace();
      expect('/');
      String subtype = token("subtype");
      Map<String, String> params = new LinkedHashMap<>();
      while (true) {
        skipSpace();
        if (pos == in.length()) {
          break;
        }
        expect(';');
        skipSpace();
        if (pos == in.length()) {
          break; // a trailing ';' is common and harmless
        }
        if (in.charAt(pos) == ';') {
          continue;
        }
        String name = token("parameter name").toLowerCase(Locale.ROOT);
        skipSpace();
        expect('=');
        skipSpace();
        String value = pos < in.length() && in.charAt(pos) == '"' ? quoted() : token("value");
        params.putIfAbsent(name, value);
      }
      return new MediaType(type.toLowerCase(Locale.ROOT), subtype.toLowerCase(Locale.ROOT),
          params);
    }

    private String token(String what) {
      skipSpace();
      int start = pos;
      while (pos < in.length() && isTokenChar(in.charAt(pos))) {
        pos++;
      }
      if (start == pos) {
        throw error("expected a " + what);
      }
      return in.substring(start, pos);
    }

    private String quoted() {
      pos++; // opening quote
      int close = in.indexOf('"', pos);
      if (close >= 0 && in.lastIndexOf('\\', close) < pos) { // no escapes: the usual case
        String value = in.substring(pos, close);
        pos = close + 1;
        return value;
      }
      StringBuilder s = new StringBuilder();
      while (pos < in.length()) {
        char c = in.charAt(pos++);
        if (c == '"') {
          return s.toString();
        }
        if (c == '\\' && pos < in.length()) {
          c = in.charAt(pos++);
        }
        s.append(c);
      }
      throw error("unterminated quoted string");
    }

    private void expect(char c) {
      if (pos >= in.length() || in.charAt(pos) != c) {
        throw error("expected '" + c + "'");
      }
      pos++;
    }

    private void skipSpace() {
      while (pos < in.length()) {
        char c = in.charAt(pos);
        if (c == '(') {
          skipComment();
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
          pos++;
        } else {
          return;
        }
      }
    }

    private void skipComment() {
      int depth = 0;
      do {
        char c = in.charAt(pos++);
        if (c == '\\') {
          pos++;
        } else if (c == '(') {
          depth++;
        } else if (c == ')') {
          depth--;
        }
      } while (depth > 0 && pos < in.length());
      if (depth > 0) {
        throw error("unterminated comment");
      }
    }

    private IllegalArgumentException error(String what) {
      return new IllegalArgumentException(what + " at index " + pos + " of Content-Type \""
          + (in.length() > 200 ? in.substring(0, 200) + "…" : in) + "\"");
    }
  }
}
