package dev.ferry.ldap.server;

import java.util.List;
import java.util.Set;

/**
 * An object class of the schema (RFC 4512 section 4.1.1), with the attributes it requires and
 * allows gathered from its superclasses.
 */
final class ObjectClass {
  /** The kind of RFC 4512 section 2.4. */
  enum Kind { ABSTRACT, STRUCTURAL, AUXILIARY }

  final String oid;
  final List<String> names;
  final List<ObjectClass> sups;
  final Kind kind;
  final Set<AttributeType> must;
  final Set<AttributeType> may;
  final String definition;

  ObjectClass(String oid, List<String> names, List<ObjectClass> sups, Kind kind,
      Set<AttributeType> must, Set<AttributeType> may, String definition) {
    this.oid = oid;
    this.names = List.copyOf(names);
    this.sups = List.copyOf(sups);
    this.kind = kind;
    this.must = Set.copyOf(must);
    this.may = Set.copyOf(may);
    this.definition = definition;
  }

  String name() {
    return names.isEmpty() ? oid : names.get(0);
  }

  /** True if this class is {@code other} or inherits from it. */
  boolean isA(ObjectClass other) {
    if (this == other) {
      return true;
    }
    for (ObjectClass s : sups) {
      if (s.isA(other)) {
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
