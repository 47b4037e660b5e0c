package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;
import org.lmdbjava.SeekOp;
import org.lmdbjava.Txn;

/**
 * A read of an {@link LmdbStore}: one LMDB transaction, a snapshot of the store as it was when
 * the read began. Entries are views of the map ({@link StoredEntry#view}), valid until {@link
 * #close}; keys go to LMDB through a direct buffer of the read's own.
 */
class LmdbRead implements Store.Read {
  /**
   * After the encoding: a type id per attribute (2 bytes), then counts 2 + 2 + 2, size 4 and
   * the entry's id 8.
   */
  static final int TRAILER_BYTES = 18;
  private static final int BUFFER_BYTES = 1024;

  final LmdbStore store;
  final Txn<ByteBuffer> txn;
  private final ByteBuffer keyBuffer;
  private final ByteBuffer valueBuffer;
  private final ByteBuffer scratch;
  /** Where the scratch after the key and value buffers is free, for {@link #hold}. */
  private int held = 2 * BUFFER_BYTES;
  private final List<Cursor<ByteBuffer>> cursors = new ArrayList<>();
  private Cursor<ByteBuffer> entryCursor;
  private Cursor<ByteBuffer> postingCursor;

  LmdbRead(LmdbStore store, Txn<ByteBuffer> txn) {
    this.store = store;
    this.txn = txn;
    this.scratch = store.takeScratch();
    this.keyBuffer = scratch.slice(0, BUFFER_BYTES);
    this.valueBuffer = scratch.slice(BUFFER_BYTES, BUFFER_BYTES);
  }

  // --- keys --------------------------------------------------------------------------------------

  /** {@code bytes} in this read's key buffer, cut to LMDB's key size. */
  final ByteBuffer key(byte[] bytes) {
    return fill(keyBuffer, bytes);
  }

  final ByteBuffer value(byte[] bytes) {
    return fill(valueBuffer, bytes);
  }

  /** An index key in this read's key buffer (index keys fit LMDB's keys: {@link IndexKeys}). */
  final ByteBuffer key(ByteString indexKey) {
    return keyBuffer.clear().put(indexKey.asByteBuffer()).flip();
  }

  private static ByteBuffer fill(ByteBuffer b, byte[] bytes) {
    int n = Math.min(bytes.length, LmdbStore.MAX_KEY_BYTES);
    return b.clear().put(bytes, 0, n).flip();
  }

  /**
   * An index key in a direct buffer of its own until the read ends, for a cursor that seeks
   * under it again and again: taken from the read's scratch while it lasts.
   */
  private ByteBuffer hold(ByteString indexKey) {
    int n = indexKey.size();
    return hold(n).put(0, indexKey.asByteBuffer(), 0, n);
  }

  /** {@code n} bytes of direct memory until the read ends. */
  private ByteBuffer hold(int n) {
    if (held + n <= scratch.capacity()) {
      ByteBuffer b = scratch.slice(held, n);
      held += n;
      return b;
    }
    return ByteBuffer.allocateDirect(n);
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String text(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(b.position(), a);
    return new String(a, StandardCharsets.UTF_8);
  }

  /** Compares a key LMDB holds with {@code bytes}, as LMDB does: unsigned, shorter first. */
  static int compare(ByteBuffer key, byte[] bytes) {
    int n = Math.min(key.remaining(), bytes.length);
    int p = key.position();
    for (int i = 0; i < n; i++) {
      int c = (key.get(p + i) & 0xff) - (bytes[i] & 0xff);
      if (c != 0) {
        return c;
      }
    }
    return key.remaining() - bytes.length;
  }

  // --- entries -----------------------------------------------------------------------------------

  /** The entry LMDB holds at {@code value} (mapped memory), under {@code key}. */
  StoredEntry entry(String key, ByteBuffer value) {
    int end = value.limit() - Long.BYTES;
    int size = value.getInt(end - 4);
    int userCount = value.getShort(end - 6) & 0xffff;
    int publicCount = value.getShort(end - 8) & 0xffff;
    int n = value.getShort(end - 10) & 0xffff;
    AttributeType[] types = new AttributeType[n];
    for (int i = 0, p = size; i < n; i++, p += 2) {
      types[i] = store.type(value.getShort(p) & 0xffff);
    }
    return StoredEntry.view(key, value.slice(0, size), types, publicCount, userCount,
        store.schema);
  }

  @Override
  public StoredEntry get(String key) {
    byte[] k = utf8(key);
    if (k.length > LmdbStore.MAX_KEY_BYTES) {
      return null; // never stored
    }
    try {
      ByteBuffer v = store.entries.get(txn, key(k));
      return v == null ? null : entry(key, v.slice());
    } catch (LmdbException e) {
      throw LmdbStore.failure(e);
    }
  }

  /** The id at the end of an entry's value. */
  static long id(ByteBuffer value) {
    return value.order(ByteOrder.BIG_ENDIAN).getLong(value.limit() - Long.BYTES);
  }

  @Override
  public long id(String key) {
    byte[] k = utf8(key);
    if (k.length > LmdbStore.MAX_KEY_BYTES) {
      return 0;
    }
    try {
      ByteBuffer v = store.entries.get(txn, key(k));
      return v == null ? 0 : id(v);
    } catch (LmdbException e) {
      throw LmdbStore.failure(e);
    }
  }

  @Override
  public StoredEntry entry(long id) {
    try {
      ByteBuffer dn = store.dns.get(txn, idKey(id));
      if (dn == null) {
        return null;
      }
      ByteBuffer k = keyBuffer.clear().put(dn).flip();
      String key = text(k);
      ByteBuffer v = store.entries.get(txn, k);
      return v == null ? null : entry(key, v.slice());
    } catch (LmdbException e) {
      throw LmdbStore.failure(e);
    }
  }

  /** {@code id} in this read's key buffer. */
  final ByteBuffer idKey(long id) {
    return keyBuffer.clear().putLong(id).flip();
  }

  /** {@code id} in this read's value buffer. */
  final ByteBuffer idValue(long id) {
    return valueBuffer.clear().putLong(id).flip();
  }

  @Override
  public StoredEntry ceiling(String key) {
    try {
      if (entryCursor == null) {
        entryCursor = open(store.entries);
      }
      byte[] k = utf8(key);
      if (!seekCeiling(entryCursor, k)) {
        return null;
      }
      return entry(text(entryCursor.key()), entryCursor.val().slice());
    } catch (LmdbException e) {
      throw LmdbStore.failure(e);
    }
  }

  /** Places {@code c} on the first key at or after {@code k}; false if there is none. */
  private boolean seekCeiling(Cursor<ByteBuffer> c, byte[] k) {
    if (k.length == 0) {
      return c.first(); // LMDB takes no empty key
    }
    if (!c.get(key(k), GetOp.MDB_SET_RANGE)) {
      return false;
    }
    while (k.length > LmdbStore.MAX_KEY_BYTES && compare(c.key(), k) < 0) {
      if (!c.next()) { // the search key was cut: step past the shorter keys it matched
        return false;
      }
    }
    return true;
  }

  @Override
  public Iterator<StoredEntry> entries(String from, boolean inclusive, String end) {
    Cursor<ByteBuffer> c = open(store.entries);
    byte[] f = from == null ? null : utf8(from);
    byte[] e = end == null ? null : utf8(end);
    boolean found = f == null ? c.first() : seekCeiling(c, f);
    if (found && f != null && !inclusive && compare(c.key(), f) == 0) {
      found = c.next();
    }
    boolean start = found;
    return new Walk<>(c, start) {
      @Override
      boolean step() {
        return c.next();
      }

      @Override
      StoredEntry current() {
        return e != null && compare(c.key(), e) >= 0 ? null
            : entry(text(c.key()), c.val().slice());
      }
    };
  }

  @Override
  public long entryCount() {
    try {
      return store.entries.stat(txn).entries;
    } catch (LmdbException e) {
      throw LmdbStore.failure(e);
    }
  }

  // --- postings ----------------------------------------------------------------------------------

  private Cursor<ByteBuffer> postingCursor() {
    if (postingCursor == null) {
      postingCursor = open(store.postings);
    }
    return postingCursor;
  }

  @Override
  public long postingSize(ByteString indexKey) {
    Cursor<ByteBuffer> c = postingCursor();
    return c.get(key(indexKey), GetOp.MDB_SET) ? c.count() : 0;
  }

  @Override
  public boolean isPosted(ByteString indexKey, long id) {
    try {
      return postingCursor().get(key(indexKey), idValue(id), SeekOp.MDB_GET_BOTH);
    } catch (LmdbException e) {
      throw LmdbStore.failure(e);
    }
  }

  @Override
  public PrimitiveIterator.OfLong posted(List<ByteString> indexKeys, long after) {
    ByteBuffer[] keys = new ByteBuffer[indexKeys.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = hold(indexKeys.get(i));
    }
    try {
      return new LmdbPostingJoin(this, keys, hold(Long.BYTES), after);
    } catch (LmdbException e) {
      throw LmdbStore.failure(e);
    }
  }

  @Override
  public Iterator<ByteString> indexKeys(ByteString from, ByteString to, boolean toInclusive) {
    Cursor<ByteBuffer> c = open(store.postings);
    byte[] t = to.toByteArray();
    boolean found = seekCeiling(c, from.toByteArray());
    return new Walk<>(c, found) {
      @Override
      boolean step() {
        return c.seek(SeekOp.MDB_NEXT_NODUP);
      }

      @Override
      ByteString current() {
        int cmp = compare(c.key(), t);
        if (cmp > 0 || (cmp == 0 && !toInclusive)) {
          return null;
        }
        byte[] k = new byte[c.key().remaining()];
        c.key().get(c.key().position(), k);
        return ByteString.takeOwnership(k);
      }
    };
  }

  // --- cursors -----------------------------------------------------------------------------------

  final Cursor<ByteBuffer> open(Dbi<ByteBuffer> dbi) {
    try {
      Cursor<ByteBuffer> c = dbi.openCursor(txn);
      cursors.add(c);
      return c;
    } catch (LmdbException e) {
      throw LmdbStore.failure(e);
    }
  }

  /** A cursor's walk: {@link #current} is the item it is on, or null past the end. */
  private abstract static class Walk<T> implements Iterator<T> {
    private boolean on;
    private T next;

    Walk(Cursor<ByteBuffer> cursor, boolean on) {
      this.on = on;
    }

    abstract boolean step();

    abstract T current();

    @Override
    public boolean hasNext() {
      if (next == null && on) {
        next = current();
        on = next != null;
      }
      return next != null;
    }

    @Override
    public T next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      T t = next;
      next = null;
      on = step();
      return t;
    }
  }

  void closeCursors() {
    for (Cursor<ByteBuffer> c : cursors) {
      c.close();
    }
    cursors.clear();
    entryCursor = null;
    postingCursor = null;
  }

  @Override
  public void close() {
    try {
      closeCursors();
      txn.close();
    } finally {
      held = 2 * BUFFER_BYTES;
      store.giveScratch(scratch);
    }
  }
}
