package dev.ferry.ldap.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.NoSuchElementException;
import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.SeekOp;

/**
 * The entry keys posted under every one of some index keys in an {@link LmdbRead}, found by
 * walking the postings side by side as the bytes LMDB maps: one cursor a posting, the one on
 * the smallest proposing each key and the others moved up to it, the smaller first. Only a key
 * that every posting holds becomes a String.
 *
 * <p>A cursor is moved by stepping to the next duplicate while that is likely to reach the key
 * soon, and by a seek otherwise: in LMDB a seek (a search from the tree's root, then in the
 * key's duplicates) costs about ten steps, so a posting whose keys are as dense as the first's
 * is walked, and a wide one ({@code objectClass=person}, a common substring piece) is only
 * looked into where the others agree.
 */
final class LmdbPostingJoin implements Iterator<String> {
  /** Steps tried before a seek, about what a seek costs. */
  private static final int STEPS = 8;

  private final Cursor<ByteBuffer>[] cursors;
  private final ByteBuffer[] keys;
  private final byte[] end;
  private boolean on;
  /** True once the first cursor's key has been handed out (it moves on at the next look). */
  private boolean taken;
  private String next;

  /**
   * @param keys the index keys, each in a direct buffer of its own
   * @param from the first entry key (null: from the start), itself only if {@code inclusive}
   * @param end the entry key before which the walk stops (null: no bound)
   */
  @SuppressWarnings("unchecked")
  LmdbPostingJoin(LmdbRead read, ByteBuffer[] keys, byte[] from, boolean inclusive,
      byte[] end) {
    this.end = end;
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
    java.util.Arrays.sort(order, java.util.Comparator.comparingLong(i -> sizes[i]));
    this.cursors = new Cursor[n];
    this.keys = new ByteBuffer[n];
    for (int i = 0; i < n; i++) {
      cursors[i] = open[order[i]];
      this.keys[i] = keys[order[i]];
    }
    Cursor<ByteBuffer> first = cursors[0];
    if (on && from != null) {
      on = first.get(this.keys[0], read.value(from), SeekOp.MDB_GET_BOTH_RANGE);
      if (on && !inclusive && LmdbRead.compare(first.val(), from) == 0) {
        on = first.seek(SeekOp.MDB_NEXT_DUP);
      }
    } else if (on && n == 1) {
      on = first.get(this.keys[0], GetOp.MDB_SET_KEY);
    }
  }

  @Override
  public boolean hasNext() {
    if (next == null && on) {
      if (taken) {
        taken = false;
        on = cursors[0].seek(SeekOp.MDB_NEXT_DUP);
      }
      next = on ? find() : null;
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

  /** The first key at or after the first cursor's that every posting holds, or null. */
  private String find() {
    while (on) {
      ByteBuffer proposed = cursors[0].val();
      if (end != null && LmdbRead.compare(proposed, end) >= 0) {
        on = false;
        return null;
      }
      ByteBuffer higher = null;
      for (int i = 1; i < cursors.length && higher == null; i++) {
        if (!moveTo(i, proposed)) {
          on = false;
          return null;
        }
        if (compare(cursors[i].val(), proposed) > 0) {
          higher = cursors[i].val(); // stays put while the first cursor catches up
        }
      }
      if (higher == null) {
        taken = true;
        return text(proposed);
      }
      on = moveTo(0, higher);
    }
    return null;
  }

  /** Moves cursor {@code i} to the first key at or after {@code target}; false if none. */
  private boolean moveTo(int i, ByteBuffer target) {
    Cursor<ByteBuffer> c = cursors[i];
    for (int s = 0; s < STEPS; s++) {
      if (compare(c.val(), target) >= 0) {
        return true;
      }
      if (!c.seek(SeekOp.MDB_NEXT_DUP)) {
        return false;
      }
    }
    return compare(c.val(), target) >= 0
        || c.get(keys[i], target, SeekOp.MDB_GET_BOTH_RANGE);
  }

  /** Compares two keys as LMDB orders duplicates: unsigned bytes, shorter first. */
  static int compare(ByteBuffer a, ByteBuffer b) {
    int at = a.mismatch(b);
    if (at < 0) {
      return 0;
    }
    if (at == a.remaining() || at == b.remaining()) {
      return a.remaining() - b.remaining();
    }
    return (a.get(a.position() + at) & 0xff) - (b.get(b.position() + at) & 0xff);
  }

  private static String text(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(b.position(), a);
    return new String(a, StandardCharsets.UTF_8);
  }
}
