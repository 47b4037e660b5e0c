package dev.ferry.ldap.server;

import java.util.ArrayList;
import java.util.List;

/**
 * The attributes a search asked for (RFC 4511 section 4.5.1.8): none listed or {@code *} for
 * every user attribute, {@code +} for every operational one (RFC 3673), {@code 1.1} for none,
 * and names, which also select their subtypes ({@code name} selects {@code cn}) and, without
 * options, every option of the type.
 */
final class Selection {
  static final String HAS_SUBORDINATES = "hassubordinates";

  final boolean allUser;
  final boolean allOperational;
  private final AttributeType[] types;
  private final String[] options;
  final boolean hasSubordinates;

  private Selection(boolean allUser, boolean allOperational, AttributeType[] types,
      String[] options, boolean hasSubordinates) {
    this.allUser = allUser;
    this.allOperational = allOperational;
    this.types = types;
    this.options = options;
    this.hasSubordinates = hasSubordinates;
  }

  static Selection of(List<String> attributes, Schema schema) {
    boolean allUser = attributes.isEmpty();
    boolean allOperational = false;
    boolean hasSubordinates = false;
    List<AttributeType> types = new ArrayList<>();
    List<String> options = new ArrayList<>();
    for (String a : attributes) {
      switch (a) {
        case "*" -> allUser = true;
        case "+" -> allOperational = true;
        case "1.1" -> { }
        default -> {
          AttributeType t = schema.definedType(StoredAttribute.typeName(a));
          if (t == null) {
            t = schema.type(StoredAttribute.typeName(a)); // permissive: stored as undefined
          }
          hasSubordinates |= t.hasName(HAS_SUBORDINATES);
          types.add(t);
          options.add(StoredAttribute.options(a));
        }
      }
    }
    return new Selection(allUser, allOperational, types.toArray(AttributeType[]::new),
        options.toArray(String[]::new), hasSubordinates || allOperational);
  }

  /** True if the search returns exactly the user attributes, as stored. */
  boolean isAllUserAttributes() {
    return allUser && !allOperational && !hasSubordinates && !namesOperational();
  }

  private boolean namesOperational() {
    for (AttributeType t : types) {
      if (t.isOperational()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Returns attribute {@code i} of {@code e} if it is asked for, or null; a password only if
   * the client may see it. An attribute whose type is not asked for is not read.
   */
  StoredAttribute selects(StoredEntry e, int i, boolean secrets) {
    AttributeType type = e.type(i);
    if (type.secret && !secrets) {
      return null;
    }
    if (type.isOperational() ? allOperational : allUser) {
      return e.attribute(i);
    }
    for (int j = 0; j < types.length; j++) {
      if (type.isA(types[j])) {
        StoredAttribute a = e.attribute(i);
        if (a.hasOptions(options[j])) {
          return a;
        }
      }
    }
    return null;
  }
}
