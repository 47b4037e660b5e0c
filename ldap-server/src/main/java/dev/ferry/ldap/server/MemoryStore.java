package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.PrimitiveIterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A store in memory: entries held in a concurrent sorted map, their ids in two hash maps (key
 * to id and back), postings of ids in another sorted map. Reads take
 * no lock and see each entry before or after a change to it; a change is applied as it is made
 * (every update checks all it needs before changing anything) and commit has nothing to do.
 */
final class MemoryStore implements Store {
  private final ConcurrentSkipListMap<String, StoredEntry> entries = new ConcurrentSkipListMap<>();
  private final ConcurrentSkipListMap<ByteString, Posting> postings =
      new ConcurrentSkipListMap<>();
  private final ConcurrentHashMap<String, Long> ids = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, String> keys = new ConcurrentHashMap<>();
  private volatile int count; // a skip list's own size() walks the whole list
  private long lastId; // written under the directory's write lock

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
    ids.clear();
    keys.clear();
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
    public long id(String key) {
      Long id = ids.get(key);
      return id == null ? 0 : id;
    }

    @Override
    public StoredEntry entry(long id) {
      String key = keys.get(id);
      return key == null ? null : entries.get(key);
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
    public boolean isPosted(ByteString indexKey, long id) {
      Posting p = postings.get(indexKey);
      return p != null && p.contains(id);
    }

    @Override
    public PrimitiveIterator.OfLong posted(List<ByteString> indexKeys, long after) {
      Posting[] all = new Posting[indexKeys.size()];
      for (int i = 0; i < all.length; i++) {
        all[i] = postings.get(indexKeys.get(i));
        if (all[i] == null) {
          return Candidates.empty();
        }
      }
      java.util.Arrays.sort(all, java.util.Comparator.comparingInt(Posting::size));
      PrimitiveIterator.OfLong walked = all[0].after(after);
      return all.length == 1 ? walked : new Candidates.Filtered(walked) {
        @Override
        boolean accept(long id) { // the others asked about each id
          for (int i = 1; i < all.length; i++) {
            if (!all[i].contains(id)) {
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
    public long put(StoredEntry e) {
      Long id = ids.get(e.key);
      if (id == null) {
        id = ++lastId; // one writer at a time: the directory's write lock
        keys.put(id, e.key);
        ids.put(e.key, id);
      }
      if (entries.put(e.key, e) == null) {
        count++;
      }
      return id;
    }

    @Override
    public void remove(String key) {
      if (entries.remove(key) != null) {
        count--;
        keys.remove(ids.remove(key));
      }
    }

    @Override
    public void post(ByteString indexKey, long id) {
      postings.computeIfAbsent(indexKey, k -> new Posting()).add(id);
    }

    @Override
    public void unpost(ByteString indexKey, long id) {
      Posting p = postings.get(indexKey);
      if (p != null) {
        p.remove(id);
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
