package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Filter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The directory's indexes, per attribute type as configured ({@link LdapServer.Builder#index}),
 * and the planning of a filter over them ({@link #plan}). Each index files the ids of the
 * entries that have a value under an index key ({@link IndexKeys}): an equality key
 * (objectClass values also under every superclass, as filters match subclasses), presence,
 * pieces of substring text ({@link #valueGrams}), or an ordering key,
 * whose bytes order as the ordering rule orders values. The postings live in the directory's
 * {@link Store}, changed in the same write as the entries.
 *
 * <p>An index on a type covers its subtypes' values ({@code name} covers {@code cn}) and every
 * option. Passwords are never indexed. Searches check every candidate with the whole filter,
 * so an entry caught between its old and new postings (in memory) is still answered right.
 */
final class Indexes {
  /** Anchors of substring text: characters string preparation never leaves in a value. */
  private static final char START = '\u0002';
  private static final char END = '\u0003';
  /**
   * Characters of a substring key. Four, as slapd's default {@code olcIndexSubstrAnyLen}: a
   * piece of three characters names thousands of entries where one of four names tens, and a
   * search walks the postings of its keys.
   */
  private static final int GRAM = 4;
  /** The key scheme, in {@link #description}: a store of another is indexed again. */
  private static final String KEYS = "keys 2";
  /** Distinct ordering keys an or merges as it goes; a wider range is gathered, or not used. */
  private static final int MERGED_RANGE_KEYS = 256;

  private final Schema schema;
  private final Map<AttributeType, Index> indexes;
  private final String description;

  private record Index(AttributeType type, Set<IndexType> kinds, byte[] equality,
      byte[] presence, byte[] substring, byte[] ordering) {
    Index(AttributeType type, Set<IndexType> kinds) {
      this(type, kinds, IndexKeys.prefix(type, IndexKeys.EQUALITY),
          IndexKeys.prefix(type, IndexKeys.PRESENCE), IndexKeys.prefix(type, IndexKeys.SUBSTRING),
          IndexKeys.prefix(type, IndexKeys.ORDERING));
    }
  }

  /**
   * @throws IllegalArgumentException for an index on a password, or an index its type has no
   *     rule for (ordering without an ordering rule, substring without a substring rule)
   */
  Indexes(Schema schema, Map<String, Set<IndexType>> config) {
    this.schema = schema;
    Map<AttributeType, Index> out = new LinkedHashMap<>();
    for (Map.Entry<String, Set<IndexType>> c : config.entrySet()) {
      AttributeType t = schema.type(c.getKey());
      Set<IndexType> kinds = EnumSet.copyOf(c.getValue());
      check(t, kinds);
      Index old = out.get(t);
      if (old != null) {
        kinds.addAll(old.kinds);
      }
      out.put(t, new Index(t, kinds));
    }
    this.indexes = Map.copyOf(out);
    List<String> d = new ArrayList<>();
    for (Index x : out.values()) {
      d.add(x.type.oid + " " + new TreeSet<>(x.kinds));
    }
    d.sort(null);
    this.description = KEYS + ": " + String.join(", ", d);
  }

  private static void check(AttributeType t, Set<IndexType> kinds) {
    if (t.secret) {
      throw new IllegalArgumentException(t + ": passwords are not indexed");
    }
    if (t.hasName(Selection.HAS_SUBORDINATES)) {
      throw new IllegalArgumentException(t + " is computed for each search, not stored");
    }
    if (kinds.contains(IndexType.EQUALITY) && t.equality == null) {
      throw new IllegalArgumentException(t + " has no equality rule to index by");
    }
    if (kinds.contains(IndexType.ORDERING) && t.ordering == null) {
      throw new IllegalArgumentException(t + " has no ordering rule to index by");
    }
    if (kinds.contains(IndexType.SUBSTRING) && (t.substr == null
        || !t.substr.isSubstringRule())) {
      throw new IllegalArgumentException(t + " has no substrings rule to index by");
    }
  }

  boolean isEmpty() {
    return indexes.isEmpty();
  }

  /** What is indexed, the same text for the same configuration: a store keeps it. */
  String description() {
    return description;
  }

  // --- upkeep ----------------------------------------------------------------------------------

  /** Files {@code e}, whose id is {@code id}, under each of its index keys. */
  void add(Store.Write w, StoredEntry e, long id) {
    for (ByteString k : keys(e)) {
      w.post(k, id);
    }
  }

  void remove(Store.Write w, StoredEntry e, long id) {
    for (ByteString k : keys(e)) {
      w.unpost(k, id);
    }
  }

  /**
   * Files {@code e} in place of {@code old}, an entry of the same key and id: only the
   * postings that differ are changed (a modify of one attribute leaves the others' postings
   * alone, and a search never misses the entry under a key it kept).
   */
  void replace(Store.Write w, StoredEntry old, StoredEntry e, long id) {
    Set<ByteString> before = keys(old);
    Set<ByteString> after = keys(e);
    for (ByteString k : before) {
      if (!after.contains(k)) {
        w.unpost(k, id);
      }
    }
    for (ByteString k : after) {
      if (!before.contains(k)) {
        w.post(k, id);
      }
    }
  }

  /** Files every entry of the store again, after dropping every posting. */
  void reindex(Store.Write w) {
    w.clearPostings();
    for (Iterator<StoredEntry> it = w.entries(null, true, null); it.hasNext(); ) {
      StoredEntry e = it.next();
      add(w, e, w.id(e.key));
    }
  }

  /** Every index key under which {@code e} is filed, each once. */
  Set<ByteString> keys(StoredEntry e) {
    Set<ByteString> out = new LinkedHashSet<>();
    for (Index x : indexes.values()) {
      keys(x, e, out);
    }
    return out;
  }

  private void keys(Index x, StoredEntry e, Set<ByteString> out) {
    boolean seen = false;
    for (int i = 0; i < e.attributeCount(); i++) { // operational ones too (entryUUID)
      AttributeType type = e.type(i);
      if (type.secret || !type.isA(x.type)) {
        continue;
      }
      seen = true;
      for (ByteString v : e.attribute(i).values()) {
        if (x.kinds.contains(IndexType.EQUALITY)) {
          for (Object k : equalityKeys(x.type, v)) {
            out.add(IndexKeys.of(x.equality, k));
          }
        }
        if (x.kinds.contains(IndexType.SUBSTRING)
            && x.type.substr.key(v, schema) instanceof String text) {
          valueGrams(START + text + END, g -> out.add(IndexKeys.of(x.substring, g)));
        }
        if (x.kinds.contains(IndexType.ORDERING)) {
          Object k = x.type.ordering.key(v, schema);
          if (k != null) {
            out.add(IndexKeys.of(x.ordering, k));
          }
        }
      }
    }
    if (seen && x.kinds.contains(IndexType.PRESENCE)) {
      out.add(IndexKeys.of(x.presence));
    }
  }

  /** A value's equality key; for objectClass also its superclasses', as filters match them. */
  private List<Object> equalityKeys(AttributeType t, ByteString v) {
    Object k = t.equality.key(v, schema);
    if (k == null) {
      return List.of();
    }
    if (!t.hasName("objectClass") || !(k instanceof String oid)) {
      return List.of(k);
    }
    List<Object> keys = new ArrayList<>(List.of(k));
    ObjectClass c = schema.objectClass(oid);
    if (c != null) {
      superclasses(c, keys);
    }
    return keys;
  }

  private static void superclasses(ObjectClass c, List<Object> into) {
    for (ObjectClass s : c.sups) {
      if (!into.contains(s.oid)) {
        into.add(s.oid);
        superclasses(s, into);
      }
    }
  }

  /**
   * The substring keys of a value's anchored text: every {@value #GRAM} characters, and its
   * first and last one and two characters with their anchor, for the initial and final pieces
   * shorter than a key ({@code (uid=u1*)}, {@code (uid=*99)}).
   */
  static Set<String> valueGrams(String anchored) {
    Set<String> out = new LinkedHashSet<>();
    valueGrams(anchored, out::add);
    return out;
  }

  /** Gives each of {@link #valueGrams(String)}, repeats too (the caller's set drops them). */
  private static void valueGrams(String anchored, Consumer<String> into) {
    int n = anchored.length();
    for (int i = 0; i + GRAM <= n; i++) {
      into.accept(anchored.substring(i, i + GRAM));
    }
    for (int k = 2; k < GRAM && k <= n; k++) {
      into.accept(anchored.substring(0, k));
      into.accept(anchored.substring(n - k));
    }
  }

  /**
   * The keys a filter's piece (anchored if initial or final) is looked up by: every other
   * {@value #GRAM} characters and the last ones, which cover it (as slapd's {@code
   * olcIndexSubstrAnyStep} 2), or an anchored piece shorter than a key whole; none for a
   * shorter piece inside the value, which no key can narrow.
   */
  static List<String> pieceGrams(String piece) {
    int n = piece.length();
    if (n < GRAM) {
      boolean anchored = n >= 2 && (piece.charAt(0) == START || piece.charAt(n - 1) == END);
      return anchored ? List.of(piece) : List.of();
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i + GRAM < n; i += 2) {
      out.add(piece.substring(i, i + GRAM));
    }
    out.add(piece.substring(n - GRAM));
    return out;
  }

  // --- planning --------------------------------------------------------------------------------

  /**
   * Returns the candidates of {@code f}, or null if its indexes cannot narrow it (the search
   * then walks its whole scope). An and needs one part it can narrow; an or, all of them; a
   * not, never. {@code secrets} is unused but for clarity: passwords are never indexed.
   *
   * @param maxGathered keys an ordering range wider than {@value #MERGED_RANGE_KEYS} values
   *     may gather before the range is given up as no narrower than the scope
   */
  Candidates plan(Store.Read r, Filter f, int maxGathered) {
    return switch (f) {
      case Filter.And and -> and(r, and.filters(), maxGathered);
      case Filter.Or or -> or(r, or.filters(), maxGathered);
      case Filter.Equality eq -> equality(r, eq.attribute(), eq.value());
      case Filter.Approx ap -> approx(r, ap);
      case Filter.Present p -> present(r, p.attribute());
      case Filter.Substrings s -> substrings(r, s);
      case Filter.GreaterOrEqual ge -> range(r, ge.attribute(), ge.value(), true, maxGathered);
      case Filter.LessOrEqual le -> range(r, le.attribute(), le.value(), false, maxGathered);
      case Filter.Not n -> null;
      case Filter.Extensible x -> null;
    };
  }

  private Candidates and(Store.Read r, List<Filter> parts, int maxGathered) {
    List<Candidates> narrowed = new ArrayList<>();
    for (Filter p : parts) {
      Candidates c = plan(r, p, maxGathered);
      if (c != null) {
        narrowed.add(c);
      }
    }
    return narrowed.isEmpty() ? null : Candidates.all(narrowed);
  }

  private Candidates or(Store.Read r, List<Filter> parts, int maxGathered) {
    if (parts.isEmpty()) {
      return Candidates.NONE; // (|) is FALSE
    }
    List<Candidates> all = new ArrayList<>();
    for (Filter p : parts) {
      Candidates c = plan(r, p, maxGathered);
      if (c == null) {
        return null;
      }
      all.add(c);
    }
    return Candidates.any(all);
  }

  /** The index of an item's attribute for {@code kind}, or null (options do not matter). */
  private Index index(String description, IndexType kind) {
    AttributeType t = schema.definedType(StoredAttribute.typeName(description));
    if (t == null) {
      t = schema.type(StoredAttribute.typeName(description)); // permissive: made-up types
    }
    Index x = indexes.get(t);
    return x != null && x.kinds.contains(kind) ? x : null;
  }

  private Candidates equality(Store.Read r, String attribute, ByteString value) {
    Index x = index(attribute, IndexType.EQUALITY);
    if (x == null) {
      return null;
    }
    Object k = x.type.equality.key(value, schema);
    return k == null ? Candidates.NONE // Undefined: no match
        : Candidates.of(r, IndexKeys.of(x.equality, k));
  }

  /**
   * An approximate item: by the equality index for types that match approximately as for
   * equality; never narrowed for those that match by sound ({@link Approximate}), since words
   * that sound alike have no equality key in common.
   */
  private Candidates approx(Store.Read r, Filter.Approx ap) {
    AttributeType t = schema.definedType(StoredAttribute.typeName(ap.attribute()));
    if (t == null) {
      t = schema.type(StoredAttribute.typeName(ap.attribute()));
    }
    return Approximate.isPhonetic(t.equality) ? null
        : equality(r, ap.attribute(), ap.value());
  }

  private Candidates present(Store.Read r, String attribute) {
    Index x = index(attribute, IndexType.PRESENCE);
    return x == null ? null : Candidates.of(r, IndexKeys.of(x.presence));
  }

  private Candidates substrings(Store.Read r, Filter.Substrings s) {
    Index x = index(s.attribute(), IndexType.SUBSTRING);
    if (x == null) {
      return null;
    }
    List<String> pieces = new ArrayList<>();
    List<ByteString> given = new ArrayList<>();
    if (s.initial() != null) {
      given.add(s.initial());
    }
    given.addAll(s.any());
    if (s.finalValue() != null) {
      given.add(s.finalValue());
    }
    for (ByteString g : given) {
      String piece = x.type.substr.piece(g);
      if (piece == null) {
        return Candidates.NONE; // a piece the rule cannot read: Undefined, never TRUE
      }
      pieces.add(piece);
    }
    if (s.initial() != null) {
      pieces.set(0, START + pieces.get(0));
    }
    if (s.finalValue() != null) {
      pieces.set(pieces.size() - 1, pieces.get(pieces.size() - 1) + END);
    }
    List<Candidates> parts = new ArrayList<>();
    for (String piece : pieces) {
      for (String g : pieceGrams(piece)) {
        parts.add(Candidates.of(r, IndexKeys.of(x.substring, g)));
      }
    }
    return parts.isEmpty() ? null : Candidates.all(parts);
  }

  private Candidates range(Store.Read r, String attribute, ByteString value, boolean greater,
      int maxGathered) {
    Index x = index(attribute, IndexType.ORDERING);
    if (x == null) {
      return null;
    }
    Object k = x.type.ordering.key(value, schema);
    if (k == null) {
      return Candidates.NONE;
    }
    ByteString bound = IndexKeys.of(x.ordering, k);
    Iterator<ByteString> keys = greater
        ? r.indexKeys(bound, IndexKeys.after(x.ordering), false)
        : r.indexKeys(IndexKeys.of(x.ordering), bound, true);
    List<ByteString> seen = new ArrayList<>();
    while (keys.hasNext()) {
      if (seen.size() == MERGED_RANGE_KEYS) {
        return gather(r, seen, keys, maxGathered);
      }
      seen.add(keys.next());
    }
    if (seen.isEmpty()) {
      return Candidates.NONE;
    }
    List<Candidates> parts = new ArrayList<>();
    for (ByteString key : seen) {
      parts.add(Candidates.of(r, key));
    }
    return Candidates.any(parts);
  }

  /** Gathers a wide range's entry ids, or gives up (null) past {@code maxGathered}. */
  private static Candidates gather(Store.Read r, List<ByteString> seen,
      Iterator<ByteString> rest, int maxGathered) {
    TreeSet<Long> keys = new TreeSet<>();
    for (ByteString k : seen) {
      if (!gather(r, k, keys, maxGathered)) {
        return null;
      }
    }
    while (rest.hasNext()) {
      if (!gather(r, rest.next(), keys, maxGathered)) {
        return null;
      }
    }
    return Candidates.of(keys);
  }

  private static boolean gather(Store.Read r, ByteString indexKey, TreeSet<Long> into,
      int maxGathered) {
    for (var p = r.posted(List.of(indexKey), 0); p.hasNext(); ) {
      into.add(p.nextLong());
      if (into.size() > maxGathered) {
        return false;
      }
    }
    return true;
  }
}
