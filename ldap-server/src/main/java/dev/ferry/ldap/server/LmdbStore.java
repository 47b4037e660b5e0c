package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.LmdbException;
import org.lmdbjava.Txn;

/**
 * A durable store in LMDB (through lmdbjava, the engine of slapd's back-mdb): one file of
 * B+trees, copy-on-write, whose commit returns once the change is on disk, and whose readers
 * read a snapshot from mapped memory without locks. Three trees:
 *
 * <ul>
 *   <li>{@code entries}: DN key (UTF-8) to the entry as {@link StoredEntry} encodes it, then
 *       a trailer: the id of each attribute's type (2 bytes each), the number of attributes,
 *       of public and of user ones (2 bytes each) and the encoding's size (4 bytes);
 *   <li>{@code postings}: index key to entry keys (sorted duplicates);
 *   <li>{@code meta}: the format, the schema's fingerprint, what is indexed, and the type ids.
 * </ul>
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
  private static final String FORMAT = "ferry-ldap-1";
  private static final int SCRATCH_BYTES = 16 * 1024;

  final Env<ByteBuffer> env;
  final Dbi<ByteBuffer> entries;
  final Dbi<ByteBuffer> postings;
  final Dbi<ByteBuffer> meta;
  final Schema schema;
  final Path directory;
  private final Map<String, Integer> typeIds = new ConcurrentHashMap<>();
  private volatile AttributeType[] types = new AttributeType[0];
  /** Type ids given out but not yet committed (a change that used them was dropped). */
  final Set<Integer> unsaved = ConcurrentHashMap.newKeySet();
  private final ConcurrentLinkedQueue<ByteBuffer> scratch = new ConcurrentLinkedQueue<>();

  private LmdbStore(Path directory, Env<ByteBuffer> env, Schema schema) {
    this.directory = directory;
    this.env = env;
    this.schema = schema;
    this.entries = env.openDbi("entries", DbiFlags.MDB_CREATE);
    this.postings = env.openDbi("postings", DbiFlags.MDB_CREATE, DbiFlags.MDB_DUPSORT);
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
    return open(directory, DEFAULT_MAX_BYTES, schema, true);
  }

  private static LmdbStore open(Path directory, long maxBytes, Schema schema, boolean readOnly)
      throws IOException {
    Env<ByteBuffer> env;
    try {
      Files.createDirectories(directory);
      Env.Builder<ByteBuffer> b = Env.create().setMapSize(maxBytes).setMaxDbs(3)
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
      LmdbStore store = new LmdbStore(directory, env, schema);
      store.loadTypes();
      return store;
    } catch (LmdbException e) {
      env.close();
      throw new IOException("cannot open the directory store in " + directory + ": "
          + e.getMessage(), e);
    }
  }

  /** Checks the format and schema, and indexes again if the indexes are not those kept. */
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
    if (format != null && !format.equals(FORMAT)) {
      throw new IOException("the store in " + directory + " is of format " + format
          + " (expected: " + FORMAT + ")");
    }
    if (keptSchema != null && !keptSchema.equals(fingerprint)) {
      throw new IOException("the store in " + directory + " was made with another schema:"
          + " export it under that schema and import the LDIF under this one");
    }
    if (format != null && indexes.description().equals(keptIndexes)) {
      return;
    }
    try (LmdbWrite w = new LmdbWrite(this)) {
      w.putText("format", FORMAT);
      w.putText("schema", fingerprint);
      w.putText("indexes", indexes.description());
      w.clearPostings();
      for (var it = w.entries(null, true, null); it.hasNext(); ) {
        indexes.add(w, it.next());
      }
      w.commit();
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
