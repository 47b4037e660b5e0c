package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/**
 * A durable store in LMDB (through lmdbjava, the engine of slapd's back-mdb): one file of
 * B+trees, copy-on-write, whose commit returns once the change is on disk, and whose readers
 * read a snapshot from mapped memory without locks. Four trees, as slapd's back-mdb keeps
 * an entry id in its postings rather than a DN:
 *
 * <ul>
 *   <li>{@code entries}: DN key (UTF-8) to the entry as {@link StoredEntry} encodes it, then
 *       a trailer: the id of each attribute's type (2 bytes each), the number of attributes,
 *       of public and of user ones (2 bytes each), the encoding's size (4 bytes) and the
 *       entry's id (8 bytes, big-endian);
 *   <li>{@code dns}: entry id (8 bytes, big-endian) to DN key;
 *   <li>{@code idPostings}: index key to entry ids, sorted duplicates of a fixed size
 *       ({@code MDB_DUPFIXED}), which LMDB packs 8 bytes each into pages of their own;
 *   <li>{@code meta}: the format, the schema's fingerprint, what is indexed, and the type ids.
 * </ul>
 *
 * <p>Ids are given in increasing order and never again while the store lives (the next is one
 * past the greatest in {@code dns} when the store is opened). A store of the first format,
 * whose {@code postings} held DN keys, is converted when opened, in one change.
 *
 * <p>A search reads an entry where LMDB maps it: the whole-entry answer is one copy from the
 * map into the connection's buffer. Keys are at most 511 bytes in LMDB: a DN whose key is
 * longer is refused; index keys are cut ({@link IndexKeys}).
 */
final class LmdbStore implements Store {
  /** Address space reserved for the map: what the store may grow to. */
  static final long DEFAULT_MAX_BYTES = 16L << 30;
  static final int MAX_READERS = 16_384;
  static final int MAX_KEY_BYTES = 511;
  static final String FORMAT = "ferry-ldap-2";
  /** The first format: postings of DN keys in a tree {@code postings}, entries without ids. */
  static final String FORMAT_DN_POSTINGS = "ferry-ldap-1";
  private static final String DN_POSTINGS = "postings";
  private static final int SCRATCH_BYTES = 16 * 1024;

  final Env<ByteBuffer> env;
  final Dbi<ByteBuffer> entries;
  final Dbi<ByteBuffer> dns;
  final Dbi<ByteBuffer> postings;
  final Dbi<ByteBuffer> meta;
  final Schema schema;
  final Path directory;
  private final Map<String, Integer> typeIds = new ConcurrentHashMap<>();
  private volatile AttributeType[] types = new AttributeType[0];
  /** Type ids given out but not yet committed (a change that used them was dropped). */
  final Set<Integer> unsaved = ConcurrentHashMap.newKeySet();
  private final ConcurrentLinkedQueue<ByteBuffer> scratch = new ConcurrentLinkedQueue<>();
  /** The greatest id given out (committed or not). */
  private final AtomicLong lastId = new AtomicLong();

  private LmdbStore(Path directory, Env<ByteBuffer> env, Schema schema) {
    this.directory = directory;
    this.env = env;
    this.schema = schema;
    this.entries = env.openDbi("entries", DbiFlags.MDB_CREATE);
    this.dns = env.openDbi("dns", DbiFlags.MDB_CREATE);
    this.postings = env.openDbi("idPostings", DbiFlags.MDB_CREATE, DbiFlags.MDB_DUPSORT,
        DbiFlags.MDB_DUPFIXED);
    this.meta = env.openDbi("meta", DbiFlags.MDB_CREATE);
  }

  /**
   * Opens (or makes) the store in {@code directory} for {@code schema} and {@code indexes}: a
   * store made under other indexes is indexed again, in one change.
   *
   * @throws IOException if the directory cannot be made, the store is of another format or
   *     schema, or the JVM does not let the engine reach direct buffers
   */
  static LmdbStore open(Path directory, long maxBytes, Schema schema, Indexes indexes)
      throws IOException {
    LmdbStore store = open(directory, maxBytes, schema, false);
    try {
      store.check(indexes);
      return store;
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
  }

  /** Opens a store to read it only (an export beside a running server). */
  static LmdbStore openReadOnly(Path directory, Schema schema) throws IOException {
    if (!Files.isRegularFile(directory.resolve("data.mdb"))) {
      throw new IOException("no directory store in " + directory);
    }
    LmdbStore store = open(directory, DEFAULT_MAX_BYTES, schema, true);
    String format;
    try (Txn<ByteBuffer> t = store.env.txnRead()) {
      format = store.text(t, "format");
    }
    if (format != null && !format.equals(FORMAT)) {
      store.close();
      throw new IOException("the store in " + directory + " is of format " + format
          + " (expected: " + FORMAT + "): open it once with ferry ldap serve or import, which"
          + " convert a store of " + FORMAT_DN_POSTINGS + ", then export it");
    }
    return store;
  }

  private static LmdbStore open(Path directory, long maxBytes, Schema schema, boolean readOnly)
      throws IOException {
    Env<ByteBuffer> env;
    try {
      Files.createDirectories(directory);
      Env.Builder<ByteBuffer> b = Env.create().setMapSize(maxBytes).setMaxDbs(5)
          .setMaxReaders(MAX_READERS);
      env = readOnly ? b.open(directory.toFile(), EnvFlags.MDB_NOTLS, EnvFlags.MDB_RDONLY_ENV)
          : b.open(directory.toFile(), EnvFlags.MDB_NOTLS);
    } catch (ExceptionInInitializerError | IllegalAccessError | NoClassDefFoundError e) {
      throw new IOException("the directory store needs the JVM options --add-opens"
          + " java.base/java.nio=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED",
          e);
    } catch (LmdbException e) {
      throw new IOException("cannot open the directory store in " + directory + ": "
          + e.getMessage(), e);
    }
    try {
      if (readOnly && !hasIds(env)) {
        env.close();
        throw new IOException("the store in " + directory + " is of format "
            + FORMAT_DN_POSTINGS + " (expected: " + FORMAT + "): open it once with ferry ldap"
            + " serve or import, which convert it, then export it");
      }
      LmdbStore store = new LmdbStore(directory, env, schema);
      store.loadTypes();
      store.loadLastId();
      return store;
    } catch (LmdbException e) {
      env.close();
      throw new IOException("cannot open the directory store in " + directory + ": "
          + e.getMessage(), e);
    }
  }

  /** True if the store holds entry ids (it has the tree of DNs by id, or nothing yet). */
  private static boolean hasIds(Env<ByteBuffer> env) {
    List<byte[]> names = env.getDbiNames();
    return names.isEmpty() || names.stream().anyMatch(n -> Arrays.equals(n, utf8("dns")));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Checks the format and schema, and indexes again if the indexes are not those kept; a
   * store of the first format is converted first, in the same change.
   */
  private void check(Indexes indexes) throws IOException {
    String fingerprint = fingerprint(schema);
    String format;
    String keptSchema;
    String keptIndexes;
    try (Txn<ByteBuffer> t = env.txnRead()) {
      format = text(t, "format");
      keptSchema = text(t, "schema");
      keptIndexes = text(t, "indexes");
    }
    boolean convert = FORMAT_DN_POSTINGS.equals(format);
    if (format != null && !format.equals(FORMAT) && !convert) {
      throw new IOException("the store in " + directory + " is of format " + format
          + ", which this version cannot read (expected: " + FORMAT + "): export it with the"
          + " version that made it and import the LDIF (ferry ldap import)");
    }
    if (keptSchema != null && !keptSchema.equals(fingerprint)) {
      throw new IOException("the store in " + directory + " was made with another schema:"
          + " export it under that schema and import the LDIF under this one");
    }
    if (format != null && !convert && indexes.description().equals(keptIndexes)) {
      return;
    }
    Dbi<ByteBuffer> dnPostings = convert ? env.openDbi(DN_POSTINGS, DbiFlags.MDB_DUPSORT) : null;
    try (LmdbWrite w = new LmdbWrite(this)) {
      if (convert) {
        giveIds(w);
        dnPostings.drop(w.txn, true);
      }
      w.putText("format", FORMAT);
      w.putText("schema", fingerprint);
      w.putText("indexes", indexes.description());
      indexes.reindex(w);
      w.commit();
    }
  }

  /**
   * Gives every entry of a store of the first format an id, in key order: its value gets the
   * id after its trailer, and {@code dns} the id's key.
   */
  private void giveIds(LmdbWrite w) {
    ByteBuffer key = ByteBuffer.allocateDirect(MAX_KEY_BYTES);
    ByteBuffer id = ByteBuffer.allocateDirect(Long.BYTES);
    ByteBuffer value = ByteBuffer.allocateDirect(SCRATCH_BYTES);
    try (Cursor<ByteBuffer> c = entries.openCursor(w.txn)) {
      for (boolean on = c.first(); on; on = c.next()) {
        // copies of both: a put may move what LMDB maps on a page this change wrote
        key.clear().put(c.key()).flip();
        ByteBuffer old = c.val();
        if (value.capacity() < old.remaining() + Long.BYTES) {
          value = ByteBuffer.allocateDirect(old.remaining() + Long.BYTES);
        }
        long next = lastId.incrementAndGet();
        value.clear().put(old).putLong(next).flip();
        c.put(key, value, PutFlags.MDB_CURRENT);
        dns.put(w.txn, id.clear().putLong(0, next), key);
      }
    } catch (LmdbException e) {
      throw failure(e);
    }
  }

  /** The next entry id. */
  long nextId() {
    return lastId.incrementAndGet();
  }

  private void loadLastId() {
    try (Txn<ByteBuffer> t = env.txnRead(); var c = dns.openCursor(t)) {
      lastId.set(c.last() ? c.key().order(ByteOrder.BIG_ENDIAN).getLong(0) : 0);
    }
  }

  private String text(Txn<ByteBuffer> t, String key) {
    ByteBuffer v = meta.get(t, key(key));
    return v == null ? null : StandardCharsets.UTF_8.decode(v).toString();
  }

  /** A digest of the attribute types, classes and rules: what keys and matching depend on. */
  private static String fingerprint(Schema schema) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      for (dev.ferry.ldap.Attribute a : schema.subschemaAttributes()) {
        for (ByteString v : a.values()) {
          md.update(v.toByteArray());
          md.update((byte) 0);
        }
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private void loadTypes() {
    Map<Integer, String> found = new HashMap<>();
    try (Txn<ByteBuffer> t = env.txnRead(); var c = meta.openCursor(t)) {
      ByteBuffer prefix = key("type/");
      if (c.get(prefix, org.lmdbjava.GetOp.MDB_SET_RANGE)) {
        do {
          String k = StandardCharsets.UTF_8.decode(c.key()).toString();
          if (!k.startsWith("type/")) {
            break;
          }
          found.put(Integer.parseInt(k.substring(5)),
              StandardCharsets.UTF_8.decode(c.val()).toString());
        } while (c.next());
      }
    }
    AttributeType[] byId = new AttributeType[found.size()];
    for (Map.Entry<Integer, String> e : found.entrySet()) {
      byId[e.getKey()] = schema.type(e.getValue());
      typeIds.put(e.getValue(), e.getKey());
    }
    types = byId;
  }

  /** The id of a type, given out now if it has none (the caller saves it with its change). */
  int typeId(AttributeType t) {
    Integer id = typeIds.get(t.oid);
    if (id != null) {
      return id;
    }
    synchronized (this) { // one writer at a time anyway; readers never give out ids
      id = typeIds.get(t.oid);
      if (id == null) {
        AttributeType[] now = types;
        if (now.length == 0xFFFF) {
          throw new StoreException("the store holds 65,535 attribute types", true, null);
        }
        AttributeType[] next = java.util.Arrays.copyOf(now, now.length + 1);
        next[now.length] = t;
        id = now.length;
        types = next;
        typeIds.put(t.oid, id);
        unsaved.add(id);
      }
      return id;
    }
  }

  AttributeType type(int id) {
    return types[id];
  }

  /** A direct buffer holding {@code text}, for a key. */
  static ByteBuffer key(String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocateDirect(b.length).put(b).flip();
  }

  ByteBuffer takeScratch() {
    ByteBuffer b = scratch.poll();
    return b != null ? b.clear() : ByteBuffer.allocateDirect(SCRATCH_BYTES);
  }

  void giveScratch(ByteBuffer b) {
    if (b.capacity() == SCRATCH_BYTES) {
      scratch.offer(b);
    }
  }

  /** Fails unless {@code key} fits LMDB's keys. */
  static void checkKey(int bytes, String what) {
    if (bytes > MAX_KEY_BYTES) {
      throw new StoreException(what + " is " + bytes + " bytes as a key (expected: at most "
          + MAX_KEY_BYTES + " in a durable store)", true, null);
    }
  }

  static StoreException failure(LmdbException e) {
    boolean full = e instanceof Env.MapFullException;
    return new StoreException(full ? "the directory store is full (its size limit is reached)"
        : "the directory store failed: " + e.getMessage(), full, e);
  }

  @Override
  public Read read() {
    try {
      return new LmdbRead(this, env.txnRead());
    } catch (LmdbException e) {
      throw failure(e);
    }
  }

  @Override
  public Write write() {
    try {
      return new LmdbWrite(this);
    } catch (LmdbException e) {
      throw failure(e);
    }
  }

  @Override
  public void close() {
    if (!env.isClosed()) {
      env.close();
    }
  }
}
