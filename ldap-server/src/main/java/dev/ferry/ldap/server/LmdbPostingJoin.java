package dev.ferry.ldap.server;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Comparator;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.SeekOp;

/**
 * The entry ids posted under every one of some index keys in an {@link LmdbRead}, found by
 * walking the postings side by side as LMDB maps them: one cursor a posting, the one on the
 * smallest proposing each id and the others moved up to it. Ids are 8 bytes big-endian, so
 * LMDB's order of duplicates is their numeric order and each is read as one long.
 *
 * <p>A cursor is moved by stepping to the next duplicate while that is likely to reach the id
 * soon, and by a seek otherwise: in LMDB a seek (a search from the tree's root, then in the
 * key's duplicates) costs about ten steps, so a posting whose ids are as dense as the first's
 * is walked, and a wide one ({@code objectClass=person}, a common substring piece) is only
 * looked into where the others agree.
 */
final class LmdbPostingJoin implements PrimitiveIterator.OfLong {
  /** Steps tried before a seek, about what a seek costs. */
  private static final int STEPS = 8;

  private final Cursor<ByteBuffer>[] cursors;
  private final ByteBuffer[] keys;
  /** A direct buffer for the id a seek looks for. */
  private final ByteBuffer target;
  private boolean on;
  /** True once the first cursor's id has been handed out (it moves on at the next look). */
  private boolean taken;
  private long next;

  /**
   * @param keys the index keys, each in a direct buffer of its own
   * @param target 8 bytes of direct memory of the join's own
   * @param after the id after which the walk starts (0: from the first)
   */
  @SuppressWarnings("unchecked")
  LmdbPostingJoin(LmdbRead read, ByteBuffer[] keys, ByteBuffer target, long after) {
    this.target = target.order(ByteOrder.BIG_ENDIAN);
    int n = keys.length;
    Cursor<ByteBuffer>[] open = new Cursor[n];
    long[] sizes = new long[n];
    Integer[] order = new Integer[n];
    on = true;
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    for (int i = 0; i < n && on; i++) {
      open[i] = read.open(read.store.postings);
      if (n > 1) { // one posting alone needs no count, and is placed at its start below
        on = open[i].get(keys[i], GetOp.MDB_SET_KEY);
        sizes[i] = on ? open[i].count() : 0;
      }
    }
    Arrays.sort(order, Comparator.comparingLong(i -> sizes[i]));
    this.cursors = new Cursor[n];
    this.keys = new ByteBuffer[n];
    for (int i = 0; i < n; i++) {
      cursors[i] = open[order[i]];
      this.keys[i] = keys[order[i]];
    }
    if (on && after > 0) {
      on = cursors[0].get(this.keys[0], target(after + 1), SeekOp.MDB_GET_BOTH_RANGE);
    } else if (on && n == 1) {
      on = cursors[0].get(this.keys[0], GetOp.MDB_SET_KEY);
    }
  }

  @Override
  public boolean hasNext() {
    if (next == 0 && on) {
      if (taken) {
        taken = false;
        on = cursors[0].seek(SeekOp.MDB_NEXT_DUP);
      }
      next = on ? find() : 0;
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

  /** The first id at or after the first cursor's that every posting holds, or 0. */
  private long find() {
    while (on) {
      long proposed = id(cursors[0]);
      long higher = 0;
      for (int i = 1; i < cursors.length && higher == 0; i++) {
        if (!moveTo(i, proposed)) {
          on = false;
          return 0;
        }
        long at = id(cursors[i]);
        if (at > proposed) {
          higher = at; // stays put while the first cursor catches up
        }
      }
      if (higher == 0) {
        taken = true;
        return proposed;
      }
      on = moveTo(0, higher);
    }
    return 0;
  }

  /** Moves cursor {@code i} to the first id at or after {@code id}; false if none. */
  private boolean moveTo(int i, long id) {
    Cursor<ByteBuffer> c = cursors[i];
    for (int s = 0; s < STEPS; s++) {
      if (id(c) >= id) {
        return true;
      }
      if (!c.seek(SeekOp.MDB_NEXT_DUP)) {
        return false;
      }
    }
    return id(c) >= id || c.get(keys[i], target(id), SeekOp.MDB_GET_BOTH_RANGE);
  }

  private ByteBuffer target(long id) {
    return target.putLong(0, id);
  }

  /** The id the cursor is on. */
  private static long id(Cursor<ByteBuffer> c) {
    ByteBuffer v = c.val();
    return v.order(ByteOrder.BIG_ENDIAN).getLong(v.position());
  }
}
