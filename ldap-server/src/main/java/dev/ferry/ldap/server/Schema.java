package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.server.SchemaText.Definition;
import dev.ferry.ldap.server.SchemaText.Description;
import dev.ferry.ldap.server.SchemaText.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A directory schema: attribute types and object classes (RFC 4512), read from OpenLDAP's
 * {@code .schema} files or from LDIF schema files ({@code cn=schema,cn=config} entries with
 * {@code olcAttributeTypes}, or a subschema entry with {@code attributeTypes}).
 *
 * <p>Every schema starts from Ferry's system schema: the operational attributes, and the types
 * and classes slapd builds in (objectClass, cn, name, description, uid, top, ...), so that
 * OpenLDAP's files load on top of it in the order slapd loads them:
 *
 * <pre>{@code
 * Schema schema = Schema.builder()
 *     .load(Path.of("/etc/ldap/schema/core.schema"))
 *     .load(Path.of("/etc/ldap/schema/cosine.schema"))
 *     .load(Path.of("/etc/ldap/schema/inetorgperson.schema"))
 *     .build();
 * }</pre>
 *
 * <p>{@link #standard()} adds Ferry's own definitions of the common RFC 4519, COSINE,
 * inetOrgPerson and NIS types and classes. Immutable and thread-safe.
 */
public final class Schema {
  private static final Schema SYSTEM = new Builder().loadResource("system.schema").build();
  private static final Schema STANDARD = SYSTEM.toBuilder().loadResource("standard.schema")
      .build();

  private final List<Definition> definitions;
  private final Map<String, AttributeType> types; // by lower-cased name and OID
  private final Map<String, ObjectClass> classes;
  private final List<AttributeType> typeList;
  private final List<ObjectClass> classList;
  private final Map<String, AttributeType> undefined = new ConcurrentHashMap<>();

  private Schema(List<Definition> definitions, Map<String, AttributeType> types,
      Map<String, ObjectClass> classes, List<AttributeType> typeList,
      List<ObjectClass> classList) {
    this.definitions = definitions;
    this.types = types;
    this.classes = classes;
    this.typeList = typeList;
    this.classList = classList;
  }

  /** Returns the system schema alone: the base OpenLDAP's schema files load onto. */
  public static Schema system() {
    return SYSTEM;
  }

  /** Returns the system schema with Ferry's standard user types and classes. */
  public static Schema standard() {
    return STANDARD;
  }

  /** Returns a builder that starts from the system schema. */
  public static Builder builder() {
    return SYSTEM.toBuilder();
  }

  /** Returns a builder holding this schema's definitions. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.definitions.addAll(definitions);
    return b;
  }

  /** Returns true if the schema defines an attribute type with this name or OID. */
  public boolean definesAttributeType(String nameOrOid) {
    return types.containsKey(nameOrOid.toLowerCase(Locale.ROOT));
  }

  /** Returns true if the schema defines an object class with this name or OID. */
  public boolean definesObjectClass(String nameOrOid) {
    return classes.containsKey(nameOrOid.toLowerCase(Locale.ROOT));
  }

  @Override
  public String toString() {
    return "Schema[" + typeList.size() + " attribute types, " + classList.size()
        + " object classes]";
  }

  // --- for the server --------------------------------------------------------------------------

  /**
   * Returns the attribute type of a description's type part; undefined types are made up (and
   * the first {@value #MAX_UNDEFINED} kept, so that names clients make up cannot fill memory).
   */
  AttributeType type(String nameOrOid) {
    String key = nameOrOid.toLowerCase(Locale.ROOT);
    AttributeType t = types.get(key);
    if (t != null) {
      return t;
    }
    t = undefined.get(key);
    if (t == null) {
      t = AttributeType.undefined(nameOrOid);
      if (undefined.size() < MAX_UNDEFINED) {
        undefined.putIfAbsent(key, t);
      }
    }
    return t;
  }

  private static final int MAX_UNDEFINED = 4096;

  /** Returns the defined type, or null. */
  AttributeType definedType(String nameOrOid) {
    return types.get(nameOrOid.toLowerCase(Locale.ROOT));
  }

  ObjectClass objectClass(String nameOrOid) {
    return classes.get(nameOrOid.toLowerCase(Locale.ROOT));
  }

  List<AttributeType> attributeTypes() {
    return typeList;
  }

  List<ObjectClass> objectClasses() {
    return classList;
  }

  /** Returns the OID of a named type, class or matching rule; other text lower-cased. */
  String oidOf(String nameOrOid) {
    String key = nameOrOid.toLowerCase(Locale.ROOT);
    AttributeType t = types.get(key);
    if (t != null) {
      return t.oid;
    }
    ObjectClass c = classes.get(key);
    if (c != null) {
      return c.oid;
    }
    MatchingRule r = MatchingRules.get(key);
    return r != null ? r.oid : key;
  }

  /**
   * Returns the key of a DN under this schema: RDNs from the root down, each a sorted list of
   * {@code type=value} with the type's OID and the value's equality key, so that DNs that name
   * the same entry (RFC 4517 distinguishedNameMatch) have equal keys. A subtree's keys all
   * start with its base's key followed by {@link #RDN_SEPARATOR}.
   */
  String normalize(Dn dn) {
    StringBuilder s = new StringBuilder(64);
    List<Dn.Rdn> rdns = dn.rdns();
    for (int i = rdns.size() - 1; i >= 0; i--) {
      if (s.length() > 0) {
        s.append(RDN_SEPARATOR);
      }
      rdn(s, rdns.get(i));
    }
    return s.toString();
  }

  /** Separates RDNs in a DN key; sorts below every character a key may hold otherwise. */
  static final char RDN_SEPARATOR = '\u0001';

  private void rdn(StringBuilder s, Dn.Rdn rdn) {
    if (rdn.avas().size() == 1) {
      ava(s, rdn.avas().get(0)); // the usual RDN: nothing to sort
      return;
    }
    List<String> avas = new ArrayList<>(rdn.avas().size());
    for (Dn.Ava ava : rdn.avas()) {
      StringBuilder a = new StringBuilder();
      ava(a, ava);
      avas.add(a.toString());
    }
    avas.sort(null);
    s.append(String.join("+", avas));
  }

  /** Appends {@code type=value} with the type's OID and the value's equality key. */
  private void ava(StringBuilder s, Dn.Ava ava) {
    AttributeType t = type(ava.type());
    s.append(t.key).append('=');
    Object key = t.equality == null ? null : t.equality.key(ava.value(), this);
    escape(s, key instanceof String str ? str : key != null ? key.toString()
        : "#" + ava.value().hex());
  }

  private static void escape(StringBuilder out, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\', '+', '=' -> out.append('\\').append(c);
        case '\u0000', '\u0001', '\u0002' -> out.append('\\').append((int) c);
        default -> out.append(c);
      }
    }
  }

  /** Returns the subschema subentry's attribute values, as definitions were written. */
  List<Attribute> subschemaAttributes() {
    List<ByteString> at = new ArrayList<>();
    for (AttributeType t : typeList) {
      at.add(ByteString.encodeUtf8(t.definition));
    }
    List<ByteString> oc = new ArrayList<>();
    for (ObjectClass c : classList) {
      oc.add(ByteString.encodeUtf8(c.definition));
    }
    List<ByteString> mr = new ArrayList<>();
    for (MatchingRule r : MatchingRules.all()) {
      mr.add(ByteString.encodeUtf8("( " + r.oid + " NAME '" + r.name + "' )"));
    }
    return List.of(new Attribute("attributeTypes", at), new Attribute("objectClasses", oc),
        new Attribute("matchingRules", mr));
  }

  /** Builds a {@link Schema} from definitions; {@link #build()} checks every reference. */
  public static final class Builder {
    private final List<Definition> definitions = new ArrayList<>();

    private Builder() {}

    /**
     * Adds the definitions of a file: LDIF if its name ends in {@code .ldif}, else OpenLDAP's
     * {@code .schema} form.
     *
     * @throws IOException if it cannot be read or is not LDIF
     * @throws IllegalArgumentException naming the file and line of a malformed definition
     */
    public Builder load(Path file) throws IOException {
      String name = file.toString();
      if (name.endsWith(".ldif")) {
        try (InputStream in = Files.newInputStream(file)) {
          return ldif(in, name);
        }
      }
      return openLdap(Files.readString(file, StandardCharsets.UTF_8), name);
    }

    /** Adds definitions written as in an OpenLDAP {@code .schema} file. */
    public Builder openLdap(String text, String origin) {
      definitions.addAll(SchemaText.openLdapFile(text, origin));
      return this;
    }

    /** Adds the definitions held by the entries of an LDIF schema file. */
    public Builder ldif(InputStream in, String origin) throws IOException {
      for (LdifRecord r : LdifReader.of(in).readAll()) {
        if (r instanceof LdifRecord.Entry e) {
          entry(e, origin);
        }
      }
      return this;
    }

    private void entry(LdifRecord.Entry e, String origin) {
      for (Attribute a : e.attributes()) {
        Kind kind = SchemaText.ldifKind(a.description());
        if (kind == null) {
          continue;
        }
        for (ByteString v : a.values()) {
          // cn=config numbers its values: "{3}( 2.5.4.3 ..."
          String text = v.utf8().replaceFirst("^\\{\\d+\\}", "");
          definitions.add(new Definition(kind, text.strip(), origin + " " + e.dn()));
        }
      }
    }

    private Builder loadResource(String name) {
      try (InputStream in = Schema.class.getResourceAsStream(name)) {
        return openLdap(new String(Objects.requireNonNull(in, name).readAllBytes(),
            StandardCharsets.UTF_8), name);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /**
     * Resolves every name and returns the schema.
     *
     * @throws IllegalArgumentException if a definition is malformed, defines an OID or name
     *     twice, or refers to a type or class that is not defined, naming it and its origin
     */
    public Schema build() {
      return new Resolver(definitions).resolve();
    }
  }

  /** Turns definitions into types and classes, supertypes first. */
  private static final class Resolver {
    private final List<Definition> definitions;
    private final Map<String, String> macros = new HashMap<>();
    private final Map<String, Description> typeDescriptions = new LinkedHashMap<>();
    private final Map<String, Description> classDescriptions = new LinkedHashMap<>();
    private final Map<String, String> origins = new HashMap<>();
    private final Map<String, String> names = new HashMap<>(); // lower name or OID -> OID
    private final Map<String, AttributeType> types = new HashMap<>();
    private final Map<String, ObjectClass> classes = new HashMap<>();
    private final Set<String> resolving = new HashSet<>();

    Resolver(List<Definition> definitions) {
      this.definitions = List.copyOf(definitions);
    }

    Schema resolve() {
      for (Definition d : definitions) {
        read(d);
      }
      List<AttributeType> typeList = new ArrayList<>();
      for (String oid : typeDescriptions.keySet()) {
        typeList.add(type(oid));
      }
      List<ObjectClass> classList = new ArrayList<>();
      for (String oid : classDescriptions.keySet()) {
        classList.add(objectClass(oid));
      }
      Map<String, AttributeType> byName = new HashMap<>();
      for (AttributeType t : typeList) {
        byName.put(t.key, t);
        for (String n : t.names) {
          byName.put(n.toLowerCase(Locale.ROOT), t);
        }
      }
      Map<String, ObjectClass> classByName = new HashMap<>();
      for (ObjectClass c : classList) {
        classByName.put(c.oid, c);
        for (String n : c.names) {
          classByName.put(n.toLowerCase(Locale.ROOT), c);
        }
      }
      return new Schema(definitions, Map.copyOf(byName), Map.copyOf(classByName),
          List.copyOf(typeList), List.copyOf(classList));
    }

    private void read(Definition d) {
      if (d.kind() == Kind.IGNORED) {
        return;
      }
      if (d.kind() == Kind.OBJECT_IDENTIFIER) {
        String[] words = d.text().split("\\s+");
        if (words.length != 2) {
          throw new IllegalArgumentException(d.origin() + ": objectidentifier needs a name and"
              + " an OID: " + d.text());
        }
        macros.put(words[0].toLowerCase(Locale.ROOT), SchemaText.expand(words[1], macros));
        return;
      }
      Description desc;
      try {
        desc = SchemaText.parse(d.text(), macros);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(d.origin() + ": " + e.getMessage(), e);
      }
      Map<String, Description> target = d.kind() == Kind.ATTRIBUTE_TYPE ? typeDescriptions
          : classDescriptions;
      if (target.containsKey(desc.oid())) {
        throw new IllegalArgumentException(d.origin() + ": " + desc.oid()
            + " is already defined (" + origins.get(desc.oid()) + ")");
      }
      target.put(desc.oid(), desc);
      origins.put(desc.oid(), d.origin());
      String space = d.kind() == Kind.ATTRIBUTE_TYPE ? "type:" : "class:";
      names.put(space + desc.oid().toLowerCase(Locale.ROOT), desc.oid());
      for (String n : desc.values("NAME")) {
        String previous = names.put(space + n.toLowerCase(Locale.ROOT), desc.oid());
        if (previous != null && !previous.equals(desc.oid())) {
          throw new IllegalArgumentException(d.origin() + ": name '" + n
              + "' is already defined (" + origins.get(previous) + ")");
        }
      }
    }

    private String oid(String space, String nameOrOid, String from) {
      String oid = names.get(space + nameOrOid.toLowerCase(Locale.ROOT));
      if (oid == null) {
        throw new IllegalArgumentException(origins.get(from) + ": " + from + " refers to "
            + (space.equals("type:") ? "attribute type" : "object class") + " '" + nameOrOid
            + "', which is not defined");
      }
      return oid;
    }

    private AttributeType type(String oid) {
      AttributeType done = types.get(oid);
      if (done != null) {
        return done;
      }
      if (!resolving.add(oid)) {
        throw new IllegalArgumentException(origins.get(oid) + ": " + oid
            + " is its own supertype");
      }
      Description d = typeDescriptions.get(oid);
      String supName = d.value("SUP");
      AttributeType sup = supName == null ? null : type(oid("type:", supName, oid));
      String syntax = d.value("SYNTAX");
      if (syntax != null) {
        int brace = syntax.indexOf('{');
        syntax = brace < 0 ? syntax : syntax.substring(0, brace);
      } else if (sup != null) {
        syntax = sup.syntax;
      } else {
        throw new IllegalArgumentException(origins.get(oid) + ": " + oid
            + " has neither SYNTAX nor SUP");
      }
      AttributeType t = new AttributeType(oid, d.values("NAME"), sup,
          rule(d, "EQUALITY", sup == null ? null : sup.equality),
          rule(d, "ORDERING", sup == null ? null : sup.ordering),
          rule(d, "SUBSTR", sup == null ? null : sup.substr), syntax, d.has("SINGLE-VALUE"),
          d.has("NO-USER-MODIFICATION"), usage(d), d.text(), true);
      types.put(oid, t);
      resolving.remove(oid);
      return t;
    }

    private static MatchingRule rule(Description d, String key, MatchingRule inherited) {
      String name = d.value(key);
      return name == null ? inherited : MatchingRules.orOctetString(name);
    }

    private static AttributeType.Usage usage(Description d) {
      String u = d.value("USAGE");
      if (u == null) {
        return AttributeType.Usage.USER_APPLICATIONS;
      }
      return switch (u.toLowerCase(Locale.ROOT)) {
        case "userapplications" -> AttributeType.Usage.USER_APPLICATIONS;
        case "directoryoperation" -> AttributeType.Usage.DIRECTORY_OPERATION;
        case "distributedoperation" -> AttributeType.Usage.DISTRIBUTED_OPERATION;
        case "dsaoperation" -> AttributeType.Usage.DSA_OPERATION;
        default -> throw new IllegalArgumentException("unknown USAGE " + u + " in " + d.text());
      };
    }

    private ObjectClass objectClass(String oid) {
      ObjectClass done = classes.get(oid);
      if (done != null) {
        return done;
      }
      if (!resolving.add(oid)) {
        throw new IllegalArgumentException(origins.get(oid) + ": " + oid
            + " is its own superclass");
      }
      Description d = classDescriptions.get(oid);
      List<ObjectClass> sups = new ArrayList<>();
      Set<AttributeType> must = new LinkedHashSet<>();
      Set<AttributeType> may = new LinkedHashSet<>();
      for (String s : d.values("SUP")) {
        ObjectClass sup = objectClass(oid("class:", s, oid));
        sups.add(sup);
        must.addAll(sup.must);
        may.addAll(sup.may);
      }
      must.addAll(attributes(d.values("MUST"), oid));
      may.addAll(attributes(d.values("MAY"), oid));
      ObjectClass.Kind kind = d.has("ABSTRACT") ? ObjectClass.Kind.ABSTRACT
          : d.has("AUXILIARY") ? ObjectClass.Kind.AUXILIARY : ObjectClass.Kind.STRUCTURAL;
      ObjectClass c = new ObjectClass(oid, d.values("NAME"), sups, kind, must, may, d.text());
      classes.put(oid, c);
      resolving.remove(oid);
      return c;
    }

    private Collection<AttributeType> attributes(List<String> names, String from) {
      List<AttributeType> out = new ArrayList<>(names.size());
      for (String n : names) {
        out.add(type(oid("type:", n, from)));
      }
      return out;
    }
  }
}
