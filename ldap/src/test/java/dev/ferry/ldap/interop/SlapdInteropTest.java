package dev.ferry.ldap.interop;

import static dev.ferry.ldap.interop.Slapd.ADMIN;
import static dev.ferry.ldap.interop.Slapd.PASSWORD;
import static dev.ferry.ldap.interop.Slapd.SUFFIX;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapLimits;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchResults;
import dev.ferry.ldap.SearchScope;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The client and codec against a real OpenLDAP slapd, started for this class. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlapdInteropTest {
  private static final String PEOPLE = "ou=people," + SUFFIX;
  private static final int PEOPLE_COUNT = 30;
  private static Slapd slapd;

  @BeforeAll
  static void startSlapd() throws Exception {
    slapd = Slapd.start();
    awaitReady();
  }

  @AfterAll
  static void stopSlapd() throws Exception {
    if (slapd != null) {
      slapd.close();
    }
  }

  private static void awaitReady() throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      try (LdapConnection c = connect()) {
        c.searchAll(SearchRequest.of("", SearchScope.BASE_OBJECT, Filter.present("objectClass"),
            "namingContexts"));
        return;
      } catch (java.io.IOException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  private static LdapConnection connect() throws java.io.IOException {
    return LdapConnection.connect("127.0.0.1", slapd.port, LdapLimits.DEFAULTS,
        Duration.ofSeconds(10));
  }

  private static LdapConnection admin() throws java.io.IOException {
    LdapConnection c = connect();
    c.bind(ADMIN, PASSWORD);
    return c;
  }

  private static String person(int i) {
    return "uid=user" + i + "," + PEOPLE;
  }

  @Test
  @Order(1)
  void readsTheRootDse() throws Exception {
    try (LdapConnection c = connect()) {
      List<SearchResultEntry> root = c.searchAll(SearchRequest.of("", SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "namingContexts", "supportedExtension"));
      assertEquals(1, root.size());
      assertEquals(SUFFIX, root.get(0).attribute("namingContexts").firstValueAsString());
      assertTrue(root.get(0).attribute("supportedExtension").values()
          .contains(ByteString.encodeUtf8("1.3.6.1.4.1.1466.20037")));
    }
  }

  @Test
  @Order(2)
  void bindsAndRejectsAWrongPassword() throws Exception {
    try (LdapConnection c = connect()) {
      LdapException e = assertThrows(LdapException.class, () -> c.bind(ADMIN, "wrong"));
      assertEquals(ResultCode.INVALID_CREDENTIALS, e.resultCode());
      assertEquals(ResultCode.SUCCESS, c.bind(ADMIN, PASSWORD).resultCode());
      assertEquals("dn:" + ADMIN, c.whoAmI());
    }
  }

  @Test
  @Order(3)
  void addsEntries() throws Exception {
    try (LdapConnection c = admin()) {
      c.add(SUFFIX, List.of(Attribute.of("objectClass", "top", "dcObject", "organization"),
          Attribute.of("dc", "example"), Attribute.of("o", "Example")));
      c.add(PEOPLE, List.of(Attribute.of("objectClass", "organizationalUnit"),
          Attribute.of("ou", "people")));
      for (int i = 0; i < PEOPLE_COUNT; i++) {
        c.add(person(i), List.of(Attribute.of("objectClass", "inetOrgPerson"),
            Attribute.of("uid", "user" + i), Attribute.of("cn", "User " + i),
            Attribute.of("sn", i % 2 == 0 ? "Even" : "Odd"),
            Attribute.of("mail", "user" + i + "@example.com"),
            new Attribute("description", List.of(ByteString.encodeUtf8("Ünïcödé " + i)))));
      }
      LdapException dup = assertThrows(LdapException.class, () -> c.add(person(0),
          List.of(Attribute.of("objectClass", "inetOrgPerson"), Attribute.of("uid", "user0"),
              Attribute.of("cn", "x"), Attribute.of("sn", "x"))));
      assertEquals(ResultCode.ENTRY_ALREADY_EXISTS, dup.resultCode());
    }
  }

  private static List<String> uids(LdapConnection c, String filter) throws Exception {
    List<String> uids = new ArrayList<>();
    for (SearchResultEntry e : c.searchAll(SearchRequest.of(PEOPLE, SearchScope.SINGLE_LEVEL,
        Filter.parse(filter), "uid"))) {
      uids.add(e.attribute("uid").firstValueAsString());
    }
    uids.sort(null);
    return uids;
  }

  @Test
  @Order(4)
  void searchesWithFilters() throws Exception {
    try (LdapConnection c = connect()) {
      assertEquals(PEOPLE_COUNT, uids(c, "(objectClass=inetOrgPerson)").size());
      assertEquals(List.of("user1", "user10", "user11", "user12", "user13", "user14", "user15",
          "user16", "user17", "user18", "user19"), uids(c, "(cn=User 1*)"));
      assertEquals(List.of("user12", "user2", "user20", "user21", "user22", "user23", "user24",
          "user25", "user26", "user27", "user28", "user29"), uids(c, "(uid=*2*)"));
      assertEquals(15, uids(c, "(&(objectClass=person)(sn=Even))").size());
      assertEquals(List.of("user3", "user4"), uids(c, "(|(uid=user3)(mail=user4@example.com))"));
      assertEquals(PEOPLE_COUNT - 1, uids(c, "(!(uid=user7))").size());
      assertEquals(List.of("user5"), uids(c, "(description=Ünïcödé 5)"));
      assertEquals(List.of("user9"), uids(c, "(uid:caseExactMatch:=user9)"));
      assertEquals(List.of(), uids(c, "(uid=nobody)"));
    }
  }

  @Test
  @Order(5)
  void pagesThroughResults() throws Exception {
    try (LdapConnection c = connect()) {
      Set<String> seen = new HashSet<>();
      ByteString cookie = ByteString.EMPTY;
      int pages = 0;
      do {
        SearchRequest r = SearchRequest.of(PEOPLE, SearchScope.SINGLE_LEVEL,
            Filter.parse("(objectClass=inetOrgPerson)"), "uid");
        try (SearchResults results = c.search(r, new PagedResults(7, cookie).toControl(true))) {
          int inPage = 0;
          while (results.hasNext()) {
            LdapMessage m = results.next();
            assertTrue(seen.add(((SearchResultEntry) m.op()).objectName()));
            inPage++;
          }
          LdapMessage done = results.doneMessage();
          assertEquals(ResultCode.SUCCESS, done.op().result().resultCode());
          assertTrue(inPage <= 7);
          Control control = done.controls().stream()
              .filter(x -> x.oid().equals(PagedResults.OID)).findFirst().orElseThrow();
          cookie = PagedResults.from(control).cookie();
        }
        pages++;
      } while (!cookie.isEmpty());
      assertEquals(PEOPLE_COUNT, seen.size());
      assertEquals(5, pages);
    }
  }

  @Test
  @Order(6)
  void modifiesAndCompares() throws Exception {
    try (LdapConnection c = admin()) {
      c.modify(person(1), List.of(
          new Modification(Modification.Type.REPLACE, Attribute.of("mail", "new@example.com")),
          new Modification(Modification.Type.ADD, Attribute.of("telephoneNumber", "+1 555")),
          new Modification(Modification.Type.DELETE, Attribute.of("description"))));
      SearchResultEntry e = c.searchAll(SearchRequest.of(person(1), SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "mail", "telephoneNumber", "description")).get(0);
      assertEquals("new@example.com", e.attribute("mail").firstValueAsString());
      assertEquals("+1 555", e.attribute("telephoneNumber").firstValueAsString());
      assertNull(e.attribute("description"));
      assertTrue(c.compare(person(1), "mail", ByteString.encodeUtf8("new@example.com")));
      assertFalse(c.compare(person(1), "mail", ByteString.encodeUtf8("old@example.com")));
      LdapException e2 = assertThrows(LdapException.class, () -> c.modify(person(1),
          List.of(new Modification(Modification.Type.DELETE, Attribute.of("pager")))));
      assertEquals(ResultCode.NO_SUCH_ATTRIBUTE, e2.resultCode());
    }
  }

  @Test
  @Order(7)
  void renamesAndDeletes() throws Exception {
    try (LdapConnection c = admin()) {
      c.modifyDn(person(2), "uid=renamed2", true, null);
      assertEquals(List.of("renamed2"), uids(c, "(uid=renamed2)"));
      assertEquals(List.of(), uids(c, "(uid=user2)"));
      c.delete("uid=renamed2," + PEOPLE);
      LdapException gone = assertThrows(LdapException.class,
          () -> c.delete("uid=renamed2," + PEOPLE));
      assertEquals(ResultCode.NO_SUCH_OBJECT, gone.resultCode());
      assertEquals(PEOPLE, gone.result().matchedDn());
      LdapException noBase = assertThrows(LdapException.class, () -> c.searchAll(
          SearchRequest.of("ou=nowhere," + SUFFIX, SearchScope.WHOLE_SUBTREE,
              Filter.present("objectClass"))));
      assertEquals(ResultCode.NO_SUCH_OBJECT, noBase.resultCode());
      assertEquals(SUFFIX, noBase.result().matchedDn());
    }
  }

  /** One operation slapd refuses, and what its error must name. */
  private record Refused(String operation, String dn, ResultCode code, String matchedDn,
      String diagnostic, org.junit.jupiter.api.function.Executable run) {}

  @Test
  @Order(12)
  void errorsNameTheOperationTheDnAndWhatSlapdSaid() throws Exception {
    String gone = "uid=nobody," + PEOPLE;
    String nowhere = "uid=nobody,ou=nowhere," + SUFFIX;
    String noSn = "uid=nosn," + PEOPLE;
    try (LdapConnection c = admin()) {
      List<Modification> change = List.of(new Modification(Modification.Type.REPLACE,
          Attribute.of("mail", "x@example.com")));
      ResultCode missing = ResultCode.NO_SUCH_OBJECT;
      List<Refused> cases = List.of(
          new Refused("delete", gone, missing, PEOPLE, "", () -> c.delete(gone)),
          new Refused("modify", gone, missing, PEOPLE, "", () -> c.modify(gone, change)),
          new Refused("modifyDN", gone, missing, PEOPLE, "",
              () -> c.modifyDn(gone, "uid=x", true, null)),
          new Refused("compare", gone, missing, PEOPLE, "",
              () -> c.compare(gone, "uid", ByteString.encodeUtf8("nobody"))),
          new Refused("search", nowhere, missing, SUFFIX, "", () -> c.searchAll(
              SearchRequest.of(nowhere, SearchScope.BASE_OBJECT, Filter.present("uid")))),
          new Refused("add", nowhere, missing, SUFFIX, "", () -> c.add(nowhere, List.of(
              Attribute.of("objectClass", "inetOrgPerson"), Attribute.of("uid", "nobody"),
              Attribute.of("cn", "x"), Attribute.of("sn", "x")))),
          new Refused("add", noSn, ResultCode.OBJECT_CLASS_VIOLATION, "",
              "object class 'inetOrgPerson' requires attribute 'sn'", () -> c.add(noSn, List.of(
                  Attribute.of("objectClass", "inetOrgPerson"), Attribute.of("uid", "nosn"),
                  Attribute.of("cn", "x")))),
          new Refused("modify", person(3), ResultCode.NO_SUCH_ATTRIBUTE, "",
              "modify/delete: pager: no such attribute", () -> c.modify(person(3), List.of(
                  new Modification(Modification.Type.DELETE, Attribute.of("pager"))))),
          new Refused("delete", "not a DN", ResultCode.INVALID_DN_SYNTAX, "", "invalid DN",
              () -> c.delete("not a DN")),
          new Refused("bind", ADMIN, ResultCode.INVALID_CREDENTIALS, "", "",
              () -> c.bind(ADMIN, "wrong")));
      for (Refused r : cases) {
        LdapException e = assertThrows(LdapException.class, r.run(), r.operation());
        assertEquals(r.code(), e.resultCode(), e.getMessage());
        assertEquals(r.operation(), e.operation());
        assertEquals(r.dn(), e.dn());
        assertEquals(r.matchedDn(), e.result().matchedDn());
        assertEquals(r.diagnostic(), e.result().diagnosticMessage());
        String expected = r.operation() + " \"" + r.dn() + "\": " + r.code()
            + (r.matchedDn().isEmpty() ? "" : ", matched DN \"" + r.matchedDn() + "\"")
            + (r.diagnostic().isEmpty() ? "" : ", server message \"" + r.diagnostic() + "\"");
        assertEquals(expected, e.getMessage());
      }
    }
  }

  @Test
  @Order(8)
  void upgradesWithStartTls() throws Exception {
    try (LdapConnection c = connect()) {
      c.startTls(slapd.trustingTestCa());
      c.bind(ADMIN, PASSWORD);
      assertEquals("dn:" + ADMIN, c.whoAmI());
      assertEquals(PEOPLE_COUNT - 1, uids(c, "(objectClass=inetOrgPerson)").size());
    }
  }

  @Test
  @Order(9)
  void startTlsRejectsAnUntrustedServer() throws Exception {
    try (LdapConnection c = connect()) {
      javax.net.ssl.SSLContext ctx = javax.net.ssl.SSLContext.getInstance("TLS");
      ctx.init(null, null, null); // the JDK's default trust store does not know the test CA
      assertThrows(javax.net.ssl.SSLHandshakeException.class,
          () -> c.startTls(ctx.getSocketFactory()));
      assertFalse(c.isOpen());
    }
  }

  @Test
  @Order(10)
  void multiplexesConcurrentRequests() throws Exception {
    try (LdapConnection c = connect();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<List<String>>> futures = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int n = i % PEOPLE_COUNT == 2 ? 3 : i % PEOPLE_COUNT;
        Callable<List<String>> search = () -> uids(c, "(uid=user" + n + ")");
        futures.add(pool.submit(search));
      }
      for (int i = 0; i < futures.size(); i++) {
        int n = i % PEOPLE_COUNT == 2 ? 3 : i % PEOPLE_COUNT;
        assertEquals(List.of("user" + n), futures.get(i).get());
      }
    }
  }

  @Test
  @Order(11)
  void abandonsAStreamingSearchAndKeepsWorking() throws Exception {
    try (LdapConnection c = connect()) {
      try (SearchResults r = c.search(SearchRequest.of(PEOPLE, SearchScope.SINGLE_LEVEL,
          Filter.present("objectClass")))) {
        assertTrue(r.hasNext());
        r.next();
      } // closed early: abandoned
      assertEquals(List.of("user5"), uids(c, "(uid=user5)"));
    }
  }
}
