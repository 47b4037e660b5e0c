package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Filter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The directory's indexes, per attribute type as configured ({@link LdapServer.Builder#index}),
 * and the planning of a filter over them ({@link #plan}). Each index maps a key to the {@link
 * Posting} of the entries that have it: an equality key (objectClass values also under every
 * superclass, as filters match subclasses), presence, three-character pieces of substring
 * text (the first and last anchored), or an ordering key, sorted by the ordering rule.
 *
 * <p>An index on a type covers its subtypes' values ({@code name} covers {@code cn}) and every
 * option. Passwords are never indexed. Changes come under the directory's write lock; searches
 * read without one, and check every candidate with the whole filter, so an entry caught
 * between its old and new postings is still answered right.
 */
final class Indexes {
  /** Anchors of substring text: characters string preparation never leaves in a value. */
  private static final char START = '\u0002';
  private static final char END = '\u0003';
  private static final int GRAM = 3;
  /** Distinct ordering keys an or merges as it goes; a wider range is gathered, or not used. */
  private static final int MERGED_RANGE_KEYS = 256;

  private final Schema schema;
  private final Map<AttributeType, Index> indexes;

  private static final class Index {
    final AttributeType type;
    final Set<IndexType> kinds;
    final Posting present = new Posting();
    final Map<Object, Posting> equal = new ConcurrentHashMap<>();
    final Map<String, Posting> grams = new ConcurrentHashMap<>();
    final ConcurrentSkipListMap<Object, Posting> ordered;

    Index(AttributeType type, Set<IndexType> kinds) {
      this.type = type;
      this.kinds = kinds;
      MatchingRule ordering = type.ordering;
      this.ordered = ordering == null ? null : new ConcurrentSkipListMap<>(ordering::compare);
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

  // --- upkeep ----------------------------------------------------------------------------------

  void add(StoredEntry e) {
    for (Index x : indexes.values()) {
      visit(x, e, true);
    }
  }

  void remove(StoredEntry e) {
    for (Index x : indexes.values()) {
      visit(x, e, false);
    }
  }

  /** Empties every index (the directory is replaced whole). */
  void clear() {
    for (Index x : indexes.values()) {
      x.equal.clear();
      x.grams.clear();
      if (x.ordered != null) {
        x.ordered.clear();
      }
    }
    // a fresh presence posting cannot be swapped in a final field: empty it key by key
    for (Index x : indexes.values()) {
      for (String key : List.copyOf(x.present.keys())) {
        x.present.remove(key);
      }
    }
  }

  private void visit(Index x, StoredEntry e, boolean add) {
    boolean seen = false;
    for (StoredAttribute a : e.attributes) { // operational ones too (entryUUID): not passwords
      if (a.type.secret || !a.type.isA(x.type)) {
        continue;
      }
      seen = true;
      for (ByteString v : a.values) {
        if (x.kinds.contains(IndexType.EQUALITY)) {
          for (Object k : equalityKeys(x.type, v)) {
            post(x.equal, k, e.key, add);
          }
        }
        if (x.kinds.contains(IndexType.SUBSTRING)
            && x.type.substr.key(v, schema) instanceof String text) {
          for (String g : grams(START + text + END)) {
            post(x.grams, g, e.key, add);
          }
        }
        if (x.kinds.contains(IndexType.ORDERING)) {
          Object k = x.type.ordering.key(v, schema);
          if (k != null) {
            post(x.ordered, k, e.key, add);
          }
        }
      }
    }
    if (seen && x.kinds.contains(IndexType.PRESENCE)) {
      if (add) {
        x.present.add(e.key);
      } else {
        x.present.remove(e.key);
      }
    }
  }

  private static <K> void post(Map<K, Posting> map, K key, String entryKey, boolean add) {
    if (add) {
      map.computeIfAbsent(key, k -> new Posting()).add(entryKey);
      return;
    }
    Posting p = map.get(key);
    if (p != null) {
      p.remove(entryKey);
      if (p.size() == 0) {
        map.remove(key);
      }
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

  private static List<String> grams(String text) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i + GRAM <= text.length(); i++) {
      out.add(text.substring(i, i + GRAM));
    }
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
  Candidates plan(Filter f, int maxGathered) {
    return switch (f) {
      case Filter.And and -> and(and.filters(), maxGathered);
      case Filter.Or or -> or(or.filters(), maxGathered);
      case Filter.Equality eq -> equality(eq.attribute(), eq.value());
      case Filter.Approx ap -> equality(ap.attribute(), ap.value());
      case Filter.Present p -> present(p.attribute());
      case Filter.Substrings s -> substrings(s);
      case Filter.GreaterOrEqual ge -> range(ge.attribute(), ge.value(), true, maxGathered);
      case Filter.LessOrEqual le -> range(le.attribute(), le.value(), false, maxGathered);
      case Filter.Not n -> null;
      case Filter.Extensible x -> null;
    };
  }

  private Candidates and(List<Filter> parts, int maxGathered) {
    List<Candidates> narrowed = new ArrayList<>();
    for (Filter p : parts) {
      Candidates c = plan(p, maxGathered);
      if (c != null) {
        narrowed.add(c);
      }
    }
    return narrowed.isEmpty() ? null : Candidates.all(narrowed);
  }

  private Candidates or(List<Filter> parts, int maxGathered) {
    if (parts.isEmpty()) {
      return Candidates.NONE; // (|) is FALSE
    }
    List<Candidates> all = new ArrayList<>();
    for (Filter p : parts) {
      Candidates c = plan(p, maxGathered);
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

  private Candidates equality(String attribute, ByteString value) {
    Index x = index(attribute, IndexType.EQUALITY);
    if (x == null) {
      return null;
    }
    Object k = x.type.equality.key(value, schema);
    return k == null ? Candidates.NONE : Candidates.of(x.equal.get(k)); // Undefined: no match
  }

  private Candidates present(String attribute) {
    Index x = index(attribute, IndexType.PRESENCE);
    return x == null ? null : Candidates.of(x.present);
  }

  private Candidates substrings(Filter.Substrings s) {
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
      for (String g : grams(piece)) {
        parts.add(Candidates.of(x.grams.get(g)));
      }
    }
    return parts.isEmpty() ? null : Candidates.all(parts);
  }

  private Candidates range(String attribute, ByteString value, boolean greater,
      int maxGathered) {
    Index x = index(attribute, IndexType.ORDERING);
    if (x == null) {
      return null;
    }
    Object k = x.type.ordering.key(value, schema);
    if (k == null) {
      return Candidates.NONE;
    }
    Map<Object, Posting> range = greater ? x.ordered.tailMap(k, true)
        : x.ordered.headMap(k, true);
    List<Candidates> parts = new ArrayList<>();
    for (Posting p : range.values()) {
      if (parts.size() == MERGED_RANGE_KEYS) {
        return gather(range, maxGathered);
      }
      parts.add(Candidates.of(p));
    }
    return parts.isEmpty() ? Candidates.NONE : Candidates.any(parts);
  }

  /** Gathers a wide range's keys, or gives up (null) past {@code maxGathered}. */
  private static Candidates gather(Map<Object, Posting> range, int maxGathered) {
    TreeSet<String> keys = new TreeSet<>();
    for (Posting p : range.values()) {
      for (String key : p.keys()) {
        keys.add(key);
        if (keys.size() > maxGathered) {
          return null;
        }
      }
    }
    return Candidates.of(keys);
  }
}
