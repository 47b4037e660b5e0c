package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A store in memory: entries held in a concurrent sorted map, postings in another. Reads take
 * no lock and see each entry before or after a change to it; a change is applied as it is made
 * (every update checks all it needs before changing anything) and commit has nothing to do.
 */
final class MemoryStore implements Store {
  private final ConcurrentSkipListMap<String, StoredEntry> entries = new ConcurrentSkipListMap<>();
  private final ConcurrentSkipListMap<ByteString, Posting> postings =
      new ConcurrentSkipListMap<>();
  private volatile int count; // a skip list's own size() walks the whole list

  private final Write access = new Access();

  @Override
  public Read read() {
    return access;
  }

  @Override
  public Write write() {
    return access;
  }

  @Override
  public void close() {}

  /** Returns the entries as they are now; cheap, since entries are immutable. */
  Map<String, StoredEntry> snapshot() {
    return Map.copyOf(entries);
  }

  /** Empties the store (to load a snapshot back). */
  void clear() {
    entries.clear();
    postings.clear();
    count = 0;
  }

  /** Reads and changes alike: the maps as they are. */
  private final class Access implements Write {
    @Override
    public StoredEntry get(String key) {
      return entries.get(key);
    }

    @Override
    public StoredEntry ceiling(String key) {
      Map.Entry<String, StoredEntry> e = entries.ceilingEntry(key);
      return e == null ? null : e.getValue();
    }

    @Override
    public Iterator<StoredEntry> entries(String from, boolean inclusive, String end) {
      NavigableMap<String, StoredEntry> tail = from == null ? entries
          : entries.tailMap(from, inclusive);
      return (end == null ? tail : tail.headMap(end, false)).values().iterator();
    }

    @Override
    public long entryCount() {
      return count;
    }

    @Override
    public long postingSize(ByteString indexKey) {
      Posting p = postings.get(indexKey);
      return p == null ? 0 : p.size();
    }

    @Override
    public boolean isPosted(ByteString indexKey, String entryKey) {
      Posting p = postings.get(indexKey);
      return p != null && p.contains(entryKey);
    }

    @Override
    public Iterator<String> posted(List<ByteString> indexKeys, String from, boolean inclusive,
        String end) {
      Posting[] all = new Posting[indexKeys.size()];
      for (int i = 0; i < all.length; i++) {
        all[i] = postings.get(indexKeys.get(i));
        if (all[i] == null) {
          return Collections.emptyIterator();
        }
      }
      java.util.Arrays.sort(all, java.util.Comparator.comparingInt(Posting::size));
      Iterator<String> walked = all[0].keys(from, inclusive, end);
      return all.length == 1 ? walked : new Candidates.Filtered(walked) {
        @Override
        boolean accept(String key) { // the others asked about each key
          for (int i = 1; i < all.length; i++) {
            if (!all[i].contains(key)) {
              return false;
            }
          }
          return true;
        }
      };
    }

    @Override
    public Iterator<ByteString> indexKeys(ByteString from, ByteString to, boolean toInclusive) {
      return postings.subMap(from, true, to, toInclusive).keySet().iterator();
    }

    @Override
    public void put(StoredEntry e) {
      if (entries.put(e.key, e) == null) {
        count++; // one writer at a time: the directory's write lock
      }
    }

    @Override
    public void remove(String key) {
      if (entries.remove(key) != null) {
        count--;
      }
    }

    @Override
    public void post(ByteString indexKey, String entryKey) {
      postings.computeIfAbsent(indexKey, k -> new Posting()).add(entryKey);
    }

    @Override
    public void unpost(ByteString indexKey, String entryKey) {
      Posting p = postings.get(indexKey);
      if (p != null) {
        p.remove(entryKey);
        if (p.size() == 0) {
          postings.remove(indexKey);
        }
      }
    }

    @Override
    public void clearPostings() {
      postings.clear();
    }

    /** The maps as they are too: an update that fails has changed nothing (see above). */
    @Override
    public Write nested() {
      return this;
    }

    @Override
    public void commit() {}

    @Override
    public void close() {}
  }
}
