package dev.ferry.ldap.server;

import java.util.List;
import java.util.Locale;

/**
 * An attribute type of the schema (RFC 4512 section 4.1.2), with the matching rules and syntax it
 * inherits from its supertype already filled in. A type the schema does not define, met in
 * permissive mode, is made up on the spot: a directory string matched ignoring case.
 */
final class AttributeType {
  /** The USAGE of RFC 4512: user attributes, or one of three kinds of operational ones. */
  enum Usage { USER_APPLICATIONS, DIRECTORY_OPERATION, DISTRIBUTED_OPERATION, DSA_OPERATION }

  static final String DIRECTORY_STRING = "1.3.6.1.4.1.1466.115.121.1.15";

  final String oid;
  final List<String> names;
  final AttributeType sup;
  final MatchingRule equality;
  final MatchingRule ordering;
  final MatchingRule substr;
  final String syntax;
  final boolean singleValue;
  final boolean noUserModification;
  final Usage usage;
  final String definition;
  final boolean defined;
  /** The name (or OID) lower-cased: the key of the type in stored entries and DN keys. */
  final String key;
  /**
   * True for passwords ({@code userPassword}, {@code authPassword} and their subtypes): never
   * returned, matched or compared except for clients a rule lets manage the entry.
   */
  final boolean secret;

  AttributeType(String oid, List<String> names, AttributeType sup, MatchingRule equality,
      MatchingRule ordering, MatchingRule substr, String syntax, boolean singleValue,
      boolean noUserModification, Usage usage, String definition, boolean defined) {
    this.oid = oid;
    this.names = List.copyOf(names);
    this.sup = sup;
    this.equality = equality;
    this.ordering = ordering;
    this.substr = substr;
    this.syntax = syntax;
    this.singleValue = singleValue;
    this.noUserModification = noUserModification;
    this.usage = usage;
    this.definition = definition;
    this.defined = defined;
    this.key = oid.toLowerCase(Locale.ROOT);
    this.secret = hasName("userPassword") || hasName("authPassword")
        || (sup != null && sup.secret);
  }

  /** Returns a type for a name the schema does not define (permissive mode). */
  static AttributeType undefined(String name) {
    return new AttributeType(name.toLowerCase(Locale.ROOT), List.of(name), null,
        MatchingRules.CASE_IGNORE, MatchingRules.get("caseIgnoreOrderingMatch"),
        MatchingRules.get("caseIgnoreSubstringsMatch"), DIRECTORY_STRING, false, false,
        Usage.USER_APPLICATIONS, null, false);
  }

  /** The first name, or the OID if it has none. */
  String name() {
    return names.isEmpty() ? oid : names.get(0);
  }

  boolean isOperational() {
    return usage != Usage.USER_APPLICATIONS;
  }

  /**
   * True if this type is {@code other} or a subtype of it. Two undefined types of one name are
   * the same type: the schema does not keep every name a client makes up.
   */
  boolean isA(AttributeType other) {
    if (!defined) {
      return !other.defined && key.equals(other.key);
    }
    for (AttributeType t = this; t != null; t = t.sup) {
      if (t == other) {
        return true;
      }
    }
    return false;
  }

  /** True if this type has {@code name} (case ignored) as a name or as its OID. */
  boolean hasName(String name) {
    if (oid.equalsIgnoreCase(name)) {
      return true;
    }
    for (String n : names) {
      if (n.equalsIgnoreCase(name)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return name();
  }
}
