package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.SearchScope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

/**
 * A store of the first format ({@value LmdbStore#FORMAT_DN_POSTINGS}: postings of DN keys in a
 * tree {@code postings}, entries without ids) is converted when opened: the same entries, each
 * with an id, postings of ids, the old tree gone; an export refuses it until then, and a store
 * of a format this version does not know is refused saying how to move its data.
 */
class StoreFormatTest {
  private static final String BASE = DirectoryGenerator.SUFFIX;
  private static final List<String> FILTERS = List.of("(objectClass=person)", "(cn=*a*)",
      "(&(objectClass=inetOrgPerson)(sn=*e*))", "(uidNumber>=1500)", "(description=*x*)");

  @TempDir
  Path temp;

  private LdapServer.Builder durable(Path store) throws IOException {
    return IndexTest.indexed(LdapServer.builder()).suffix(BASE).schema(IndexTest.schema())
        .rootDn("cn=admin," + BASE, "secret").storage(store, 1L << 30);
  }

  @Test
  void aStoreOfTheFirstFormatIsConvertedWhenOpened() throws Exception {
    Path store = temp.resolve("store");
    List<LdifRecord.Entry> records = new ArrayList<>(new DirectoryGenerator(3405)
        .directory(300));
    records.add(new LdifRecord.Entry("cn=large," + BASE, List.of(
        Attribute.of("objectClass", "device"), Attribute.of("cn", "large"),
        Attribute.of("description", "x".repeat(40_000))))); // on pages of its own in LMDB
    List<LdifRecord.Entry> before;
    Map<String, Set<String>> found;
    try (LdapServer s = durable(store).records(records).start()) {
      before = s.entries();
      found = search(s);
    }
    toFirstFormat(store);
    IOException refused = assertThrows(IOException.class, () -> LdapServer.exportLdif(store,
        new ByteArrayOutputStream()));
    assertTrue(refused.getMessage().contains("open it once with ferry ldap serve or import"),
        refused.getMessage());

    try (LdapServer s = durable(store).start()) {
      assertEquals(before, s.entries());
      assertEquals(List.of(), StoreCheck.problems(s.dsa())); // ids and postings agree
      assertEquals(found, search(s));
    }
    try (Env<ByteBuffer> env = open(store)) {
      assertFalse(names(env).contains("postings"), names(env).toString());
      Dbi<ByteBuffer> meta = env.openDbi("meta");
      try (Txn<ByteBuffer> t = env.txnRead()) {
        assertEquals(LmdbStore.FORMAT, text(meta, t, "format"));
      }
    }
    try (LdapServer s = durable(store).start()) { // opened again: nothing more to convert
      assertEquals(before, s.entries());
    }
  }

  @Test
  void aStoreOfAnUnknownFormatIsRefusedSayingWhatToDo() throws Exception {
    Path store = temp.resolve("store");
    durable(store).start().close();
    try (Env<ByteBuffer> env = open(store)) {
      Dbi<ByteBuffer> meta = env.openDbi("meta");
      try (Txn<ByteBuffer> t = env.txnWrite()) {
        meta.put(t, direct("format"), direct("ferry-ldap-9"));
        t.commit();
      }
    }
    IOException e = assertThrows(IOException.class, () -> durable(store).start());
    assertTrue(e.getMessage().contains("format ferry-ldap-9")
        && e.getMessage().contains("ferry ldap import"), e.getMessage());
  }

  /** Each filter's entries as a search over the whole directory finds them. */
  private static Map<String, Set<String>> search(LdapServer s) throws IOException {
    Map<String, Set<String>> out = new HashMap<>();
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      for (String f : FILTERS) {
        Set<String> dns = new TreeSet<>();
        c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE, Filter.parse(f), "1.1"))
            .forEach(e -> dns.add(e.objectName()));
        out.put(f, dns);
      }
    }
    return out;
  }

  /**
   * Rewrites a store as the first format laid it out: each entry's value without the id that
   * ends it, a tree {@code postings} (sorted duplicates) of index key to DN key in place of
   * {@code idPostings} and {@code dns}, and that format in {@code meta}.
   */
  private static void toFirstFormat(Path store) throws IOException {
    try (Env<ByteBuffer> env = open(store)) {
      Dbi<ByteBuffer> entries = env.openDbi("entries");
      Dbi<ByteBuffer> dns = env.openDbi("dns");
      Dbi<ByteBuffer> ids = env.openDbi("idPostings");
      Dbi<ByteBuffer> meta = env.openDbi("meta");
      Dbi<ByteBuffer> postings = env.openDbi("postings", DbiFlags.MDB_CREATE,
          DbiFlags.MDB_DUPSORT);
      try (Txn<ByteBuffer> t = env.txnWrite()) {
        Map<Long, ByteBuffer> dnOf = new HashMap<>();
        try (Cursor<ByteBuffer> c = dns.openCursor(t)) {
          for (boolean on = c.first(); on; on = c.next()) {
            dnOf.put(c.key().order(ByteOrder.BIG_ENDIAN).getLong(0), copy(c.val()));
          }
        }
        List<ByteBuffer[]> pairs = new ArrayList<>();
        try (Cursor<ByteBuffer> c = ids.openCursor(t)) {
          for (boolean on = c.first(); on; on = c.next()) {
            long id = c.val().order(ByteOrder.BIG_ENDIAN).getLong(0);
            pairs.add(new ByteBuffer[] {copy(c.key()), dnOf.get(id)});
          }
        }
        for (ByteBuffer[] p : pairs) {
          postings.put(t, p[0], p[1].duplicate());
        }
        List<ByteBuffer[]> withoutIds = new ArrayList<>();
        try (Cursor<ByteBuffer> c = entries.openCursor(t)) {
          for (boolean on = c.first(); on; on = c.next()) {
            ByteBuffer v = c.val();
            withoutIds.add(new ByteBuffer[] {copy(c.key()),
                copy(v.slice(0, v.remaining() - Long.BYTES))});
          }
        }
        for (ByteBuffer[] e : withoutIds) {
          entries.put(t, e[0], e[1]);
        }
        dns.drop(t, true);
        ids.drop(t, true);
        meta.put(t, direct("format"), direct(LmdbStore.FORMAT_DN_POSTINGS));
        t.commit();
      }
    }
  }

  private static Env<ByteBuffer> open(Path store) {
    return Env.create().setMapSize(1L << 30).setMaxDbs(5).open(store.toFile(),
        EnvFlags.MDB_NOTLS);
  }

  private static List<String> names(Env<ByteBuffer> env) {
    List<String> out = new ArrayList<>();
    for (byte[] n : env.getDbiNames()) {
      out.add(new String(n, StandardCharsets.UTF_8));
    }
    return out;
  }

  private static String text(Dbi<ByteBuffer> meta, Txn<ByteBuffer> t, String key) {
    ByteBuffer v = meta.get(t, direct(key));
    return StandardCharsets.UTF_8.decode(v).toString();
  }

  private static ByteBuffer copy(ByteBuffer b) {
    ByteBuffer out = ByteBuffer.allocateDirect(b.remaining());
    return out.put(b.duplicate()).flip();
  }

  private static ByteBuffer direct(String text) {
    return copy(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
  }
}
