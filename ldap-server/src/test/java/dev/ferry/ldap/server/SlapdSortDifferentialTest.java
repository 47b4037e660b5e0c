package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.DerefAliases;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchResults;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.SortControl;
import dev.ferry.ldap.VirtualListView;
import dev.ferry.ldap.interop.Slapd;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server-side sort (RFC 2891) and virtual list view against slapd's sssvlv overlay, on the
 * same generated directory: generated searches sorted by generated keys must return the same
 * entries in the same order, whole and a page at a time. Entries that tie on every key come in
 * each server's own order (slapd's is the order the entries were added); a pair ties in slapd
 * when reversing every key leaves it in the same order, and only pairs that do not tie are
 * compared. Windows of a view sorted by a unique key, and the errors both servers give for bad
 * sort and view requests, must be the same too; the view's own result codes are the draft's
 * (slapd numbers two of them otherwise), and Ferry gives no context ID (a client that sends
 * none back gets the same windows from slapd).
 */
class SlapdSortDifferentialTest {
  private static final long SEED = 20261129L;
  private static SlapdTwin twin;
  private static Slapd slapd;
  private static Schema schema;
  private static LdapConnection toFerry;
  private static DirectoryGenerator generator;

  @BeforeAll
  static void start() throws Exception {
    generator = new DirectoryGenerator(SEED);
    twin = SlapdTwin.start(generator, 150, LdapServerLimits.DEFAULTS);
    slapd = twin.slapd;
    schema = twin.schema;
    toFerry = twin.toFerry;
  }

  @AfterAll
  static void stop() throws Exception {
    if (twin != null) {
      twin.close();
    }
  }

  /** A sorted search's result, its entries in order and its response controls. */
  record Sorted(ResultCode code, List<String> entries, List<Control> controls) {}

  @Test
  void sortedSearchesAgree() throws IOException {
    List<String> differences = new ArrayList<>();
    int compared = 0;
    for (int i = 0; i < 60; i++) {
      SearchRequest r = unlimited(generator.search());
      List<SortControl.Key> keys = generator.sortKeys();
      Sorted a;
      Sorted reversed;
      try (LdapConnection c = slapd.admin()) { // slapd limits the sorts a connection keeps
        a = sorted(c, r, keys, i % 3 == 0);
        reversed = sorted(c, r, reverse(keys), false);
      }
      Sorted b = sorted(toFerry, r, keys, i % 3 == 0);
      String what = r.baseObject() + " " + r.scope() + " " + r.filter() + " sorted by " + keys;
      if (!a.code.equals(b.code)) {
        differences.add(what + ": slapd " + a.code + ", Ferry " + b.code);
        continue;
      }
      if (!new TreeSet<>(a.entries).equals(new TreeSet<>(b.entries))) {
        differences.add(what + ": slapd " + a.entries + "\n  Ferry " + b.entries);
        continue;
      }
      compared += orderDifferences(what, a.entries, reversed.entries, b.entries, differences);
    }
    assertEquals("", String.join("\n", differences.subList(0, Math.min(10,
        differences.size()))));
    assertTrue(compared > 10_000, "only " + compared + " ordered pairs compared");
  }

  @Test
  void sortedPagesAgree() throws IOException {
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      SearchRequest r = new SearchRequest(Slapd.SUFFIX, SearchScope.WHOLE_SUBTREE,
          DerefAliases.NEVER, 0, 0, false, generator.filter(2), List.of("1.1"));
      List<SortControl.Key> keys = generator.sortKeys();
      int pageSize = 1 + i * 3;
      List<String> a;
      List<String> reversed;
      try (LdapConnection c = slapd.admin()) {
        a = paged(c, r, keys, pageSize);
        reversed = sorted(c, r, reverse(keys), false).entries;
      }
      List<String> b = paged(toFerry, r, keys, pageSize);
      String what = r.filter() + " sorted by " + keys + " in pages of " + pageSize;
      if (!new TreeSet<>(a).equals(new TreeSet<>(b))) {
        differences.add(what + ": slapd " + a + "\n  Ferry " + b);
        continue;
      }
      orderDifferences(what, a, reversed, b, differences);
    }
    assertEquals("", String.join("\n", differences.subList(0, Math.min(10,
        differences.size()))));
  }

  @Test
  void viewWindowsAgree() throws IOException {
    SearchRequest people = new SearchRequest(Slapd.SUFFIX, SearchScope.WHOLE_SUBTREE,
        DerefAliases.NEVER, 0, 0, false, Filter.present("uid"), List.of("1.1"));
    List<SortControl.Key> byUid = List.of(new SortControl.Key("uid",
        "caseIgnoreOrderingMatch", false));
    List<VirtualListView> views = new ArrayList<>();
    for (int[] v : new int[][] {{0, 9, 1, 0}, {2, 2, 10, 0}, {5, 5, 150, 150}, {3, 3, 40, 80},
        {0, 0, 75, 300}, {4, 1, 149, 0}, {1, 1, 200, 0}, {0, 3, 30, 20}, {10, 10, 1, 1}}) {
      views.add(VirtualListView.byOffset(v[0], v[1], v[2], v[3]));
    }
    for (String value : new String[] {"a", "jdoe", "K", "peter", "zzz", "SSILVA"}) {
      views.add(VirtualListView.byValue(2, 3, ByteString.encodeUtf8(value)));
    }
    List<String> differences = new ArrayList<>();
    for (VirtualListView v : views) {
      Sorted a;
      try (LdapConnection c = slapd.admin()) { // slapd keeps a view's sort till it closes
        a = search(c, people, new SortControl(byUid).toControl(true), v.toControl(true));
      }
      Sorted b = search(toFerry, people, new SortControl(byUid).toControl(true),
          v.toControl(true));
      String what = v + ": ";
      VirtualListView.Result ra = viewResult(a);
      VirtualListView.Result rb = viewResult(b);
      if (!a.code.equals(b.code) || !a.entries.equals(b.entries)) {
        differences.add(what + "slapd " + a.code + " " + a.entries + "\n  Ferry " + b.code
            + " " + b.entries);
      } else if (ra.targetPosition() != rb.targetPosition()
          || ra.contentCount() != rb.contentCount() || draftCode(ra.result()) != rb.result()) {
        differences.add(what + "slapd " + ra + ", Ferry " + rb);
      }
    }
    assertEquals("", String.join("\n", differences));
  }

  @Test
  void badRequestsFailAlike() throws IOException {
    SearchRequest all = new SearchRequest(Slapd.SUFFIX, SearchScope.WHOLE_SUBTREE,
        DerefAliases.NEVER, 0, 0, false, Filter.present("objectClass"), List.of("1.1"));
    Control bySn = new SortControl(List.of(new SortControl.Key("sn",
        "caseIgnoreOrderingMatch", false))).toControl(false);
    List<SortControl.Key> six = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      six.add(new SortControl.Key("uidNumber", null, false));
    }
    List<List<Control>> requests = List.of(
        List.of(VirtualListView.byOffset(0, 5, 1, 0).toControl(true)),
        List.of(sort("noSuchType", null)),
        List.of(sort("mail", null)),
        List.of(sort("sn", "noSuchRule")),
        List.of(new SortControl(six).toControl(true)),
        List.of(bySn, VirtualListView.byOffset(0, 5, 1, 0).toControl(true),
            new PagedResults(5, ByteString.EMPTY).toControl(true)),
        List.of(bySn, VirtualListView.byOffset(0, 5, 300, 100).toControl(true)),
        List.of(bySn, new Control(VirtualListView.OID, true, ByteString.encodeUtf8("x"))),
        List.of(new Control(SortControl.OID, true, ByteString.encodeUtf8("x"))));
    List<String> differences = new ArrayList<>();
    for (List<Control> controls : requests) {
      Sorted a;
      try (LdapConnection c = slapd.admin()) {
        a = search(c, all, controls.toArray(Control[]::new));
      }
      Sorted b = search(toFerry, all, controls.toArray(Control[]::new));
      if (!a.code.equals(b.code) || !a.entries.equals(b.entries)) {
        differences.add(controls + ": slapd " + a.code + " " + a.entries.size()
            + " entries, Ferry " + b.code + " " + b.entries.size());
      }
    }
    assertEquals("", String.join("\n", differences));
  }

  private static Control sort(String attribute, String rule) {
    return new SortControl(List.of(new SortControl.Key(attribute, rule, false)))
        .toControl(true);
  }

  private static SearchRequest unlimited(SearchRequest r) {
    return new SearchRequest(r.baseObject(), r.scope(), DerefAliases.NEVER, 0, 0, false,
        r.filter(), List.of("1.1"));
  }

  private static List<SortControl.Key> reverse(List<SortControl.Key> keys) {
    List<SortControl.Key> out = new ArrayList<>();
    for (SortControl.Key k : keys) {
      out.add(new SortControl.Key(k.attribute(), k.orderingRule(), !k.reverse()));
    }
    return out;
  }

  /**
   * Adds a difference where Ferry orders two entries that do not tie in slapd otherwise than
   * slapd; returns the number of pairs compared.
   */
  private static int orderDifferences(String what, List<String> slapdOrder,
      List<String> slapdReversed, List<String> ferryOrder, List<String> differences) {
    Map<String, Integer> reversed = positions(slapdReversed);
    Map<String, Integer> ferryAt = positions(ferryOrder);
    int compared = 0;
    for (int i = 0; i < slapdOrder.size(); i++) {
      for (int j = i + 1; j < slapdOrder.size(); j++) {
        String a = slapdOrder.get(i);
        String b = slapdOrder.get(j);
        if (reversed.get(a) < reversed.get(b)) {
          continue; // a tie: the reversed sort kept them in the order they were added
        }
        compared++;
        if (ferryAt.get(a) > ferryAt.get(b)) {
          differences.add(what + ": slapd puts " + a + " before " + b + "\n  slapd "
              + slapdOrder + "\n  Ferry " + ferryOrder);
          return compared;
        }
      }
    }
    return compared;
  }

  private static Map<String, Integer> positions(List<String> entries) {
    Map<String, Integer> at = new HashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      at.put(entries.get(i), i);
    }
    return at;
  }

  private static Sorted sorted(LdapConnection c, SearchRequest r, List<SortControl.Key> keys,
      boolean critical) throws IOException {
    return search(c, r, new SortControl(keys).toControl(critical));
  }

  private static Sorted search(LdapConnection c, SearchRequest r, Control... controls)
      throws IOException {
    List<String> entries = new ArrayList<>();
    try (SearchResults results = c.search(r, controls)) {
      while (results.hasNext()) {
        if (results.next().op() instanceof SearchResultEntry e) {
          entries.add(schema.normalize(Dn.parse(e.objectName())));
        }
      }
      LdapMessage done = results.doneMessage();
      return new Sorted(done.op().result().resultCode(), entries, done.controls());
    }
  }

  /** Pages through a sorted search; returns every page's entries in order. */
  private static List<String> paged(LdapConnection c, SearchRequest r,
      List<SortControl.Key> keys, int pageSize) throws IOException {
    List<String> entries = new ArrayList<>();
    ByteString cookie = ByteString.EMPTY;
    Sorted page;
    do {
      page = nextPage(c, r, keys, pageSize, cookie, c != toFerry);
      assertEquals(ResultCode.SUCCESS, page.code, r.filter() + " sorted by " + keys);
      assertTrue(page.entries.size() <= pageSize, page.entries.size() + " in a page of "
          + pageSize);
      entries.addAll(page.entries);
      cookie = ByteString.EMPTY;
      for (Control control : page.controls) {
        if (PagedResults.OID.equals(control.oid())) {
          cookie = PagedResults.from(control).cookie();
        }
      }
    } while (cookie.size() > 0);
    return entries;
  }

  /**
   * The view's result as the draft numbers it: slapd answers 76 where the draft has
   * sortControlMissing (60) and 77 for offsetRangeError (61).
   */
  private static int draftCode(int slapdCode) {
    return switch (slapdCode) {
      case 76 -> VirtualListView.SORT_CONTROL_MISSING;
      case 77 -> VirtualListView.OFFSET_RANGE_ERROR;
      default -> slapdCode;
    };
  }

  /**
   * Asks for a sorted page. slapd marks a paged sort idle only after it has sent the page's
   * result, so a client that asks for the next page at once may get busy: of slapd ({@code
   * retry}) it asks again, for up to 10 s.
   */
  private static Sorted nextPage(LdapConnection c, SearchRequest r, List<SortControl.Key> keys,
      int pageSize, ByteString cookie, boolean retry) throws IOException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (true) {
      Sorted page = search(c, r, new SortControl(keys).toControl(true),
          new PagedResults(pageSize, cookie).toControl(true));
      if (!retry || !page.code.equals(ResultCode.BUSY) || System.nanoTime() > deadline) {
        return page;
      }
      Thread.onSpinWait();
    }
  }

  private static VirtualListView.Result viewResult(Sorted s) throws IOException {
    for (Control c : s.controls) {
      if (VirtualListView.RESPONSE_OID.equals(c.oid())) {
        return VirtualListView.Result.from(c);
      }
    }
    return new VirtualListView.Result(-1, -1, -1, null);
  }
}
