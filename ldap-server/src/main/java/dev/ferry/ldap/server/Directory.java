package dev.ferry.ldap.server;

import dev.ferry.ldap.Dn;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The entries, keyed by their normalized DN ({@link Schema#normalize}): RDNs from the root down,
 * so that a subtree is one range of keys and a search walks it in order without an index.
 *
 * <p>Reads take no lock: entries are immutable and the map is concurrent, so a search sees each
 * entry either before or after a change to it. Changes hold {@link #writeLock}, one at a time,
 * and check and apply together; a modify DN of a subtree moves its entries one by one, so a
 * search running beside it may see part of the move.
 */
final class Directory {
  private static final char AFTER_SUBTREE = Schema.RDN_SEPARATOR + 1;

  final Schema schema;
  final Indexes indexes;
  final ReentrantLock writeLock = new ReentrantLock();
  private final ConcurrentSkipListMap<String, StoredEntry> entries = new ConcurrentSkipListMap<>();
  private final List<String> suffixKeys;

  Directory(Schema schema, List<Dn> suffixes) {
    this(schema, suffixes, new Indexes(schema, Map.of()));
  }

  Directory(Schema schema, List<Dn> suffixes, Indexes indexes) {
    this.schema = schema;
    this.indexes = indexes;
    List<String> keys = new ArrayList<>();
    for (Dn s : suffixes) {
      keys.add(schema.normalize(s));
    }
    this.suffixKeys = List.copyOf(keys);
  }

  int size() {
    return entries.size();
  }

  StoredEntry get(String key) {
    return entries.get(key);
  }

  StoredEntry get(Dn dn) {
    return entries.get(schema.normalize(dn));
  }

  /** Puts an entry (under the write lock); returns the one it replaced, if any. */
  StoredEntry put(StoredEntry e) {
    StoredEntry old = entries.put(e.key, e);
    if (old != null) {
      indexes.remove(old);
    }
    indexes.add(e);
    return old;
  }

  StoredEntry remove(String key) {
    StoredEntry old = entries.remove(key);
    if (old != null) {
      indexes.remove(old);
    }
    return old;
  }

  boolean hasChildren(StoredEntry e) {
    return hasChildren(e.key);
  }

  boolean hasChildren(String key) {
    String prefix = key + Schema.RDN_SEPARATOR;
    String next = entries.ceilingKey(prefix);
    return next != null && next.startsWith(prefix);
  }

  /** True if an entry may be added without a parent: a suffix, or any DN if none is set. */
  boolean mayBeRoot(String key) {
    return suffixKeys.isEmpty() || suffixKeys.contains(key);
  }

  /** The entries without a parent: the naming contexts that exist. */
  List<StoredEntry> roots() {
    List<StoredEntry> out = new ArrayList<>();
    scan("", SearchScope.SINGLE_LEVEL, null, e -> out.add(e));
    return out;
  }

  /**
   * Returns the DN of the nearest ancestor of {@code dn} that exists and is {@code visible}
   * (for noSuchObject's matched DN), or "" if there is none. The entry {@code dn} itself is
   * never named: whether it is missing or hidden from this caller, it is not there for it.
   */
  String matchedDn(Dn dn, Predicate<StoredEntry> visible) {
    if (dn.isRoot()) {
      return "";
    }
    for (Dn d = dn.parent(); !d.isRoot(); d = d.parent()) {
      StoredEntry e = get(d);
      if (e != null && visible.test(e)) {
        return e.dnText;
      }
    }
    return "";
  }

  /**
   * Fails with noSuchObject, naming the nearest ancestor the caller sees: the answer for an
   * entry hidden from it and for a missing one is the same.
   */
  OperationException noSuchObject(Dn dn, Predicate<StoredEntry> visible) {
    return new OperationException(ResultCode.NO_SUCH_OBJECT, "no entry " + dn,
        matchedDn(dn, visible));
  }

  /** Returns the entry named {@code dn} if it exists and is visible; noSuchObject otherwise. */
  StoredEntry visible(Dn dn, Predicate<StoredEntry> visible) throws OperationException {
    StoredEntry e = get(dn);
    if (e == null || !visible.test(e)) {
      throw noSuchObject(dn, visible);
    }
    return e;
  }

  /**
   * Calls {@code visitor} for each entry in scope of the base with key {@code baseKey} ("" for
   * the root), in key order, starting after {@code afterKey} if it is not null, until it
   * returns false. The base itself, when in scope, comes first. Subordinates (draft-sermersheim-
   * ldap-subordinate-scope, as slapd has it) is the subtree without its base.
   */
  void scan(String baseKey, SearchScope scope, String afterKey, Predicate<StoredEntry> visitor) {
    switch (scope) {
      case BASE_OBJECT -> {
        StoredEntry e = baseKey.isEmpty() ? null : entries.get(baseKey);
        if (e != null && afterKey == null) {
          visitor.test(e);
        }
      }
      case SINGLE_LEVEL -> children(baseKey, afterKey, visitor);
      case WHOLE_SUBTREE -> subtree(baseKey, afterKey, visitor);
      case SUBORDINATE_SUBTREE -> subtree(baseKey, afterKey == null && !baseKey.isEmpty()
          ? baseKey : afterKey, visitor); // the subtree without its base
    }
  }

  /**
   * Like {@link #scan}, over the entries among {@code candidates} only, in key order; returns
   * false if it cannot (one level below the root, whose children are not one key range).
   */
  boolean scan(String baseKey, SearchScope scope, String afterKey, Candidates candidates,
      Predicate<StoredEntry> visitor) {
    if (scope == SearchScope.BASE_OBJECT || (baseKey.isEmpty()
        && scope == SearchScope.SINGLE_LEVEL)) {
      return false;
    }
    String from = afterKey != null ? afterKey : baseKey.isEmpty() ? null : baseKey;
    boolean inclusive = afterKey == null;
    String end = baseKey.isEmpty() ? null : baseKey + AFTER_SUBTREE;
    String prefix = baseKey + Schema.RDN_SEPARATOR;
    for (Iterator<String> it = candidates.iterator(from, inclusive, end); it.hasNext(); ) {
      String key = it.next();
      boolean inScope = switch (scope) {
        case SINGLE_LEVEL -> key.startsWith(prefix)
            && key.indexOf(Schema.RDN_SEPARATOR, prefix.length()) < 0;
        case SUBORDINATE_SUBTREE -> !key.equals(baseKey);
        default -> true;
      };
      StoredEntry e = inScope ? entries.get(key) : null;
      if (e != null && !visitor.test(e)) {
        break;
      }
    }
    return true;
  }

  private void subtree(String baseKey, String afterKey, Predicate<StoredEntry> visitor) {
    Map<String, StoredEntry> range;
    if (baseKey.isEmpty()) {
      range = afterKey == null ? entries : entries.tailMap(afterKey, false);
    } else {
      String end = baseKey + AFTER_SUBTREE;
      range = afterKey == null ? entries.subMap(baseKey, true, end, false)
          : entries.subMap(afterKey, false, end, false);
    }
    for (StoredEntry e : range.values()) {
      if (!visitor.test(e)) {
        return;
      }
    }
  }

  private void children(String baseKey, String afterKey, Predicate<StoredEntry> visitor) {
    // Under the root, the children are the entries without a parent (a suffix's parent need
    // not exist): in key order, each entry met after skipping the subtrees before it.
    boolean root = baseKey.isEmpty();
    String prefix = root ? "" : baseKey + Schema.RDN_SEPARATOR;
    // Each child's own subtree is skipped in one jump: ceiling(child + AFTER_SUBTREE).
    String from = afterKey == null ? prefix : afterKey + AFTER_SUBTREE;
    Map.Entry<String, StoredEntry> next = entries.ceilingEntry(from);
    while (next != null && next.getKey().startsWith(prefix)) {
      String key = next.getKey();
      boolean child = root || key.indexOf(Schema.RDN_SEPARATOR, prefix.length()) < 0;
      if (child && !visitor.test(next.getValue())) {
        return;
      }
      next = entries.ceilingEntry(key + AFTER_SUBTREE);
    }
  }

  /** Returns the entries as they are now; cheap, since entries are immutable. */
  Map<String, StoredEntry> snapshot() {
    return Map.copyOf(entries);
  }

  /** Puts the entries of a snapshot back, dropping every change made since. */
  void restore(Map<String, StoredEntry> snapshot) {
    writeLock.lock();
    try {
      entries.clear();
      indexes.clear();
      entries.putAll(snapshot);
      for (StoredEntry e : snapshot.values()) {
        indexes.add(e);
      }
    } finally {
      writeLock.unlock();
    }
  }

  /** Returns the keys of the subtree under {@code baseKey}, base first. */
  List<StoredEntry> subtree(String baseKey) {
    List<StoredEntry> out = new ArrayList<>();
    subtree(baseKey, null, out::add);
    return out;
  }
}
