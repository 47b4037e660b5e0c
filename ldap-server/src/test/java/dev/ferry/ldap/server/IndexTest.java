package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchOutcome;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Indexes narrow a search to the entries they name and never lose one, in memory and in the
 * durable store alike: over generated directories, filters and changes, every entry a filter
 * matches is among its candidates and every posting names an entry with its key; an indexed
 * search looks at only those (it passes a small entries-examined limit the same search without
 * indexes fails), and an anonymous search no index narrows is refused past its limit.
 */
class IndexTest {
  static final String BASE = DirectoryGenerator.SUFFIX;

  @TempDir
  Path temp;

  /** The builder, with a durable store in a fresh folder if {@code durable}. */
  LdapServer.Builder store(LdapServer.Builder b, boolean durable) throws IOException {
    return durable ? b.storage(Files.createTempDirectory(temp, "store"), 1L << 30) : b;
  }

  /** Indexes on most of what the generator's filters name, of every kind. */
  static LdapServer.Builder indexed(LdapServer.Builder b) {
    return b.index("objectClass", IndexType.EQUALITY, IndexType.PRESENCE)
        .index("uid", IndexType.EQUALITY, IndexType.SUBSTRING)
        .index("cn", IndexType.EQUALITY, IndexType.SUBSTRING, IndexType.PRESENCE)
        .index("sn", IndexType.EQUALITY, IndexType.SUBSTRING)
        .index("mail", IndexType.EQUALITY, IndexType.PRESENCE, IndexType.SUBSTRING)
        .index("uidNumber", IndexType.EQUALITY, IndexType.ORDERING)
        .index("gidNumber", IndexType.EQUALITY, IndexType.ORDERING)
        .index("telephoneNumber", IndexType.EQUALITY, IndexType.SUBSTRING)
        .index("description", IndexType.SUBSTRING, IndexType.PRESENCE)
        .index("member", IndexType.EQUALITY)
        .index("name", IndexType.EQUALITY); // a supertype: covers cn, sn, ou, ...
  }

  static Schema schema() throws IOException {
    return SchemaTest.openLdap("core.schema", "cosine.schema", "nis.schema",
        "inetorgperson.schema");
  }

  /**
   * Every entry the filter is TRUE for must be a candidate, the candidates come in increasing
   * id order, and a search of {@code r}'s scope over them finds what a walk of the whole scope
   * finds; returns how many candidates there are, -1 if the indexes cannot narrow the filter.
   */
  static int assertCandidatesCover(Dsa dsa, SearchRequest r) {
    Filter f = r.filter();
    try (Directory.View v = dsa.directory.read()) {
      Candidates c = v.plan(f, Integer.MAX_VALUE);
      if (c == null) {
        return -1;
      }
      Set<Long> ids = new HashSet<>();
      long last = 0;
      for (var it = c.iterator(0); it.hasNext(); ) {
        long id = it.nextLong();
        assertTrue(id > last, f + ": id " + id + " after " + last);
        ids.add(last = id);
      }
      FilterMatcher m = new FilterMatcher(dsa.schema, v, true);
      v.scan("", SearchScope.WHOLE_SUBTREE, null, e -> {
        if (m.matches(f, e, true)) {
          assertTrue(ids.contains(v.read.id(e.key)), f + " matches " + e.dnText()
              + ", not a candidate");
        }
        return true;
      });
      String baseKey = dsa.schema.normalize(Dn.parse(r.baseObject()));
      Set<String> scanned = new TreeSet<>();
      v.scan(baseKey, r.scope(), null, e -> {
        if (m.matches(f, e, true)) {
          scanned.add(e.key);
        }
        return true;
      });
      Set<String> narrowed = new TreeSet<>();
      if (v.scan(baseKey, r.scope(), 0, c, (id, e) -> {
        if (e != null && m.matches(f, e, true)) {
          assertEquals(id, v.read.id(e.key));
          narrowed.add(e.key);
        }
        return true;
      })) {
        assertEquals(scanned, narrowed, r.scope() + " of " + r.baseObject() + ": " + f);
      }
      return ids.size();
    }
  }

  @ParameterizedTest(name = "durable: {0}")
  @ValueSource(booleans = {false, true})
  void everyMatchIsACandidateThroughChanges(boolean durable) throws Exception {
    DirectoryGenerator generator = new DirectoryGenerator(3401);
    List<LdifRecord.Entry> entries = generator.directory(300);
    try (LdapServer s = indexed(store(LdapServer.builder(), durable)).suffix(BASE)
        .schema(schema())
        .rootDn("cn=admin," + BASE, "secret").records(entries).start();
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      int narrowed = 0;
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 200; i++) {
          int n = assertCandidatesCover(s.dsa(), generator.search());
          if (n >= 0 && n < s.entryCount()) {
            narrowed++;
          }
        }
        for (int i = 0; i < 100; i++) { // adds, deletes, modifies and renames
          ProtocolOp change = generator.change();
          if (SlapdDifferentialTest.apply(c, change).equals(ResultCode.SUCCESS)) {
            SlapdDifferentialTest.track(generator, change);
          }
        }
        assertEquals(List.of(), StoreCheck.problems(s.dsa())); // no posting left behind
      }
      assertTrue(narrowed > 150, narrowed + " of 600 filters narrowed by an index");
    }
  }

  @ParameterizedTest(name = "durable: {0}")
  @ValueSource(booleans = {false, true})
  void indexedSearchesLookOnlyAtTheirCandidates(boolean durable) throws Exception {
    List<LdifRecord.Entry> entries = new ArrayList<>();
    entries.add(new LdifRecord.Entry(BASE, List.of(Attribute.of("objectClass", "domain"),
        Attribute.of("dc", "example"))));
    for (int i = 0; i < 2000; i++) {
      entries.add(new LdifRecord.Entry("uid=u" + i + "," + BASE, List.of(
          Attribute.of("objectClass", i % 100 == 0 ? "inetOrgPerson" : "account"),
          Attribute.of("uid", "u" + i), Attribute.of("description", "number " + i),
          Attribute.of("uidNumber", String.valueOf(i)))));
    }
    LdapServerLimits limits = LdapServerLimits.builder().maxEntriesExamined(25)
        .maxUnindexedEntriesAnonymous(20).build();
    List<String> filters = List.of("(uid=u1234)", "(&(objectClass=person)(uid=u1*))",
        "(|(uid=u7)(uid=u8)(uid=u1999))", "(description=*ber 123*)", "(uidNumber>=1990)",
        "(&(uidNumber<=15)(!(uid=u3)))", "(objectClass=inetOrgPerson)", "(uid=*99)");
    int[] expected = {1, 11, 3, 11, 10, 15, 20, 20};
    try (LdapServer plain = LdapServer.builder().suffix(BASE).limits(limits)
        .records(entries).start();
        LdapServer fast = indexed(store(LdapServer.builder(), durable))
            .index("uidNumber", IndexType.ORDERING)
            .index("description", IndexType.SUBSTRING).suffix(BASE).limits(limits)
            .records(entries).start();
        LdapConnection toPlain = LdapConnection.connect("127.0.0.1", plain.port());
        LdapConnection toFast = LdapConnection.connect("127.0.0.1", fast.port())) {
      for (int i = 0; i < filters.size(); i++) {
        SearchRequest r = SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
            Filter.parse(filters.get(i)), "1.1");
        assertEquals(expected[i], toFast.searchAll(r).size(), filters.get(i));
        LdapException e = assertThrows(LdapException.class, () -> toPlain.searchAll(r));
        assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e.resultCode());
        assertTrue(e.getMessage().contains("maxUnindexedEntriesAnonymous exceeded: 21 > 20"),
            e.getMessage());
      }
      // what no index narrows is refused for an anonymous client on the indexed server too
      LdapException e = assertThrows(LdapException.class, () -> toFast.searchAll(
          SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE, Filter.parse("(!(uid=u1))"))));
      assertTrue(e.getMessage().contains("no index narrows the filter"), e.getMessage());
      // one level and paged through the candidates
      assertEquals(11, toFast.searchAll(SearchRequest.of(BASE, SearchScope.SINGLE_LEVEL,
          Filter.parse("(uidNumber>=1989)"), "1.1")).size());
    }
  }

  @ParameterizedTest(name = "durable: {0}")
  @ValueSource(booleans = {false, true})
  void changesMoveEntriesBetweenIndexKeys(boolean durable) throws Exception {
    try (LdapServer s = indexed(store(LdapServer.builder(), durable)).suffix(BASE)
        .rootDn("cn=admin," + BASE, "secret").ldifResource(IndexTest.class, "example.ldif")
        .start(); LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      String bjensen = LdapServerTest.BJENSEN;
      c.modify(bjensen, List.of(new Modification(Modification.Type.REPLACE,
          Attribute.of("sn", "Jørgensen"))));
      assertEquals(0, count(c, "(sn=jensen)"));
      assertEquals(1, count(c, "(sn=JØRGENSEN)"));
      assertEquals(1, count(c, "(sn=*rgen*)"));
      c.send(new ProtocolOp.ModifyDnRequest(bjensen, "uid=babs", true, null), List.of())
          .get();
      assertEquals(0, count(c, "(uid=bjensen)"));
      assertEquals(1, count(c, "(uid=babs)"));
      c.delete("uid=babs," + LdapServerTest.PEOPLE);
      assertEquals(0, count(c, "(uid=babs)"));
      assertEquals(1, count(c, "(objectClass=inetOrgPerson)")); // jdoe is left
    }
  }

  /**
   * The store walks postings side by side ({@link Store.Read#posted}): for random sets of
   * index keys and random starts, it gives exactly the ids in every one of their postings, in
   * increasing order, as the postings one at a time say; and each index key's posting holds
   * exactly the ids of the entries a full scan finds with that key.
   */
  @ParameterizedTest(name = "durable: {0}")
  @ValueSource(booleans = {false, true})
  void postingsWalkedTogetherAreTheirIntersection(boolean durable) throws Exception {
    Random random = new Random(3402);
    String[] words = {"a", "b", "c", "d", "e", "f", "g", "h"};
    List<LdifRecord.Entry> entries = new ArrayList<>();
    entries.add(new LdifRecord.Entry(BASE, List.of(Attribute.of("objectClass", "domain"),
        Attribute.of("dc", "example"))));
    for (int i = 0; i < 400; i++) {
      Set<String> values = new TreeSet<>();
      for (String w : words) { // word k in about one entry in k + 1
        if (random.nextInt(Arrays.asList(words).indexOf(w) + 2) == 0) {
          values.add(w);
        }
      }
      values.add("n" + i % 7);
      entries.add(new LdifRecord.Entry("uid=u" + i + "," + BASE, List.of(
          Attribute.of("objectClass", "account"), Attribute.of("uid", "u" + i),
          Attribute.of("description", values.toArray(String[]::new)))));
    }
    try (LdapServer s = store(LdapServer.builder(), durable).suffix(BASE)
        .index("description", IndexType.EQUALITY).records(entries).start();
        Directory.View v = s.dsa().directory.read()) {
      List<ByteString> keys = new ArrayList<>();
      v.read.indexKeys(ByteString.EMPTY, ByteString.of((byte) -1), true)
          .forEachRemaining(keys::add);
      assertTrue(keys.size() >= words.length + 7, keys.toString());
      Map<ByteString, List<Long>> scanned = new HashMap<>();
      List<Long> ids = new ArrayList<>();
      v.scan("", SearchScope.WHOLE_SUBTREE, null, e -> {
        long id = v.read.id(e.key);
        ids.add(id);
        for (ByteString k : s.dsa().directory.indexes.keys(e)) {
          scanned.computeIfAbsent(k, x -> new ArrayList<>()).add(id);
        }
        return true;
      });
      for (ByteString k : keys) {
        List<Long> expected = new ArrayList<>(scanned.get(k));
        expected.sort(null);
        assertEquals(expected, posted(v, List.of(k), 0), k.toString());
      }
      for (int round = 0; round < 300; round++) {
        List<ByteString> some = new ArrayList<>();
        for (int k = 1 + random.nextInt(4); k > 0; k--) {
          some.add(keys.get(random.nextInt(keys.size())));
        }
        long after = random.nextBoolean() ? 0 : ids.get(random.nextInt(ids.size()));
        List<Long> expected = posted(v, some.subList(0, 1), after);
        for (ByteString k : some) {
          expected.retainAll(posted(v, List.of(k), 0));
        }
        assertEquals(expected, posted(v, some, after), some + " after " + after);
      }
    }
  }

  private static List<Long> posted(Directory.View v, List<ByteString> keys, long after) {
    List<Long> out = new ArrayList<>();
    v.read.posted(keys, after).forEachRemaining((long id) -> out.add(id));
    return out;
  }

  /**
   * A paged search over candidates (in id order) gives every entry once, as an unpaged one;
   * pages of a search that walks its scope (in key order) too.
   */
  @ParameterizedTest(name = "durable: {0}")
  @ValueSource(booleans = {false, true})
  void pagesOfAnIndexedSearchHoldEveryEntryOnce(boolean durable) throws Exception {
    DirectoryGenerator generator = new DirectoryGenerator(3404);
    try (LdapServer s = indexed(store(LdapServer.builder(), durable)).suffix(BASE)
        .schema(schema()).records(generator.directory(300)).start();
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      for (String filter : List.of("(objectClass=person)", "(cn=*a*)", "(!(cn=*a*))")) {
        SearchRequest r = SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
            Filter.parse(filter), "1.1");
        Set<String> all = new TreeSet<>();
        c.searchAll(r).forEach(e -> all.add(e.objectName()));
        assertTrue(all.size() > 10, filter + ": " + all.size());
        List<String> paged = new ArrayList<>();
        ByteString cookie = ByteString.EMPTY;
        do {
          SearchOutcome o = c.collect(r, new PagedResults(7, cookie).toControl(true));
          o.entries().forEach(e -> paged.add(e.objectName()));
          cookie = PagedResults.from(o.done().controls().get(0)).cookie();
        } while (cookie.size() > 0);
        assertEquals(all.size(), paged.size(), filter + ": an entry twice");
        assertEquals(all, new TreeSet<>(paged), filter);
      }
    }
  }

  /** Every substring key of a piece is a key of each value that holds the piece there. */
  @Test
  void theKeysOfAPieceAreKeysOfEveryValueHoldingIt() {
    Random random = new Random(3403);
    for (int round = 0; round < 5000; round++) {
      StringBuilder value = new StringBuilder();
      for (int i = random.nextInt(12); i > 0; i--) {
        value.append((char) ('a' + random.nextInt(3)));
      }
      String anchored = "\u0002" + value + "\u0003";
      int from = random.nextInt(anchored.length() - 1);
      int to = from + 2 + random.nextInt(anchored.length() - from - 1);
      String piece = anchored.substring(from, Math.min(to, anchored.length()));
      if (piece.length() < 2 || piece.equals("\u0002\u0003")) {
        continue;
      }
      Set<String> keys = Indexes.valueGrams(anchored);
      for (String g : Indexes.pieceGrams(piece)) {
        assertTrue(keys.contains(g), piece + " of " + anchored + ": " + g + " not in " + keys);
      }
    }
    assertEquals(List.of("\u0002u1"), Indexes.pieceGrams("\u0002u1")); // (uid=u1*)
    assertEquals(List.of("99\u0003"), Indexes.pieceGrams("99\u0003")); // (uid=*99)
    assertEquals(List.of(), Indexes.pieceGrams("mbe")); // (cn=*mbe*): no key narrows it
    assertEquals(List.of("mber", "er 1", " 123", "2345"), Indexes.pieceGrams("mber 12345"));
  }

  static int count(LdapConnection c, String filter) throws IOException {
    return c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE, Filter.parse(filter),
        "1.1")).size();
  }

  @Test
  void indexesAPasswordOrAComputedAttributeCannotHave() {
    for (String attribute : List.of("userPassword", "hasSubordinates")) {
      assertThrows(IllegalArgumentException.class, () -> LdapServer.builder()
          .index(attribute, IndexType.EQUALITY).start());
    }
    assertThrows(IllegalArgumentException.class, () -> LdapServer.builder()
        .index("objectClass", IndexType.ORDERING).start()); // objectClass has no ordering rule
  }
}
