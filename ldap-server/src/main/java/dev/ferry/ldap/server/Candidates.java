package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.PriorityQueue;

/**
 * The ids of the entries a filter may be TRUE for, as its indexes say: a superset of the
 * entries it matches, in id order, each of which the search still checks with the whole
 * filter. Nothing is gathered in memory: an and walks its smallest part and asks the others,
 * an or merges its parts as it goes.
 */
abstract class Candidates {
  /** About how many ids there are (an and starts from its smallest part). */
  abstract long estimate();

  abstract boolean contains(long id);

  /** The ids greater than {@code after} (0: all), in increasing order. */
  abstract PrimitiveIterator.OfLong iterator(long after);

  private static final PrimitiveIterator.OfLong EMPTY = new PrimitiveIterator.OfLong() {
    @Override
    public boolean hasNext() {
      return false;
    }

    @Override
    public long nextLong() {
      throw new NoSuchElementException();
    }
  };

  static final Candidates NONE = new Candidates() {
    @Override
    long estimate() {
      return 0;
    }

    @Override
    boolean contains(long id) {
      return false;
    }

    @Override
    PrimitiveIterator.OfLong iterator(long after) {
      return EMPTY;
    }
  };

  /** An iterator over no ids. */
  static PrimitiveIterator.OfLong empty() {
    return EMPTY;
  }

  /** The ids posted under {@code indexKey}, as {@code read} sees them. */
  static Candidates of(Store.Read read, ByteString indexKey) {
    return new Posted(read, List.of(indexKey));
  }

  /**
   * The ids posted under every one of some index keys: the store walks their postings side
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
    boolean contains(long id) {
      for (ByteString k : indexKeys) {
        if (!read.isPosted(k, id)) {
          return false;
        }
      }
      return true;
    }

    @Override
    PrimitiveIterator.OfLong iterator(long after) {
      return read.posted(indexKeys, after);
    }
  }

  /** The ids of a set made for one search (an ordering range gathered). */
  static Candidates of(NavigableSet<Long> ids) {
    int size = ids.size();
    return new Candidates() {
      @Override
      long estimate() {
        return size;
      }

      @Override
      boolean contains(long id) {
        return ids.contains(id);
      }

      @Override
      PrimitiveIterator.OfLong iterator(long after) {
        return ids.tailSet(after, false).stream().mapToLong(Long::longValue).iterator();
      }
    };
  }

  /**
   * The ids in every one of {@code parts}: the postings among them are joined in the store,
   * and the ids the smallest part gives are checked against the others.
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
      boolean contains(long id) {
        for (Candidates c : sorted) {
          if (!c.contains(id)) {
            return false;
          }
        }
        return true;
      }

      @Override
      PrimitiveIterator.OfLong iterator(long after) {
        return new Filtered(smallest.iterator(after)) {
          @Override
          boolean accept(long id) {
            for (Candidates c : others) {
              if (!c.contains(id)) {
                return false;
              }
            }
            return true;
          }
        };
      }
    };
  }

  /** The ids in any of {@code parts}. */
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
      boolean contains(long id) {
        for (Candidates c : parts) {
          if (c.contains(id)) {
            return true;
          }
        }
        return false;
      }

      @Override
      PrimitiveIterator.OfLong iterator(long after) {
        return new Merge(parts, after);
      }
    };
  }

  /** An iterator that skips the ids {@link #accept} refuses. */
  abstract static class Filtered implements PrimitiveIterator.OfLong {
    private final PrimitiveIterator.OfLong in;
    private long next;

    Filtered(PrimitiveIterator.OfLong in) {
      this.in = in;
    }

    abstract boolean accept(long id);

    @Override
    public boolean hasNext() {
      while (next == 0 && in.hasNext()) {
        long id = in.nextLong();
        if (accept(id)) {
          next = id;
        }
      }
      return next != 0;
    }

    @Override
    public long nextLong() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      long id = next;
      next = 0;
      return id;
    }
  }

  /** Merges increasing iterators into one, each id once. */
  private static final class Merge implements PrimitiveIterator.OfLong {
    private static final class Head {
      long id;
      final PrimitiveIterator.OfLong rest;

      Head(PrimitiveIterator.OfLong rest) {
        this.rest = rest;
      }
    }

    private final PriorityQueue<Head> heads =
        new PriorityQueue<>(Comparator.comparingLong(h -> h.id));
    private long last;

    Merge(List<Candidates> parts, long after) {
      for (Candidates c : parts) {
        push(new Head(c.iterator(after)));
      }
    }

    private void push(Head h) {
      if (h.rest.hasNext()) {
        h.id = h.rest.nextLong();
        heads.add(h);
      }
    }

    @Override
    public boolean hasNext() {
      while (!heads.isEmpty() && heads.peek().id == last) {
        push(heads.poll());
      }
      return !heads.isEmpty();
    }

    @Override
    public long nextLong() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Head h = heads.poll();
      last = h.id;
      push(h);
      return last;
    }
  }
}
