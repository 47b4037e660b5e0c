package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.DerefAliases;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchResults;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.interop.Slapd;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The same directory in OpenLDAP's slapd (back-mdb, the schema files Debian ships) and in
 * Ferry's server (the same files, and indexes of every kind on what the filters name, so that
 * indexed searches are compared too): a few hundred generated searches (scopes, nested filters with
 * Undefined items, attribute lists, typesOnly, size limits, paging) must return the same result
 * and the same entries, compared entry by entry and value by value; then a sequence of changes,
 * some meant to fail, must get the same result codes and leave the same directory.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlapdDifferentialTest {
  private static final long SEED = 20261126L;
  private static SlapdTwin twin;
  private static Schema schema;
  private static LdapConnection toSlapd;
  private static LdapConnection toFerry;
  private static DirectoryGenerator generator;

  @BeforeAll
  static void start() throws Exception {
    generator = new DirectoryGenerator(SEED);
    twin = SlapdTwin.start(generator, 150,
        LdapServerLimits.builder().maxSearchResults(1000).build());
    schema = twin.schema;
    toSlapd = twin.toSlapd;
    toFerry = twin.toFerry;
  }

  @AfterAll
  static void stop() throws Exception {
    if (twin != null) {
      twin.close();
    }
  }

  /** What a search answered, in a form both servers' answers can be compared in. */
  record Answer(ResultCode code, String matched, Map<String, Map<String, List<String>>> entries,
      int count) {}

  @Test
  @Order(1)
  void searchesAgree() throws IOException {
    List<String> differences = new ArrayList<>();
    int entries = 0;
    for (int i = 0; i < 300; i++) {
      SearchRequest r = generator.search();
      Answer a = search(toSlapd, r);
      Answer b = search(toFerry, r);
      entries += a.count;
      compare(r, a, b, differences);
    }
    assertEquals("", String.join("\n", differences.subList(0, Math.min(10,
        differences.size()))));
    assertTrue(entries > 1000, "the searches found " + entries + " entries in all");
  }

  @Test
  @Order(2)
  void pagedSearchesAgree() throws IOException {
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      SearchRequest r = generator.search();
      r = new SearchRequest(r.baseObject(), r.scope(), DerefAliases.NEVER, 0, 0, r.typesOnly(),
          r.filter(), r.attributes());
      int pageSize = 1 + i % 7;
      compare(r, paged(toSlapd, r, pageSize), paged(toFerry, r, pageSize), differences);
    }
    assertEquals("", String.join("\n", differences.subList(0, Math.min(10,
        differences.size()))));
  }

  @Test
  @Order(3)
  void changesAgree() throws IOException {
    List<String> differences = new ArrayList<>();
    int failed = 0;
    for (int i = 0; i < 150; i++) {
      ProtocolOp change = generator.change();
      ResultCode a = apply(toSlapd, change);
      ResultCode b = apply(toFerry, change);
      if (!a.equals(b)) {
        differences.add(change + ": slapd " + a + ", Ferry " + b);
      }
      if (a.equals(ResultCode.SUCCESS)) {
        track(generator, change);
      } else {
        failed++;
      }
    }
    assertEquals("", String.join("\n", differences));
    assertTrue(failed > 20 && failed < 130, failed + " of 150 changes failed");
    SearchRequest all = new SearchRequest(Slapd.SUFFIX, SearchScope.WHOLE_SUBTREE,
        DerefAliases.NEVER, 0, 0, false, Filter.present("objectClass"), List.of());
    List<String> afterwards = new ArrayList<>();
    compare(all, search(toSlapd, all), search(toFerry, all), afterwards);
    assertEquals("", String.join("\n", afterwards));
  }

  /** Tells the generator what a change that succeeded added and removed. */
  static void track(DirectoryGenerator generator, ProtocolOp change) {
    switch (change) {
      case ProtocolOp.DeleteRequest d -> generator.removed(d.entry());
      case ProtocolOp.AddRequest a -> generator.added(a.entry());
      case ProtocolOp.ModifyDnRequest m -> {
        generator.removed(m.entry());
        Dn old = Dn.parse(m.entry());
        Dn parent = m.newSuperior() != null ? Dn.parse(m.newSuperior()) : old.parent();
        generator.added(parent.child(Dn.parse(m.newRdn()).rdns().get(0)).toString());
      }
      default -> { }
    }
  }

  static ResultCode apply(LdapConnection c, ProtocolOp op) throws IOException {
    return result(c, op).resultCode();
  }

  static LdapResult result(LdapConnection c, ProtocolOp op) throws IOException {
    try {
      return c.send(op, List.of()).get().op().result();
    } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
      throw new IOException(e);
    }
  }

  private static void compare(SearchRequest r, Answer a, Answer b, List<String> differences) {
    String what = r.baseObject() + " " + r.scope() + " " + r.filter() + " " + r.attributes()
        + (r.typesOnly() ? " typesOnly" : "") + (r.sizeLimit() > 0 ? " size " + r.sizeLimit()
        : "");
    if (!a.code.equals(b.code)) {
      differences.add(what + ": slapd " + a.code + ", Ferry " + b.code);
    } else if (a.code.equals(ResultCode.SIZE_LIMIT_EXCEEDED)) {
      if (a.count != b.count) { // which entries come first is each server's own order
        differences.add(what + ": slapd returned " + a.count + ", Ferry " + b.count);
      }
    } else if (!a.matched.equals(b.matched)) {
      differences.add(what + ": matched DN " + a.matched + " vs " + b.matched);
    } else if (!a.entries.equals(b.entries)) {
      for (String dn : union(a.entries, b.entries)) {
        if (!java.util.Objects.equals(a.entries.get(dn), b.entries.get(dn))) {
          differences.add(what + ": " + dn + "\n  slapd " + a.entries.get(dn) + "\n  Ferry "
              + b.entries.get(dn));
          break;
        }
      }
    }
  }

  private static List<String> union(Map<String, ?> a, Map<String, ?> b) {
    java.util.TreeSet<String> all = new java.util.TreeSet<>(a.keySet());
    all.addAll(b.keySet());
    return List.copyOf(all);
  }

  static Answer search(LdapConnection c, SearchRequest r) throws IOException {
    Map<String, Map<String, List<String>>> entries = new TreeMap<>();
    int count = 0;
    LdapResult result;
    try (SearchResults results = c.search(r)) {
      while (results.hasNext()) {
        if (results.next().op() instanceof SearchResultEntry e) {
          entries.put(key(e.objectName()), attributes(e));
          count++;
        }
      }
      result = results.done().result();
    }
    return new Answer(result.resultCode(), result.matchedDn().isEmpty() ? ""
        : key(result.matchedDn()), entries, count);
  }

  /** Pages through a search; the answer holds every page's entries. */
  static Answer paged(LdapConnection c, SearchRequest r, int pageSize) throws IOException {
    Map<String, Map<String, List<String>>> entries = new TreeMap<>();
    ByteString cookie = ByteString.EMPTY;
    LdapResult result;
    int count = 0;
    do {
      List<Control> done;
      try (SearchResults results = c.search(r, new PagedResults(pageSize, cookie)
          .toControl(true))) {
        int page = 0;
        while (results.hasNext()) {
          if (results.next().op() instanceof SearchResultEntry e) {
            entries.put(key(e.objectName()), attributes(e));
            page++;
          }
        }
        assertTrue(page <= pageSize, page + " entries in a page of " + pageSize);
        count += page;
        LdapMessage m = results.doneMessage();
        result = m.op().result();
        done = m.controls();
      }
      cookie = ByteString.EMPTY;
      for (Control control : done) {
        if (PagedResults.OID.equals(control.oid())) {
          cookie = PagedResults.from(control).cookie();
        }
      }
    } while (cookie.size() > 0 && result.resultCode().equals(ResultCode.SUCCESS));
    return new Answer(result.resultCode(), result.matchedDn().isEmpty() ? ""
        : key(result.matchedDn()), entries, count);
  }

  private static String key(String dn) {
    return schema.normalize(Dn.parse(dn));
  }

  private static Map<String, List<String>> attributes(SearchResultEntry e) {
    Map<String, List<String>> out = new TreeMap<>();
    for (Attribute a : e.attributes()) {
      List<String> values = new ArrayList<>();
      for (ByteString v : a.values()) {
        values.add(v.utf8());
      }
      values.sort(null);
      out.put(a.description().toLowerCase(Locale.ROOT), values);
    }
    return out;
  }
}
