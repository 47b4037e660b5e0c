package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.util.Iterator;
import java.util.List;
import java.util.PrimitiveIterator;

/**
 * Where a directory's entries and their index postings live: {@link MemoryStore} (in memory,
 * for tests and small directories) or {@link LmdbStore} (durable, in LMDB). Entries are keyed by
 * their DN key ({@link Schema#normalize}) and walked in key order, so that a subtree is one
 * range of keys. Each entry also has an id, a positive number the store gives it when it is
 * first put and keeps through its changes (never given to another entry while it lives); a
 * posting is the set of ids one index key names, in id order, as slapd's back-mdb keeps them.
 *
 * <p>Every read goes through a {@link Read} that sees the store as it was when the read began
 * (a durable store) or as it is (in memory, where each entry is seen before or after a change to
 * it); entries it returns are valid until it is closed. Changes go through a {@link Write}, one
 * at a time, and are seen by reads begun after {@link Write#commit}, which returns once the
 * change is durable. A write holds {@link Write#nested} changes, so that the changes of many
 * clients are committed together and each can still fail alone ({@link GroupCommit}).
 */
interface Store extends AutoCloseable {
  Read read();

  /** Begins a change; the caller holds the directory's write lock. */
  Write write();

  @Override
  void close();

  /** A read of the store. */
  interface Read extends AutoCloseable {
    StoredEntry get(String key);

    /** The id of the entry of {@code key}, or 0 if there is none. */
    long id(String key);

    /** The entry whose id is {@code id}, or null if there is none. */
    StoredEntry entry(long id);

    /** The first entry whose key is {@code key} or after it, or null. */
    StoredEntry ceiling(String key);

    /**
     * The entries from {@code from} (the first if null; itself only if {@code inclusive}) and
     * before {@code end} (no bound if null), in key order.
     */
    Iterator<StoredEntry> entries(String from, boolean inclusive, String end);

    long entryCount();

    /** The number of ids posted under {@code indexKey}. */
    long postingSize(ByteString indexKey);

    boolean isPosted(ByteString indexKey, long id);

    /**
     * The ids posted under every one of {@code indexKeys} (one at least) that are greater
     * than {@code after} (0: all), in increasing order.
     */
    PrimitiveIterator.OfLong posted(List<ByteString> indexKeys, long after);

    /**
     * The index keys from {@code from} (inclusive) up to {@code to} (inclusive if {@code
     * toInclusive}), in order, that have postings.
     */
    Iterator<ByteString> indexKeys(ByteString from, ByteString to, boolean toInclusive);

    @Override
    void close();
  }

  /** A change of the store: reads see it; others see it once committed. */
  interface Write extends Read {
    /**
     * Puts an entry held in memory ({@link StoredEntry#isHeld}), replacing one of its key,
     * whose id it keeps; returns the entry's id.
     */
    long put(StoredEntry e);

    void remove(String key);

    void post(ByteString indexKey, long id);

    void unpost(ByteString indexKey, long id);

    /** Removes every posting (the indexes are then made again). */
    void clearPostings();

    /**
     * Begins a change inside this one, which it reads through: its commit makes it part of
     * this change (visible and durable with this one's commit), and its close without a commit
     * drops what it did and nothing else. This change is not used until it is closed.
     */
    Write nested();

    /**
     * Makes the change visible and, in a durable store, durable before it returns; a nested
     * change becomes part of the change it is in.
     */
    void commit();

    /** Ends the change; without a commit, nothing of it is kept. */
    @Override
    void close();
  }
}
