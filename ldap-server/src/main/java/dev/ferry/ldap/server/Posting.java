package dev.ferry.ldap.server;

import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The keys of the entries an index key names in a {@link MemoryStore}, in key order (so a
 * subtree is one range of it), with a count kept beside them: a skip list's own size is a walk
 * of the whole list. Written under the directory's write lock, read without a lock.
 */
final class Posting {
  private final ConcurrentSkipListSet<String> keys = new ConcurrentSkipListSet<>();
  private volatile int size;

  void add(String key) {
    if (keys.add(key)) {
      size++; // one writer at a time: the directory's write lock
    }
  }

  void remove(String key) {
    if (keys.remove(key)) {
      size--;
    }
  }

  int size() {
    return size;
  }

  boolean contains(String key) {
    return keys.contains(key);
  }

  /** The keys from {@code from} (all if null; itself only if {@code inclusive}) and before
   * {@code end} (no bound if null). */
  java.util.Iterator<String> keys(String from, boolean inclusive, String end) {
    NavigableSet<String> tail = from == null ? keys : keys.tailSet(from, inclusive);
    return (end == null ? tail : tail.headSet(end, false)).iterator();
  }
}
