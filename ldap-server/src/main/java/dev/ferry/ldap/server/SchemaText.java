package dev.ferry.ldap.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads schema definitions: the files of OpenLDAP's {@code slapd.conf} form and the
 * descriptions of RFC 4512 section 4.1 inside them.
 *
 * <pre>
 * file        = *( keyword SP text / comment / blank )   ; text continues on lines that start
 *                                                          ; with a space or tab
 * keyword     = "attributetype" / "objectclass" / "objectidentifier" (case ignored; also
 *               "attributetypes", "objectclasses"; "ldapsyntax" and "ditcontentrule" are read
 *               and not used)
 * description = "(" numericoid *( WSP key [WSP value] ) WSP ")"
 * value       = qdstring / word / "(" ( word *( "$" word ) / 1*qdstring ) ")"
 * </pre>
 *
 * <p>OIDs may be OpenLDAP macros ({@code NAME:suffix}) defined by {@code objectidentifier}.
 */
final class SchemaText {
  /** What a definition defines. */
  enum Kind {
    ATTRIBUTE_TYPE, OBJECT_CLASS, OBJECT_IDENTIFIER,
    /** Syntaxes and DIT content rules: read, so that files load, and not used. */
    IGNORED
  }

  /** One definition as written, and where (file and line) for errors. */
  record Definition(Kind kind, String text, String origin) {}

  /** A parsed description: its OID, and every keyword with its values (flags have none). */
  record Description(String oid, Map<String, List<String>> fields, String text) {
    List<String> values(String key) {
      return fields.getOrDefault(key, List.of());
    }

    String value(String key) {
      List<String> v = values(key);
      return v.isEmpty() ? null : v.get(0);
    }

    boolean has(String key) {
      return fields.containsKey(key);
    }
  }

  private static final Set<String> FLAGS = Set.of("OBSOLETE", "SINGLE-VALUE", "COLLECTIVE",
      "NO-USER-MODIFICATION", "ABSTRACT", "STRUCTURAL", "AUXILIARY");

  private SchemaText() {}

  /** Cuts an OpenLDAP {@code .schema} file into definitions. */
  static List<Definition> openLdapFile(String text, String name) {
    List<Definition> out = new ArrayList<>();
    StringBuilder current = null;
    Kind kind = null;
    int startLine = 0;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.startsWith("#")) {
        continue;
      }
      if (!line.isEmpty() && Character.isWhitespace(line.charAt(0))) {
        if (current != null) {
          current.append(' ').append(line.strip());
        } else if (!line.isBlank()) {
          throw new IllegalArgumentException(name + " line " + (i + 1)
              + ": continuation without a definition before it");
        }
        continue;
      }
      if (current != null) {
        out.add(new Definition(kind, current.toString().strip(), name + " line " + startLine));
        current = null;
      }
      if (line.isBlank()) {
        continue;
      }
      int space = firstSpace(line);
      kind = kind(line.substring(0, space), name + " line " + (i + 1));
      current = new StringBuilder(line.substring(space));
      startLine = i + 1;
    }
    if (current != null) {
      out.add(new Definition(kind, current.toString().strip(), name + " line " + startLine));
    }
    return out;
  }

  private static int firstSpace(String line) {
    for (int i = 0; i < line.length(); i++) {
      if (Character.isWhitespace(line.charAt(i))) {
        return i;
      }
    }
    return line.length();
  }

  /** Returns the kind a file keyword or an LDIF attribute name stands for, or fails. */
  static Kind kind(String keyword, String origin) {
    Kind k = kindOrNull(keyword);
    if (k == null) {
      throw new IllegalArgumentException(origin + ": unknown schema keyword \"" + keyword
          + "\" (expected: attributetype, objectclass or objectidentifier)");
    }
    return k;
  }

  /** Returns the kind for a file keyword, or null. */
  static Kind kindOrNull(String keyword) {
    return switch (keyword.toLowerCase(Locale.ROOT)) {
      case "attributetype", "attributetypes" -> Kind.ATTRIBUTE_TYPE;
      case "objectclass", "objectclasses" -> Kind.OBJECT_CLASS;
      case "objectidentifier" -> Kind.OBJECT_IDENTIFIER;
      case "ldapsyntax", "ditcontentrule" -> Kind.IGNORED;
      default -> null;
    };
  }

  /**
   * Returns the kind an LDIF schema attribute holds ({@code olcAttributeTypes} of cn=config,
   * {@code attributeTypes} of a subschema entry, ...), or null for any other attribute.
   */
  static Kind ldifKind(String attribute) {
    return switch (attribute.toLowerCase(Locale.ROOT)) {
      case "olcattributetypes", "attributetypes" -> Kind.ATTRIBUTE_TYPE;
      case "olcobjectclasses", "objectclasses" -> Kind.OBJECT_CLASS;
      case "olcobjectidentifier" -> Kind.OBJECT_IDENTIFIER;
      case "olcldapsyntaxes", "ldapsyntaxes", "olcditcontentrules" -> Kind.IGNORED;
      default -> null;
    };
  }

  /**
   * Parses an RFC 4512 description, expanding macros in OIDs.
   *
   * @throws IllegalArgumentException naming the position if the text is not a description
   */
  static Description parse(String text, Map<String, String> macros) {
    Tokens t = new Tokens(text);
    t.expect("(");
    String oid = expand(t.word("an OID"), macros);
    Map<String, List<String>> fields = new LinkedHashMap<>();
    while (!t.peekIs(")")) {
      String key = t.word("a keyword").toUpperCase(Locale.ROOT);
      List<String> values = FLAGS.contains(key) ? List.of() : t.values();
      fields.put(key, values.stream().map(v -> isOidField(key) ? expand(v, macros) : v)
          .toList());
    }
    t.expect(")");
    t.end();
    return new Description(oid, fields, text);
  }

  private static boolean isOidField(String key) {
    return switch (key) {
      case "SUP", "EQUALITY", "ORDERING", "SUBSTR", "SYNTAX", "MUST", "MAY" -> true;
      default -> false;
    };
  }

  /** Expands an OpenLDAP OID macro such as {@code NSDSat:5}; other text is returned as is. */
  static String expand(String oid, Map<String, String> macros) {
    int colon = oid.indexOf(':');
    String head = colon < 0 ? oid : oid.substring(0, colon);
    String base = macros.get(head.toLowerCase(Locale.ROOT));
    if (base == null) {
      return oid;
    }
    return colon < 0 ? base : base + "." + oid.substring(colon + 1);
  }

  /** The tokens of a description: ( ) $ 'quoted' and bare words. */
  private static final class Tokens {
    private final String s;
    private int pos;

    Tokens(String s) {
      this.s = s;
    }

    List<String> values() {
      if (!peekIs("(")) {
        return List.of(next("a value"));
      }
      pos++;
      List<String> list = new ArrayList<>();
      while (!peekIs(")")) {
        if (peekIs("$")) {
          pos++;
          continue;
        }
        list.add(next("a value"));
      }
      pos++;
      return list;
    }

    String word(String what) {
      String w = next(what);
      return w;
    }

    boolean peekIs(String token) {
      skipSpaces();
      if (pos >= s.length()) {
        throw error("unexpected end (expected: " + token + ")");
      }
      return s.startsWith(token, pos);
    }

    void expect(String token) {
      if (!peekIs(token)) {
        throw error("expected '" + token + "'");
      }
      pos += token.length();
    }

    void end() {
      skipSpaces();
      if (pos < s.length()) {
        throw error("text after the closing ')'");
      }
    }

    private String next(String what) {
      skipSpaces();
      if (pos >= s.length()) {
        throw error("unexpected end (expected: " + what + ")");
      }
      char c = s.charAt(pos);
      if (c == '\'') {
        return quoted();
      }
      int start = pos;
      while (pos < s.length() && !Character.isWhitespace(s.charAt(pos))
          && "()$'".indexOf(s.charAt(pos)) < 0) {
        pos++;
      }
      if (start == pos) {
        throw error("expected " + what);
      }
      return s.substring(start, pos);
    }

    private String quoted() {
      int close = s.indexOf('\'', pos + 1);
      if (close < 0) {
        throw error("unterminated quoted string");
      }
      String raw = s.substring(pos + 1, close);
      pos = close + 1;
      // RFC 4512 qdstring escapes: \27 for a quote, \5C for a backslash
      return raw.replace("\\27", "'").replace("\\5C", "\\").replace("\\5c", "\\");
    }

    private void skipSpaces() {
      while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
        pos++;
      }
    }

    private IllegalArgumentException error(String what) {
      return new IllegalArgumentException(what + " at index " + pos + " of \"" + s + "\"");
    }
  }
}
