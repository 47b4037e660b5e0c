package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.server.EntryFactory.Draft;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The schema check of an entry about to be stored (RFC 4512 sections 2.4 and 2.5): defined
 * object classes with one structural chain, every attribute the classes require, no attribute
 * they do not allow (unless {@code extensibleObject}), one value for single-valued types, and
 * values valid in their syntax. Messages follow slapd's wording.
 */
final class SchemaChecker {
  private final Schema schema;

  SchemaChecker(Schema schema) {
    this.schema = schema;
  }

  /** Checks the entry's user attributes; returns the name of its structural object class. */
  String check(Dn dn, Map<String, Draft> drafts) throws OperationException {
    AttributeType objectClass = schema.type("objectClass");
    Draft oc = drafts.get(objectClass.key);
    if (oc == null || oc.values.isEmpty()) {
      throw new OperationException(ResultCode.OBJECT_CLASS_VIOLATION,
          "no objectClass attribute");
    }
    List<ObjectClass> classes = classes(oc);
    ObjectClass structural = structural(classes);
    Set<AttributeType> allowed = new HashSet<>();
    boolean extensible = false;
    for (ObjectClass c : classes) {
      extensible |= c.names.stream().anyMatch(n -> n.equalsIgnoreCase("extensibleObject"));
      allowed.addAll(c.must);
      allowed.addAll(c.may);
      for (AttributeType t : c.must) {
        if (!present(drafts, t)) {
          throw new OperationException(ResultCode.OBJECT_CLASS_VIOLATION, "object class '"
              + c.name() + "' requires attribute '" + t.name() + "'");
        }
      }
    }
    for (Draft d : drafts.values()) {
      checkAttribute(d, allowed, extensible);
    }
    return structural.name();
  }

  private List<ObjectClass> classes(Draft oc) throws OperationException {
    List<ObjectClass> classes = new ArrayList<>();
    for (ByteString v : oc.values) {
      ObjectClass c = schema.objectClass(v.utf8().strip());
      if (c == null) {
        throw new OperationException(ResultCode.OBJECT_CLASS_VIOLATION, "unrecognized"
            + " objectClass '" + v.utf8() + "'");
      }
      classes.add(c);
    }
    return classes;
  }

  private static ObjectClass structural(List<ObjectClass> classes) throws OperationException {
    ObjectClass best = null;
    for (ObjectClass c : classes) {
      if (c.kind != ObjectClass.Kind.STRUCTURAL) {
        continue;
      }
      if (best == null || c.isA(best)) {
        best = c;
      } else if (!best.isA(c)) {
        throw new OperationException(ResultCode.OBJECT_CLASS_VIOLATION,
            "invalid structural object class chain (" + best.name() + "/" + c.name() + ")");
      }
    }
    if (best == null) {
      throw new OperationException(ResultCode.OBJECT_CLASS_VIOLATION,
          "no structural object class provided");
    }
    return best;
  }

  private static boolean present(Map<String, Draft> drafts, AttributeType t) {
    for (Draft d : drafts.values()) {
      if (d.type == t && !d.values.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static void checkAttribute(Draft d, Set<AttributeType> allowed, boolean extensible)
      throws OperationException {
    if (d.values.isEmpty()) {
      return;
    }
    if (!d.type.isOperational() && !extensible && !allowed.contains(d.type)) {
      throw new OperationException(ResultCode.OBJECT_CLASS_VIOLATION, "attribute '"
          + d.description + "' not allowed");
    }
    if (d.type.singleValue && d.values.size() > 1) {
      throw new OperationException(ResultCode.CONSTRAINT_VIOLATION, "attribute '"
          + d.description + "' cannot have multiple values");
    }
    for (int i = 0; i < d.values.size(); i++) {
      if (!Syntaxes.isValid(d.type.syntax, d.values.get(i))) {
        throw new OperationException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, d.description
            + ": value #" + i + " invalid per syntax");
      }
    }
  }
}
