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

  /** Orders two keys of this rule. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  int compare(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
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
