package dev.ferry.ldap.server;

import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The keys of the entries an index key names, in key order (so a subtree is one range of it),
 * with a count kept beside them: a skip list's own size is a walk of the whole list. Written
 * under the directory's write lock, read without a lock.
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

  /** The keys, read-only by contract: only {@link #add} and {@link #remove} change them. */
  NavigableSet<String> keys() {
    return keys;
  }
}
