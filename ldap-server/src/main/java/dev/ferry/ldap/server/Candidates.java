package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The keys of the entries a filter may be TRUE for, as its indexes say: a superset of the
 * entries it matches, in key order, each of which the search still checks with the whole
 * filter. Nothing is gathered in memory: an and walks its smallest part and asks the others,
 * an or merges its parts as it goes.
 */
abstract class Candidates {
  /** About how many keys there are (an and starts from its smallest part). */
  abstract long estimate();

  abstract boolean contains(String key);

  /**
   * The keys from {@code from} (all if null; itself only if {@code inclusive}) and before
   * {@code end} (no bound if null).
   */
  abstract Iterator<String> iterator(String from, boolean inclusive, String end);

  static final Candidates NONE = new Candidates() {
    @Override
    long estimate() {
      return 0;
    }

    @Override
    boolean contains(String key) {
      return false;
    }

    @Override
    Iterator<String> iterator(String from, boolean inclusive, String end) {
      return java.util.Collections.emptyIterator();
    }
  };

  /** The keys posted under {@code indexKey}, as {@code read} sees them. */
  static Candidates of(Store.Read read, ByteString indexKey) {
    return new Posted(read, List.of(indexKey));
  }

  /**
   * The keys posted under every one of some index keys: the store walks their postings side
   * by side ({@link Store.Read#posted}), the smallest first.
   */
  private static final class Posted extends Candidates {
    private final Store.Read read;
    private final List<ByteString> indexKeys;
    private long size = -1;

    Posted(Store.Read read, List<ByteString> indexKeys) {
      this.read = read;
      this.indexKeys = indexKeys;
    }

    /** The smallest posting's size, counted only when asked (an and of other parts asks). */
    @Override
    long estimate() {
      if (size < 0) {
        size = Long.MAX_VALUE;
        for (ByteString k : indexKeys) {
          size = Math.min(size, read.postingSize(k));
        }
      }
      return size;
    }

    @Override
    boolean contains(String key) {
      for (ByteString k : indexKeys) {
        if (!read.isPosted(k, key)) {
          return false;
        }
      }
      return true;
    }

    @Override
    Iterator<String> iterator(String from, boolean inclusive, String end) {
      return read.posted(indexKeys, from, inclusive, end);
    }
  }

  /** The keys of a set made for one search (an ordering range gathered). */
  static Candidates of(NavigableSet<String> keys) {
    int size = keys.size();
    return new Candidates() {
      @Override
      long estimate() {
        return size;
      }

      @Override
      boolean contains(String key) {
        return keys.contains(key);
      }

      @Override
      Iterator<String> iterator(String from, boolean inclusive, String end) {
        return range(keys, from, inclusive, end);
      }
    };
  }

  /** The keys of a sorted set from {@code from} and before {@code end} (null: unbounded). */
  static Iterator<String> range(NavigableSet<String> keys, String from, boolean inclusive,
      String end) {
    NavigableSet<String> tail = from == null ? keys : keys.tailSet(from, inclusive);
    return (end == null ? tail : tail.headSet(end, false)).iterator();
  }

  /**
   * The keys in every one of {@code parts}: the postings among them are joined in the store,
   * and the keys the smallest part gives are checked against the others.
   */
  static Candidates all(List<Candidates> parts) {
    List<Candidates> sorted = new ArrayList<>();
    List<ByteString> posted = new ArrayList<>();
    Store.Read read = null;
    for (Candidates c : parts) {
      if (c instanceof Posted p) {
        posted.addAll(p.indexKeys);
        read = p.read;
      } else {
        sorted.add(c);
      }
    }
    if (read != null) {
      sorted.add(new Posted(read, posted));
    }
    if (sorted.size() == 1) {
      return sorted.get(0);
    }
    sorted.sort(Comparator.comparingLong(Candidates::estimate));
    Candidates smallest = sorted.get(0);
    List<Candidates> others = sorted.subList(1, sorted.size());
    return new Candidates() {
      @Override
      long estimate() {
        return smallest.estimate();
      }

      @Override
      boolean contains(String key) {
        for (Candidates c : sorted) {
          if (!c.contains(key)) {
            return false;
          }
        }
        return true;
      }

      @Override
      Iterator<String> iterator(String from, boolean inclusive, String end) {
        Iterator<String> it = smallest.iterator(from, inclusive, end);
        return new Filtered(it) {
          @Override
          boolean accept(String key) {
            for (Candidates c : others) {
              if (!c.contains(key)) {
                return false;
              }
            }
            return true;
          }
        };
      }
    };
  }

  /** The keys in any of {@code parts}. */
  static Candidates any(List<Candidates> parts) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    return new Candidates() {
      @Override
      long estimate() {
        long n = 0;
        for (Candidates c : parts) {
          n += c.estimate();
        }
        return n;
      }

      @Override
      boolean contains(String key) {
        for (Candidates c : parts) {
          if (c.contains(key)) {
            return true;
          }
        }
        return false;
      }

      @Override
      Iterator<String> iterator(String from, boolean inclusive, String end) {
        return new Merge(parts, from, inclusive, end);
      }
    };
  }

  /** An iterator that skips the keys {@link #accept} refuses. */
  abstract static class Filtered implements Iterator<String> {
    private final Iterator<String> in;
    private String next;

    Filtered(Iterator<String> in) {
      this.in = in;
    }

    abstract boolean accept(String key);

    @Override
    public boolean hasNext() {
      while (next == null && in.hasNext()) {
        String k = in.next();
        if (accept(k)) {
          next = k;
        }
      }
      return next != null;
    }

    @Override
    public String next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      String k = next;
      next = null;
      return k;
    }
  }

  /** Merges sorted iterators into one, each key once. */
  private static final class Merge implements Iterator<String> {
    private record Head(String key, Iterator<String> rest) {}

    private final PriorityQueue<Head> heads =
        new PriorityQueue<>(Comparator.comparing(Head::key));
    private String last;

    Merge(List<Candidates> parts, String from, boolean inclusive, String end) {
      for (Candidates c : parts) {
        push(c.iterator(from, inclusive, end));
      }
    }

    private void push(Iterator<String> it) {
      if (it.hasNext()) {
        heads.add(new Head(it.next(), it));
      }
    }

    @Override
    public boolean hasNext() {
      while (!heads.isEmpty() && heads.peek().key.equals(last)) {
        Head h = heads.poll();
        push(h.rest);
      }
      return !heads.isEmpty();
    }

    @Override
    public String next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Head h = heads.poll();
      push(h.rest);
      last = h.key;
      return h.key;
    }
  }
}
