package dev.ferry.ldap.server;

import dev.ferry.ldap.Dn;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The entries, keyed by their normalized DN ({@link Schema#normalize}): RDNs from the root down,
 * so that a subtree is one range of keys and a search walks it in order without an index; and
 * their indexes. Both live in a {@link Store}.
 *
 * <p>Every operation reads through a {@link View} ({@link #read}), and changes through a
 * {@link Change}: one at a time, under {@link #writeLock}, checked and applied together and
 * committed whole, durably in a durable store. A client's update goes through {@link #update},
 * which commits the updates of clients that write at once together ({@link GroupCommit}); a
 * bulk change (an import) takes a {@link #change} of its own. Entries a view returns are valid
 * until it is closed.
 */
final class Directory implements AutoCloseable {
  private static final char AFTER_SUBTREE = Schema.RDN_SEPARATOR + 1;

  final Schema schema;
  final Indexes indexes;
  final ReentrantLock writeLock = new ReentrantLock();
  private final Store store;
  private final List<String> suffixKeys;
  private final GroupCommit commits = new GroupCommit(this);

  Directory(Schema schema, List<Dn> suffixes) {
    this(schema, suffixes, new Indexes(schema, Map.of()), new MemoryStore());
  }

  Directory(Schema schema, List<Dn> suffixes, Indexes indexes, Store store) {
    this.schema = schema;
    this.indexes = indexes;
    this.store = store;
    List<String> keys = new ArrayList<>();
    for (Dn s : suffixes) {
      keys.add(schema.normalize(s));
    }
    this.suffixKeys = List.copyOf(keys);
  }

  /** True if entries are kept in a durable store, false if in memory. */
  boolean isDurable() {
    return store instanceof LmdbStore;
  }

  /** The store the entries live in. */
  Store store() {
    return store;
  }

  View read() {
    return new View(store.read());
  }

  /** An update of the directory: checks what it needs and changes it, or throws. */
  interface Update {
    void apply(Change c) throws OperationException;
  }

  /**
   * Applies {@code update} as one change, committed (durably, in a durable store) before this
   * returns, maybe in one commit with other clients' updates.
   *
   * @throws OperationException as the update threw it; nothing of it was kept
   * @throws StoreException if the store refused the change or failed
   */
  void update(Update update) throws OperationException {
    commits.apply(update);
  }

  /** Begins a change: takes the write lock, which {@link Change#close} gives back. */
  Change change() {
    writeLock.lock();
    try {
      return new Change(store.write(), true);
    } catch (RuntimeException e) {
      writeLock.unlock();
      throw e;
    }
  }

  /** True if an entry may be added without a parent: a suffix, or any DN if none is set. */
  boolean mayBeRoot(String key) {
    return suffixKeys.isEmpty() || suffixKeys.contains(key);
  }

  /** Returns the entries as they are now (in memory only); cheap, since they are immutable. */
  Map<String, StoredEntry> snapshot() {
    return memory().snapshot();
  }

  /** Puts the entries of a snapshot back, dropping every change made since. */
  void restore(Map<String, StoredEntry> snapshot) {
    MemoryStore m = memory();
    try (Change c = change()) {
      m.clear();
      for (StoredEntry e : snapshot.values()) {
        c.put(e);
      }
      c.commit();
    }
  }

  private MemoryStore memory() {
    if (!(store instanceof MemoryStore m)) {
      throw new IllegalStateException("snapshots are taken of a directory in memory only");
    }
    return m;
  }

  @Override
  public void close() {
    store.close();
  }

  /** What one operation reads. */
  class View implements AutoCloseable {
    final Store.Read read;

    View(Store.Read read) {
      this.read = read;
    }

    long size() {
      return read.entryCount();
    }

    StoredEntry get(String key) {
      return read.get(key);
    }

    StoredEntry get(Dn dn) {
      return read.get(schema.normalize(dn));
    }

    boolean hasChildren(StoredEntry e) {
      return hasChildren(e.key);
    }

    boolean hasChildren(String key) {
      String prefix = key + Schema.RDN_SEPARATOR;
      StoredEntry next = read.ceiling(prefix);
      return next != null && next.key.startsWith(prefix);
    }

    /** The candidates of {@code f} by the indexes, or null if they cannot narrow it. */
    Candidates plan(Filter f, int maxGathered) {
      return indexes.plan(read, f, maxGathered);
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
          return e.dnText();
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
     * returns false. The base itself, when in scope, comes first. Subordinates (draft-
     * sermersheim-ldap-subordinate-scope, as slapd has it) is the subtree without its base.
     */
    void scan(String baseKey, SearchScope scope, String afterKey,
        Predicate<StoredEntry> visitor) {
      switch (scope) {
        case BASE_OBJECT -> {
          StoredEntry e = baseKey.isEmpty() ? null : read.get(baseKey);
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
     * Like {@link #scan}, over the entries among {@code candidates} only, in id order, from
     * the first id after {@code afterId} (0: from the start); returns false if it cannot (a
     * base object scope, whose one entry needs no index, and one level below the root, whose
     * entries are those without a parent entry, known only by walking).
     */
    boolean scan(String baseKey, SearchScope scope, long afterId, Candidates candidates,
        CandidateVisitor visitor) {
      if (scope == SearchScope.BASE_OBJECT || (baseKey.isEmpty()
          && scope == SearchScope.SINGLE_LEVEL)) {
        return false;
      }
      for (var it = candidates.iterator(afterId); it.hasNext(); ) {
        long id = it.nextLong();
        StoredEntry e = read.entry(id);
        if (e != null && !visitor.visit(id, inScope(e.key, baseKey, scope) ? e : null)) {
          break;
        }
      }
      return true;
    }

    private void subtree(String baseKey, String afterKey, Predicate<StoredEntry> visitor) {
      String from = afterKey != null ? afterKey : baseKey.isEmpty() ? null : baseKey;
      String end = baseKey.isEmpty() ? null : baseKey + AFTER_SUBTREE;
      for (Iterator<StoredEntry> it = read.entries(from, afterKey == null, end); it.hasNext(); ) {
        if (!visitor.test(it.next())) {
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
      StoredEntry next = read.ceiling(from);
      while (next != null && next.key.startsWith(prefix)) {
        String key = next.key;
        boolean child = root || key.indexOf(Schema.RDN_SEPARATOR, prefix.length()) < 0;
        if (child && !visitor.test(next)) {
          return;
        }
        next = read.ceiling(key + AFTER_SUBTREE);
      }
    }

    /** Returns the entries of the subtree under {@code baseKey}, base first. */
    List<StoredEntry> subtree(String baseKey) {
      List<StoredEntry> out = new ArrayList<>();
      subtree(baseKey, null, out::add);
      return out;
    }

    @Override
    public void close() {
      read.close();
    }
  }

  /**
   * What a walk over candidates calls for each candidate, with its entry if it is in scope and
   * null if not (so that a walk past many out of scope still sees the clock); returns false to
   * stop.
   */
  interface CandidateVisitor {
    boolean visit(long id, StoredEntry e);
  }

  /**
   * True if the entry of {@code key} is in the subtree, subordinates or one level (not below
   * the root) of the base with key {@code baseKey} ("" for the root).
   */
  static boolean inScope(String key, String baseKey, SearchScope scope) {
    int n = baseKey.length();
    if (n > 0 && !(key.startsWith(baseKey) && (key.length() == n
        || key.charAt(n) == Schema.RDN_SEPARATOR))) {
      return false; // not in the base's subtree
    }
    return switch (scope) {
      case WHOLE_SUBTREE -> true;
      case SUBORDINATE_SUBTREE -> key.length() != n;
      case SINGLE_LEVEL -> key.length() != n && key.indexOf(Schema.RDN_SEPARATOR, n + 1) < 0;
      case BASE_OBJECT -> key.equals(baseKey);
    };
  }

  /** One change: reads see it; it is kept only if committed. */
  final class Change extends View {
    private final Store.Write write;
    /** True if {@link #close} gives the write lock back (false for a nested change). */
    private final boolean locked;

    private Change(Store.Write write, boolean locked) {
      super(write);
      this.write = write;
      this.locked = locked;
    }

    /** Begins a change inside this one ({@link Store.Write#nested}); this one waits for it. */
    Change nested() {
      return new Change(write.nested(), false);
    }

    /** Puts an entry (held in memory) and its postings, replacing one of its key. */
    void put(StoredEntry e) {
      StoredEntry old = write.get(e.key);
      long id = write.put(e);
      if (old != null) {
        indexes.replace(write, old, e, id);
      } else {
        indexes.add(write, e, id);
      }
    }

    void remove(String key) {
      StoredEntry old = write.get(key);
      if (old != null) {
        indexes.remove(write, old, write.id(key));
        write.remove(key);
      }
    }

    /** Files every entry again, under the indexes as configured now. */
    void reindex() {
      indexes.reindex(write);
    }

    void commit() {
      write.commit();
    }

    @Override
    public void close() {
      try {
        write.close();
      } finally {
        if (locked) {
          writeLock.unlock();
        }
      }
    }
  }
}
