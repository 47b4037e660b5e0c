package dev.ferry.ldap.server;

import java.util.PrimitiveIterator;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The ids one index key names, in a store in memory: a concurrent sorted set, read without a
 * lock while the directory's one writer changes it, and its size kept beside it (a skip
 * list's own size() walks the whole set).
 */
final class Posting {
  private final ConcurrentSkipListSet<Long> ids = new ConcurrentSkipListSet<>();
  private volatile int size;

  void add(long id) {
    if (ids.add(id)) {
      size++; // one writer at a time: the directory's write lock
    }
  }

  void remove(long id) {
    if (ids.remove(id)) {
      size--;
    }
  }

  int size() {
    return size;
  }

  boolean contains(long id) {
    return ids.contains(id);
  }

  /** The ids greater than {@code after}, in increasing order. */
  PrimitiveIterator.OfLong after(long after) {
    return ids.tailSet(after, false).stream().mapToLong(Long::longValue).iterator();
  }
}
