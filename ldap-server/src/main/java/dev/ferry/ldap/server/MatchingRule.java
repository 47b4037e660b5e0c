package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;

/**
 * A matching rule (RFC 4517 section 4): turns a value into a key that equality compares and, for
 * ordering rules, orders; string rules also match substrings on their prepared text.
 *
 * <p>A value the rule cannot read (an integer rule given "ten") has no key: the filter item is
 * Undefined (RFC 4511 section 4.5.1.7), never an error.
 */
abstract class MatchingRule {
  final String oid;
  final String name;

  MatchingRule(String oid, String name) {
    this.oid = oid;
    this.name = name;
  }

  /** Returns the key of {@code value} under this rule, or null if the rule cannot read it. */
  abstract Object key(ByteString value, Schema schema);

  /** Orders two keys of this rule: strings by code point, as their UTF-8 bytes and slapd do. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  int compare(Object a, Object b) {
    if (a instanceof String x && b instanceof String y) {
      return compareCodePoints(x, y);
    }
    return ((Comparable) a).compareTo(b);
  }

  static int compareCodePoints(String x, String y) {
    int n = Math.min(x.length(), y.length());
    for (int i = 0; i < n; i++) {
      char c = x.charAt(i);
      char d = y.charAt(i);
      if (c != d) {
        return codePointRank(c) - codePointRank(d);
      }
    }
    return x.length() - y.length();
  }

  /** Moves surrogates above U+E000..U+FFFF: UTF-16 order becomes code point order. */
  private static int codePointRank(char c) {
    return c >= 0xE000 ? c - 0x800 : c >= 0xD800 ? c + 0x2000 : c;
  }

  /** True if this is an ordering rule: in an extensible item it matches values less than the
   * assertion (X.501 section 12.3). */
  boolean isOrdering() {
    return name.endsWith("OrderingMatch");
  }

  /** Returns true if this rule matches substrings (its keys are prepared text). */
  boolean isSubstringRule() {
    return false;
  }

  /** Prepares a substring assertion piece (initial, any or final); only substring rules. */
  String piece(ByteString value) {
    throw new UnsupportedOperationException(name + " does not match substrings");
  }

  @Override
  public String toString() {
    return name;
  }
}
