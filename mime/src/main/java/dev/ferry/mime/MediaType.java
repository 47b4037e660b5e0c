package dev.ferry.mime;

import dev.ferry.mime.internal.Bytes;
import dev.ferry.mime.internal.HeaderWarnings;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntToLongFunction;

/**
 * A Content-Type value: type, subtype and parameters (RFC 2045 section 5.1).
 *
 * <p>Parsing is forgiving where real stacks differ and strict where it matters: type, subtype and
 * parameter names are case-insensitive (kept lower-case); values may be tokens or quoted strings
 * (quotes and backslash escapes removed); whitespace, tabs and a trailing {@code ;} are accepted;
 * the first of two parameters with one name wins. A malformed value is a {@link MimeException}
 * that says where: the absolute offset when the value was read from a message's headers, else
 * the offset within the value itself.
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

  private static final String[] NO_PARAMETERS = {};

  private final String type;
  private final String subtype;
  /**
   * Names (lower-case, each once) and values, alternating, in order: an array rather than a
   * map because a media type has a handful of parameters and is built per message (a linked
   * map, its nodes and the unmodifiable wrapper's entries were most of the cost of making one
   * and formatting it).
   */
  private final String[] parameters;
  private volatile Map<String, String> parameterMap; // made on the first call of parameters()
  private String formatted; // toString's result, made once (a String is safe to race on)

  private MediaType(String type, String subtype, String[] parameters) {
    this.type = type;
    this.subtype = subtype;
    this.parameters = parameters;
  }

  /** Returns {@code type/subtype} with no parameters. */
  public static MediaType of(String type, String subtype) {
    return new MediaType(requireToken(type), requireToken(subtype), NO_PARAMETERS);
  }

  /**
   * Parses a Content-Type value on its own, such as an HTTP header's.
   *
   * @throws MimeException if there is no {@code type/subtype} or a parameter is malformed; its
   *     {@code byteOffset()} counts from the value's first byte (UTF-8), and its context says so
   *     and quotes the value, for example
   *     {@code expected '/' at byte 4 [within the Content-Type value "text"]}
   */
  public static MediaType parse(String value) throws MimeException {
    return new Parser(value, null, null, null).parse();
  }

  /**
   * Parses the value of a Content-Type field read from a message: {@code offsets} gives the
   * absolute offset of a character of the value, {@code context} where the field is. With
   * {@code warnings} (lenient header parsing), a malformed parameter is reported there and read
   * past, and a value without a valid type and subtype is reported and gives null, as RFC 2045
   * section 5.2 recommends (the defaults then apply).
   *
   * @throws MimeException if strict and malformed, or for {@code MimeLimits.maxHeaderWarnings}
   */
  static MediaType parse(String value, IntToLongFunction offsets, String context,
      HeaderWarnings warnings) throws MimeException {
    Parser p = new Parser(value, offsets, context, warnings);
    if (warnings == null) {
      return p.parse();
    }
    try {
      return p.parse();
    } catch (MimeException e) {
      if (e.isLimitExceeded()) {
        throw e;
      }
      warnings.add(e, "Content-Type ignored (RFC 2045 defaults apply)");
      return null;
    }
  }

  /**
   * Returns {@code type/subtype} with the parameters given as name, value pairs, in that order
   * (a later value of a name replaces an earlier one); one map for all of them, where a chain of
   * {@link #withParameter} copies the map at each step.
   *
   * @throws IllegalArgumentException if a type or name is not a token, or a value lacks its name
   */
  public static MediaType of(String type, String subtype, String... parameters) {
    return ofOwned(type, subtype, parameters.clone());
  }

  /** {@link #of(String, String, String...)} on pairs nobody else holds: checked in place. */
  private static MediaType ofOwned(String type, String subtype, String[] params) {
    if (params.length % 2 != 0) {
      throw new IllegalArgumentException("parameters come as name, value pairs: "
          + params.length + " strings given");
    }
    int n = 0;
    for (int i = 0; i < params.length; i += 2) {
      n = put(params, n, requireToken(params[i]), requireValue(params[i + 1]));
    }
    return new MediaType(requireToken(type), requireToken(subtype), trim(params, n));
  }

  /**
   * For {@link MultipartWriter}: {@code multipart/<subtype>} with its {@code boundary} and
   * {@code extra} name, value pairs as in {@link #of(String, String, String...)}. A boundary the
   * writer made is a token ({@code boundaryIsToken}): formatted at once, without a check of each
   * of its characters.
   */
  static MediaType multipart(String subtype, String boundary, boolean boundaryIsToken,
      String... extra) {
    String[] parameters = new String[2 + extra.length];
    parameters[0] = "boundary";
    parameters[1] = boundary;
    System.arraycopy(extra, 0, parameters, 2, extra.length);
    MediaType t = ofOwned("multipart", subtype, parameters);
    if (boundaryIsToken) {
      t.formatted = t.format(t.parameters[1] == boundary); // not replaced by an extra pair
    }
    return t;
  }

  /**
   * For {@link MultipartWriter}: a type whose names are known lower-case tokens, each once, and
   * whose string form the caller made.
   */
  static MediaType preformatted(String type, String subtype, String formatted,
      String[] parameters) {
    MediaType t = new MediaType(type, subtype, parameters);
    t.formatted = formatted;
    return t;
  }

  /** Returns a copy with {@code name} set to {@code value} (replacing an earlier value). */
  public MediaType withParameter(String name, String value) {
    String[] copy = Arrays.copyOf(parameters, parameters.length + 2);
    int n = put(copy, parameters.length, requireToken(name), requireValue(value));
    return new MediaType(type, subtype, trim(copy, n));
  }

  /**
   * Sets {@code name} to {@code value} among the first {@code n} slots of {@code params}:
   * in place if the name is there, else appended; returns the new count of slots in use.
   */
  private static int put(String[] params, int n, String name, String value) {
    for (int i = 0; i < n; i += 2) {
      if (params[i].equals(name)) {
        params[i + 1] = value;
        return n;
      }
    }
    params[n] = name;
    params[n + 1] = value;
    return n + 2;
  }

  private static String[] trim(String[] params, int n) {
    return n == params.length ? params : Arrays.copyOf(params, n);
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
    return lookUp(name.toLowerCase(Locale.ROOT));
  }

  private String lookUp(String lowerCaseName) {
    for (int i = 0; i < parameters.length; i += 2) {
      if (parameters[i].equals(lowerCaseName)) {
        return parameters[i + 1];
      }
    }
    return null;
  }

  /** Returns all parameters, names lower-case, in the order given. */
  public Map<String, String> parameters() {
    Map<String, String> m = parameterMap;
    if (m == null) {
      Map<String, String> ordered = new LinkedHashMap<>();
      for (int i = 0; i < parameters.length; i += 2) {
        ordered.put(parameters[i], parameters[i + 1]);
      }
      m = Collections.unmodifiableMap(ordered);
      parameterMap = m;
    }
    return m;
  }

  /** Returns the {@code boundary} parameter, or null. */
  public String boundary() {
    return parameter("boundary");
  }

  /** Formats as {@code type/subtype; name=value}, quoting values that are not tokens. */
  @Override
  public String toString() {
    String s = formatted;
    if (s == null) {
      s = format(false);
      formatted = s;
    }
    return s;
  }

  private String format(boolean firstValueIsToken) {
    int length = type.length() + subtype.length() + 1;
    for (int i = 0; i < parameters.length; i += 2) {
      length += parameters[i].length() + parameters[i + 1].length() + 5; // "; " '=' 2 quotes
    }
    StringBuilder s = new StringBuilder(length).append(type).append('/').append(subtype);
    for (int i = 0; i < parameters.length; i += 2) {
      s.append("; ").append(parameters[i]).append('=');
      if (i == 0 && firstValueIsToken) {
        s.append(parameters[1]);
      } else {
        appendValue(s, parameters[i + 1]);
      }
    }
    return s.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MediaType m && m.type.equals(type) && m.subtype.equals(subtype)
        && sameParameters(m);
  }

  /** Same names with the same values, in any order (as two maps are equal). */
  private boolean sameParameters(MediaType m) {
    if (m.parameters.length != parameters.length) {
      return false;
    }
    for (int i = 0; i < parameters.length; i += 2) {
      if (!parameters[i + 1].equals(m.lookUp(parameters[i]))) {
        return false;
      }
    }
    return true;
  }

  /** As {@code Map.hashCode} of the parameters: independent of their order. */
  @Override
  public int hashCode() {
    int h = 0;
    for (int i = 0; i < parameters.length; i += 2) {
      h += parameters[i].hashCode() ^ parameters[i + 1].hashCode();
    }
    return (type.hashCode() * 31 + subtype.hashCode()) * 31 + h;
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

  /**
   * Returns {@code value} if it holds no line break: a value goes into a header line, where CR
   * or LF would end it and start another (header injection).
   */
  private static String requireValue(String value) {
    Objects.requireNonNull(value, "parameter value");
    if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
      throw new IllegalArgumentException("parameter value contains a line break: \""
          + value.replace("\r", "\\r").replace("\n", "\\n") + "\"");
    }
    return value;
  }

  /** Returns {@code s} lower-case (itself if it is), checked in the same pass. */
  private static String requireToken(String s) {
    if (isWellKnownToken(s)) {
      return s;
    }
    boolean upper = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!isTokenChar(c)) {
        throw new IllegalArgumentException("not a MIME token: \"" + s + "\"");
      }
      upper |= c >= 'A' && c <= 'Z';
    }
    if (s.isEmpty()) {
      throw new IllegalArgumentException("not a MIME token: \"\"");
    }
    return upper ? s.toLowerCase(Locale.ROOT) : s;
  }

  /**
   * True if {@code s} is the very string (string literals are one object each) of a lower-case
   * token that SOAP and MTOM content types use, so it needs no look at every character: about
   * 1.8 ns a character here, most of the cost of making a multipart/related type.
   */
  private static boolean isWellKnownToken(String s) {
    return s == "multipart" || s == "related" || s == "boundary" // identity is the point here
        || s == "type" || s == "start" || s == "start-info" || s == "charset" || s == "action"
        || s == "application" || s == "xop+xml" || s == "text" || s == "xml";
  }

  /**
   * Tokens and values that SOAP and MTOM messages carry in nearly every Content-Type: a parsed
   * one equal to one of these is this very string rather than a new one. Each part's
   * Content-Type is parsed as its headers are read, and substrings were most of what that
   * allocated: an MTOM root part's type took 488 bytes, 176 with these; a binary attachment's
   * 256, 96.
   */
  private static final String[] COMMON = {"application", "octet-stream", "xop+xml", "text",
      "xml", "multipart", "related", "charset", "UTF-8", "utf-8", "type", "start",
      "start-info", "action", "boundary", "application/soap+xml", "text/xml",
      "application/xop+xml"};

  /** Returns {@code in[start, end)}: one of {@link #COMMON} if it is one, else a substring. */
  private static String common(String in, int start, int end) {
    int n = end - start;
    for (String c : COMMON) {
      if (c.length() == n && in.regionMatches(start, c, 0, n)) {
        return c;
      }
    }
    return in.substring(start, end);
  }

  /**
   * Parsed parameters, the first of two with one name kept. Names are looked up in a set once
   * there are more than a few, so a header of thousands of parameters costs no quadratic time.
   */
  private static final class Parameters {
    private static final int SCAN_LIMIT = 8;
    private String[] pairs = NO_PARAMETERS; // made at the first parameter
    private int n;
    private Set<String> names;

    void addIfAbsent(String name, String value) {
      if (contains(name)) {
        return;
      }
      if (n == pairs.length) {
        pairs = Arrays.copyOf(pairs, Math.max(8, n * 2));
      }
      pairs[n++] = name;
      pairs[n++] = value;
      if (names != null) {
        names.add(name);
      } else if (n / 2 > SCAN_LIMIT) {
        names = new HashSet<>();
        for (int i = 0; i < n; i += 2) {
          names.add(pairs[i]);
        }
      }
    }

    private boolean contains(String name) {
      if (names != null) {
        return names.contains(name);
      }
      for (int i = 0; i < n; i += 2) {
        if (pairs[i].equals(name)) {
          return true;
        }
      }
      return false;
    }

    String[] toArray() {
      return n == 0 ? NO_PARAMETERS : Arrays.copyOf(pairs, n);
    }
  }

  /**
   * A single-pass parser over one Content-Type value. Strict, it throws at the first error;
   * lenient ({@code warnings} given), it reports a malformed parameter and goes on after the next
   * {@code ;}, except that a value which is neither a token nor a quoted string (an unquoted
   * RFC 2047 encoded word, {@code type=application/xop+xml}, {@code name=a b.pdf}) is kept as
   * written up to the next {@code ;}, as mime4j reads it, and reported.
   */
  private static final class Parser {
    private final String in;
    private final IntToLongFunction offsets; // null: offsets within the value
    private final String context; // null: a value on its own
    private final HeaderWarnings warnings; // null: strict
    private int pos;
    private String parameter; // the name of the parameter being read, for the context

    Parser(String in, IntToLongFunction offsets, String context, HeaderWarnings warnings) {
      this.in = in;
      this.offsets = offsets;
      this.context = context;
      this.warnings = warnings;
    }

    MediaType parse() throws MimeException {
      String type = token("type");
      skipSpace();
      expect('/');
      String subtype = token("subtype");
      Parameters params = new Parameters();
      while (true) {
        try {
          if (!nextParameter(params)) {
            break;
          }
        } catch (MimeException e) {
          if (warnings == null || e.isLimitExceeded()) {
            throw e;
          }
          warnings.add(e, "skipped up to the next ';'");
          skipToSemicolon();
        }
      }
      return new MediaType(type.toLowerCase(Locale.ROOT), subtype.toLowerCase(Locale.ROOT),
          params.toArray());
    }

    /** Reads {@code ; name=value}, or a stray {@code ;}; returns false at the end. */
    private boolean nextParameter(Parameters params) throws MimeException {
      parameter = null;
      skipSpace();
      if (pos == in.length()) {
        return false;
      }
      expect(';');
      skipSpace();
      if (pos == in.length()) {
        return false; // a trailing ';' is common and harmless
      }
      if (in.charAt(pos) == ';') {
        return true;
      }
      String name = token("parameter name").toLowerCase(Locale.ROOT);
      parameter = name;
      skipSpace();
      expect('=');
      skipSpace();
      params.addIfAbsent(name, value());
      return true;
    }

    private String value() throws MimeException {
      if (pos < in.length() && in.charAt(pos) == '"') {
        return quoted();
      }
      int start = pos;
      while (pos < in.length() && isTokenChar(in.charAt(pos))) {
        pos++;
      }
      int end = pos;
      if (warnings != null && (end == start || !endsParameter())) {
        int semicolon = in.indexOf(';', start);
        pos = semicolon < 0 ? in.length() : semicolon;
        warnings.add(error("value is neither a token nor a quoted string", start),
            "kept as written");
        return in.substring(start, pos).strip();
      }
      if (end == start) {
        throw error("expected a value", pos);
      }
      return common(in, start, end);
    }

    /** Lenient: true if only white space and comments are left before a ';' or the end. */
    private boolean endsParameter() throws MimeException {
      skipSpace();
      return pos == in.length() || in.charAt(pos) == ';';
    }

    private String token(String what) throws MimeException {
      skipSpace();
      int start = pos;
      while (pos < in.length() && isTokenChar(in.charAt(pos))) {
        pos++;
      }
      if (start == pos) {
        throw error("expected a " + what, pos);
      }
      return common(in, start, pos);
    }

    private String quoted() throws MimeException {
      int open = pos++;
      int close = in.indexOf('"', pos);
      if (close >= 0 && in.lastIndexOf('\\', close) < pos) { // no escapes: the usual case
        String value = common(in, pos, close);
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
      throw error("unterminated quoted string", open);
    }

    private void expect(char c) throws MimeException {
      if (pos >= in.length() || in.charAt(pos) != c) {
        throw error("expected '" + c + "'", pos);
      }
      pos++;
    }

    private void skipSpace() throws MimeException {
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

    private void skipComment() throws MimeException {
      int open = pos;
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
        throw error("unterminated comment", open);
      }
    }

    /** Lenient recovery: moves to the next {@code ;} that is not inside a quoted string. */
    private void skipToSemicolon() {
      boolean quoted = false;
      for (; pos < in.length(); pos++) {
        char c = in.charAt(pos);
        if (c == '\\' && quoted) {
          pos++;
        } else if (c == '"') {
          quoted = !quoted;
        } else if (c == ';' && !quoted) {
          return;
        }
      }
      pos = in.length();
    }

    private MimeException error(String what, int at) {
      long offset = offsets != null ? offsets.applyAsLong(at) : Bytes.utf8Length(in, 0, at);
      String where = context != null ? context
          : "within the Content-Type value " + Bytes.quote(in);
      if (parameter != null) {
        where += " > parameter \"" + parameter + "\"";
      }
      return new MimeException(what, offset, where);
    }
  }
}
