package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.ResultCode;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Makes stored entries from what clients send: merges attributes of one type and options,
 * refuses duplicate values and values of attributes no user may set, checks that the RDN's
 * values are in the entry, runs the schema check, and adds the operational attributes the
 * server keeps (RFC 4512 section 3.4, RFC 4530, RFC 5020).
 */
final class EntryFactory {
  static final String SUBSCHEMA_DN = "cn=Subschema";
  private static final DateTimeFormatter TIME = DateTimeFormatter
      .ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC);
  /** Operational attributes the server sets itself, in the order it writes them. */
  private static final List<String> KEPT = List.of("structuralObjectClass", "entryUUID",
      "creatorsName", "createTimestamp", "modifiersName", "modifyTimestamp", "entryDN",
      "subschemaSubentry");

  final Schema schema;
  private final SchemaChecker checker; // null in permissive mode
  private final Clock clock;
  private final Passwords passwords;

  EntryFactory(Schema schema, SchemaChecker checker, Clock clock, Passwords passwords) {
    this.schema = schema;
    this.checker = checker;
    this.clock = clock;
    this.passwords = passwords;
  }

  boolean isChecking() {
    return checker != null;
  }

  /** A mutable attribute while an entry is being made or changed. */
  static final class Draft {
    final AttributeType type;
    final String description;
    final String options;
    final List<ByteString> values = new ArrayList<>();
    final List<Object> keys = new ArrayList<>();

    Draft(AttributeType type, String description) {
      this.type = type;
      this.description = description;
      this.options = StoredAttribute.options(description);
    }

    String id() {
      return type.key + options;
    }

    /** Returns the index of a value equal under the type's equality rule, or -1. */
    int indexOf(ByteString value, Object key) {
      for (int i = 0; i < values.size(); i++) {
        Object k = keys.get(i);
        if (key != null ? key.equals(k) : values.get(i).equals(value)) {
          return i;
        }
      }
      return -1;
    }

    void add(ByteString value, Object key) {
      values.add(value);
      keys.add(key);
    }

    void remove(int index) {
      values.remove(index);
      keys.remove(index);
    }
  }

  /**
   * Returns the form a value is stored in: a password hashed ({@link Passwords#stored}); a DN
   * as {@link #pretty(Dn)} makes it, as slapd keeps DNs; any other value as given.
   */
  ByteString pretty(AttributeType type, ByteString value) {
    if (type.secret) {
      return passwords.stored(value);
    }
    if (!DN_SYNTAX.equals(type.syntax)) {
      return value;
    }
    try {
      return ByteString.encodeUtf8(pretty(Dn.parse(value.utf8())).toString());
    } catch (IllegalArgumentException e) {
      return value; // not a DN: the schema check, if any, refuses it
    }
  }

  /**
   * Returns a DN in the form it is stored and returned in: each type by the name the schema
   * gives it first ({@code CN} and {@code commonName} become {@code cn}), values as written,
   * and {@link Dn#toString()}'s RFC 4514 layout (no spaces around separators).
   */
  Dn pretty(Dn dn) {
    List<Dn.Rdn> rdns = new ArrayList<>(dn.rdns().size());
    for (Dn.Rdn rdn : dn.rdns()) {
      List<Dn.Ava> avas = new ArrayList<>(rdn.avas().size());
      for (Dn.Ava ava : rdn.avas()) {
        AttributeType t = schema.type(ava.type());
        avas.add(new Dn.Ava(t.defined ? t.name() : ava.type(), ava.value(), ava.berEncoded()));
      }
      rdns.add(new Dn.Rdn(avas));
    }
    return new Dn(rdns);
  }

  private static final String DN_SYNTAX = "1.3.6.1.4.1.1466.115.121.1.12";

  /** Returns a value's equality key (null when there is no rule or it cannot be read). */
  Object key(AttributeType type, ByteString value) {
    return type.equality == null ? null : type.equality.key(value, schema);
  }

  /** Returns the type of a description, failing in schema mode if it is not defined. */
  AttributeType type(String description) throws OperationException {
    String name = StoredAttribute.typeName(description);
    if (checker == null) {
      return schema.type(name);
    }
    AttributeType t = schema.definedType(name);
    if (t == null) {
      throw new OperationException(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, name
          + ": attribute type undefined");
    }
    return t;
  }

  /**
   * Returns the description an attribute is stored and returned under: the type's first name
   * and the options as written, as slapd does ({@code commonName;lang-en} is kept as
   * {@code cn;lang-en}); a type the schema does not define keeps the name it was given.
   */
  static String canonical(AttributeType t, String description) {
    if (!t.defined) {
      return description;
    }
    int semi = description.indexOf(';');
    return semi < 0 ? t.name() : t.name() + description.substring(semi);
  }

  /**
   * Merges a client's attributes into drafts, in the order first seen.
   *
   * @param imported true for entries loaded at start, which may carry operational attributes
   */
  Map<String, Draft> drafts(List<Attribute> attributes, boolean imported)
      throws OperationException {
    Map<String, Draft> drafts = new LinkedHashMap<>();
    for (Attribute a : attributes) {
      AttributeType t = type(a.description());
      if (t.noUserModification && !imported) {
        throw new OperationException(ResultCode.CONSTRAINT_VIOLATION, a.description()
            + ": no user modification allowed");
      }
      if (a.size() == 0) {
        throw new OperationException(ResultCode.PROTOCOL_ERROR, a.description()
            + ": no values for attribute type");
      }
      Draft d = drafts.computeIfAbsent(t.key + StoredAttribute.options(a.description()),
          k -> new Draft(t, canonical(t, a.description())));
      for (int i = 0; i < a.size(); i++) {
        ByteString v = pretty(t, a.value(i));
        Object key = key(t, v);
        if (d.indexOf(v, key) >= 0) {
          throw new OperationException(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, a.description()
              + ": value #" + i + " provided more than once");
        }
        d.add(v, key);
      }
    }
    return drafts;
  }

  /** Makes a new entry: the client's attributes, checked, and fresh operational ones. */
  StoredEntry create(Dn dn, List<Attribute> attributes, String creator, boolean imported)
      throws OperationException {
    Map<String, Draft> drafts = drafts(attributes, imported);
    checkRdn(dn, drafts);
    String now = TIME.format(clock.instant());
    Map<String, List<ByteString>> ops = new LinkedHashMap<>();
    ops.put("entryUUID", List.of(ByteString.encodeUtf8(UUID.randomUUID().toString())));
    ops.put("creatorsName", List.of(ByteString.encodeUtf8(creator)));
    ops.put("createTimestamp", List.of(ByteString.encodeUtf8(now)));
    ops.put("modifiersName", List.of(ByteString.encodeUtf8(creator)));
    ops.put("modifyTimestamp", List.of(ByteString.encodeUtf8(now)));
    return build(pretty(dn), drafts, ops);
  }

  /**
   * Makes the changed entry for {@code old}, keeping its creation attributes and setting the
   * modification ones; {@code drafts} are the user attributes after the change.
   */
  StoredEntry change(StoredEntry old, Dn dn, Map<String, Draft> drafts, String modifier)
      throws OperationException {
    checkRdn(dn, drafts);
    Map<String, List<ByteString>> ops = new LinkedHashMap<>();
    for (int i = old.userCount; i < old.attributeCount(); i++) {
      StoredAttribute a = old.attribute(i);
      ops.put(a.description(), a.valueList());
    }
    ops.put("modifiersName", List.of(ByteString.encodeUtf8(modifier)));
    ops.put("modifyTimestamp", List.of(ByteString.encodeUtf8(TIME.format(clock.instant()))));
    return build(pretty(dn), drafts, ops);
  }

  /** Returns the user attributes of a stored entry as drafts, to change them. */
  Map<String, Draft> drafts(StoredEntry e) {
    Map<String, Draft> drafts = new LinkedHashMap<>();
    for (int i = 0; i < e.userCount; i++) {
      StoredAttribute a = e.attribute(i);
      Draft d = new Draft(a.type, a.description());
      ByteString[] values = a.values();
      for (int j = 0; j < values.length; j++) {
        d.add(values[j], a.key(j));
      }
      drafts.put(d.id(), d);
    }
    return drafts;
  }

  private StoredEntry build(Dn dn, Map<String, Draft> drafts,
      Map<String, List<ByteString>> given) throws OperationException {
    String structural = checker == null ? checker0(drafts) : checker.check(dn, drafts);
    List<StoredEntry.Spec> user = new ArrayList<>();
    Map<String, List<ByteString>> ops = new LinkedHashMap<>();
    for (Draft d : drafts.values()) {
      if (d.type.isOperational()) {
        ops.put(d.description, d.values); // imported: keep what the file says
      } else if (!d.values.isEmpty()) {
        user.add(new StoredEntry.Spec(d.type, d.description, List.copyOf(d.values)));
      }
    }
    if (structural != null) {
      given.put("structuralObjectClass", List.of(ByteString.encodeUtf8(structural)));
    }
    given.put("entryDN", List.of(ByteString.encodeUtf8(dn.toString())));
    given.put("subschemaSubentry", List.of(ByteString.encodeUtf8(SUBSCHEMA_DN)));
    for (Map.Entry<String, List<ByteString>> g : given.entrySet()) {
      ops.putIfAbsent(g.getKey(), g.getValue());
    }
    return StoredEntry.encode(dn, user, operational(ops), schema);
  }

  /** Without a schema check, the structural class is named only if the schema knows one. */
  private String checker0(Map<String, Draft> drafts) {
    Draft oc = drafts.get(schema.type("objectClass").key);
    if (oc == null) {
      return null;
    }
    ObjectClass best = null;
    for (ByteString v : oc.values) {
      ObjectClass c = schema.objectClass(v.utf8().strip());
      if (c != null && c.kind == ObjectClass.Kind.STRUCTURAL && (best == null || c.isA(best))) {
        best = c;
      }
    }
    return best == null ? null : best.name();
  }

  private List<StoredEntry.Spec> operational(Map<String, List<ByteString>> ops) {
    List<StoredEntry.Spec> out = new ArrayList<>();
    for (String name : KEPT) {
      List<ByteString> v = remove(ops, name);
      if (v != null) {
        out.add(new StoredEntry.Spec(schema.type(name), name, v));
      }
    }
    for (Map.Entry<String, List<ByteString>> e : ops.entrySet()) {
      out.add(new StoredEntry.Spec(schema.type(StoredAttribute.typeName(e.getKey())),
          e.getKey(), e.getValue()));
    }
    return out;
  }

  private static List<ByteString> remove(Map<String, List<ByteString>> ops, String name) {
    for (var it = ops.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, List<ByteString>> e = it.next();
      if (e.getKey().equalsIgnoreCase(name)) {
        List<ByteString> v = e.getValue();
        it.remove();
        return v;
      }
    }
    return null;
  }

  /** The RDN's values must be values of the entry (RFC 4512 section 2.3.1). */
  void checkRdn(Dn dn, Map<String, Draft> drafts) throws OperationException {
    if (dn.isRoot()) {
      return;
    }
    for (Dn.Ava ava : dn.rdns().get(0).avas()) {
      AttributeType t = type(ava.type());
      Draft d = drafts.get(t.key);
      if (d == null || d.indexOf(ava.value(), key(t, ava.value())) < 0) {
        throw new OperationException(ResultCode.NAMING_VIOLATION, "value of naming attribute '"
            + ava.type() + "' is not present in entry");
      }
    }
  }

  /** Returns the entry with a new DN (its subtree moved or renamed), all else kept. */
  StoredEntry moved(StoredEntry e, Dn dn) {
    dn = pretty(dn);
    List<StoredEntry.Spec> ops = new ArrayList<>();
    for (StoredEntry.Spec s : e.specs(true)) {
      ops.add(s.type().hasName("entryDN") ? new StoredEntry.Spec(s.type(), s.description(),
          List.of(ByteString.encodeUtf8(dn.toString()))) : s);
    }
    return StoredEntry.encode(dn, e.specs(false), ops, schema);
  }
}
