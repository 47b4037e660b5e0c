package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;

/**
 * A change of an {@link LmdbStore}: LMDB's one write transaction, whose commit returns once
 * the change is on disk, or a transaction nested in one ({@link #nested}), whose commit merges
 * it into its parent without touching the disk. Entries it returns are held in memory of their
 * own (a change may free the pages it read), and new attribute types get their ids saved in the
 * same transaction.
 */
final class LmdbWrite extends LmdbRead implements Store.Write {
  /** The change this one is nested in, or null for the outermost. */
  private final LmdbWrite parent;
  private final List<Integer> savedIds = new ArrayList<>();
  /**
   * The id given to the entry this change put last, if it was new: greater than every id the
   * store holds, so it goes at the end of {@code dns} and of each posting it is filed in, and
   * LMDB is told so (it then fills pages instead of splitting them in half, as slapadd -q).
   */
  private long fresh;

  LmdbWrite(LmdbStore store) {
    super(store, store.env.txnWrite());
    this.parent = null;
  }

  private LmdbWrite(LmdbWrite parent) {
    super(parent.store, parent.store.env.txn(parent.txn));
    this.parent = parent;
  }

  @Override
  public Store.Write nested() {
    closeCursors(); // LMDB: a parent's cursors are not used while a child is open
    try {
      return new LmdbWrite(this);
    } catch (LmdbException x) {
      throw LmdbStore.failure(x);
    }
  }

  @Override
  StoredEntry entry(String key, ByteBuffer value) {
    return super.entry(key, value).detached();
  }

  @Override
  public long put(StoredEntry e) {
    byte[] k = utf8(e.key);
    LmdbStore.checkKey(k.length, "the DN " + e.dnText());
    int n = e.attributeCount();
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = store.typeId(e.type(i));
      if (store.unsaved.contains(ids[i]) && !saves(ids[i])) {
        putText("type/" + ids[i], e.type(i).oid);
        savedIds.add(ids[i]);
      }
    }
    try {
      ByteBuffer old = store.entries.get(txn, key(k));
      long id = old != null ? id(old) : store.nextId();
      ByteBuffer v = store.entries.reserve(txn, key(k), e.size + 2 * n + TRAILER_BYTES)
          .order(ByteOrder.BIG_ENDIAN);
      int p = 0;
      v.put(0, e.bytes(), 0, e.size);
      p += e.size;
      for (int t : ids) {
        v.putShort(p, (short) t);
        p += 2;
      }
      v.putShort(p, (short) n);
      v.putShort(p + 2, (short) e.publicCount);
      v.putShort(p + 4, (short) e.userCount);
      v.putInt(p + 6, e.size);
      v.putLong(p + 10, id);
      if (old == null) {
        store.dns.put(txn, idKey(id), value(k), PutFlags.MDB_APPEND);
        fresh = id;
      }
      return id;
    } catch (LmdbException x) {
      throw LmdbStore.failure(x);
    }
  }

  @Override
  public void remove(String key) {
    byte[] k = utf8(key);
    try {
      ByteBuffer old = k.length <= LmdbStore.MAX_KEY_BYTES ? store.entries.get(txn, key(k))
          : null;
      if (old != null) {
        store.dns.delete(txn, idKey(id(old)));
        store.entries.delete(txn, key(k));
      }
    } catch (LmdbException x) {
      throw LmdbStore.failure(x);
    }
  }

  @Override
  public void post(ByteString indexKey, long id) {
    try {
      if (id == fresh) {
        store.postings.put(txn, key(indexKey), idValue(id), PutFlags.MDB_APPENDDUP);
      } else {
        store.postings.put(txn, key(indexKey), idValue(id));
      }
    } catch (LmdbException x) {
      throw LmdbStore.failure(x);
    }
  }

  @Override
  public void unpost(ByteString indexKey, long id) {
    try {
      store.postings.delete(txn, key(indexKey), idValue(id));
    } catch (LmdbException x) {
      throw LmdbStore.failure(x);
    }
  }

  @Override
  public void clearPostings() {
    try {
      store.postings.drop(txn);
    } catch (LmdbException x) {
      throw LmdbStore.failure(x);
    }
  }

  void putText(String key, String value) {
    try {
      store.meta.put(txn, key(utf8(key)), LmdbStore.key(value)); // any length
    } catch (LmdbException x) {
      throw LmdbStore.failure(x);
    }
  }

  /** True if this change or one it is nested in saves the type id {@code id}. */
  private boolean saves(int id) {
    return savedIds.contains(id) || (parent != null && parent.saves(id));
  }

  @Override
  public void commit() {
    closeCursors();
    try {
      txn.commit();
    } catch (LmdbException x) {
      throw LmdbStore.failure(x);
    }
    if (parent != null) {
      parent.savedIds.addAll(savedIds); // saved once the outermost change commits
    } else {
      store.unsaved.removeAll(savedIds);
    }
  }
}
