package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.DerefAliases;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.SortControl;
import dev.ferry.ldap.VirtualListView;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchOutcome;
import dev.ferry.ldap.SearchResults;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The server's operations, driven by Ferry's own client. */
class LdapServerTest {
  static final String BASE = "dc=example,dc=com";
  static final String PEOPLE = "ou=people," + BASE;
  static final String BJENSEN = "uid=bjensen," + PEOPLE;
  static final String ADMIN = "cn=admin," + BASE;

  private LdapServer server;

  @BeforeEach
  void start() throws IOException {
    server = LdapServer.builder().suffix(BASE).rootDn(ADMIN, "secret")
        .ldifResource(LdapServerTest.class, "example.ldif").start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  LdapConnection connect() throws IOException {
    return LdapConnection.connect("127.0.0.1", server.port());
  }

  LdapConnection admin() throws IOException {
    LdapConnection c = connect();
    c.bind(ADMIN, "secret");
    return c;
  }

  static Set<String> dns(List<SearchResultEntry> entries) {
    Set<String> out = new TreeSet<>();
    for (SearchResultEntry e : entries) {
      out.add(e.objectName());
    }
    return out;
  }

  static List<String> values(SearchResultEntry e, String attribute) {
    Attribute a = e.attribute(attribute);
    return a == null ? List.of() : a.values().stream().map(ByteString::utf8).toList();
  }

  @Test
  void baseSearchReturnsTheEntryAsLoaded() throws IOException {
    try (LdapConnection c = connect()) {
      List<SearchResultEntry> found = c.searchAll(SearchRequest.of(BJENSEN,
          SearchScope.BASE_OBJECT, Filter.present("objectClass")));
      assertEquals(1, found.size());
      SearchResultEntry e = found.get(0);
      assertEquals(BJENSEN, e.objectName());
      assertEquals(List.of("Barbara Jensen", "Babs Jensen"), values(e, "cn"));
      assertEquals(List.of("objectClass", "uid", "cn", "sn", "givenName", "mail",
          "telephoneNumber", "description"), // userPassword is secret
          e.attributes().stream().map(Attribute::description).toList());
    }
  }

  @Test
  void scopesWalkOneLevelAndSubtree() throws IOException {
    try (LdapConnection c = connect()) {
      Filter all = Filter.present("objectClass");
      assertEquals(Set.of(PEOPLE, "ou=groups," + BASE), dns(c.searchAll(SearchRequest.of(BASE,
          SearchScope.SINGLE_LEVEL, all))));
      assertEquals(6, c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE, all))
          .size());
      assertEquals(Set.of(BJENSEN, "uid=jdoe," + PEOPLE), dns(c.searchAll(SearchRequest.of(
          PEOPLE, SearchScope.SINGLE_LEVEL, all))));
      assertEquals(Set.of(BASE), dns(c.searchAll(SearchRequest.of("", SearchScope.SINGLE_LEVEL,
          all))));
    }
  }

  @Test
  void filtersMatchByTheAttributesRules() throws IOException {
    try (LdapConnection c = connect()) {
      assertEquals(Set.of(BJENSEN), find(c, "(cn=babs   JENSEN)"));
      assertEquals(Set.of(BJENSEN), find(c, "(telephoneNumber=+14085551862)"));
      assertEquals(Set.of(BJENSEN), find(c, "(name=barbara jensen)")); // a supertype
      assertEquals(Set.of(BJENSEN, "uid=jdoe," + PEOPLE), find(c, "(objectClass=person)"));
      assertEquals(Set.of(BJENSEN, "uid=jdoe," + PEOPLE), find(c, "(mail=*@EXAMPLE.com)"));
      assertEquals(Set.of("uid=jdoe," + PEOPLE), find(c, "(&(objectClass=person)(!(uid=bj*)))"));
      assertEquals(Set.of(BJENSEN), find(c, "(|(sn=nobody)(description=*sailing*))"));
      assertEquals(Set.of("cn=admins,ou=groups," + BASE),
          find(c, "(member=UID=BJensen, ou=People,DC=example,dc=COM)"));
      assertEquals(Set.of(BJENSEN), find(c, "(cn:caseExactMatch:=Babs Jensen)"));
      assertEquals(Set.of(), find(c, "(cn:caseExactMatch:=babs jensen)"));
      assertEquals(Set.of(PEOPLE, BJENSEN, "uid=jdoe," + PEOPLE),
          find(c, "(ou:dn:=people)"));
      // permissive: an undefined type is a string type; nobody has it, so NOT is true
      assertEquals(6, find(c, "(!(undefinedType=x))").size());
    }
  }

  @Test
  void orderingFiltersUseOrderingRules() throws IOException {
    try (LdapConnection c = admin()) {
      for (int i = 1; i <= 3; i++) {
        c.add("cn=n" + i + "," + BASE, List.of(Attribute.of("objectClass", "posixGroup"),
            Attribute.of("cn", "n" + i), Attribute.of("gidNumber", String.valueOf(i * 5))));
      }
      assertEquals(Set.of("cn=n2," + BASE, "cn=n3," + BASE), find(c, "(gidNumber>=10)"));
      assertEquals(Set.of("cn=n1," + BASE), find(c, "(gidNumber<=9)"));
      // no ordering rule for cn in the standard schema: Undefined, so nothing
      assertEquals(Set.of(), find(c, "(cn>=a)"));
    }
  }

  private static Set<String> find(LdapConnection c, String filter) throws IOException {
    return dns(c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
        Filter.parse(filter), "1.1")));
  }

  @Test
  void attributeSelectionTypesOnlyAndOperationalAttributes() throws IOException {
    try (LdapConnection c = connect()) {
      SearchResultEntry e = c.searchAll(SearchRequest.of(BJENSEN, SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "commonName", "MAIL")).get(0);
      assertEquals(List.of("cn", "mail"), e.attributes().stream().map(Attribute::description)
          .toList());
      e = c.searchAll(new SearchRequest(BJENSEN, SearchScope.BASE_OBJECT, DerefAliases.NEVER,
          0, 0, true, Filter.present("objectClass"), List.of("sn", "uid"))).get(0);
      assertEquals(2, e.attributes().size());
      assertEquals(0, e.attribute("sn").size());
      e = c.searchAll(SearchRequest.of(BJENSEN, SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "+")).get(0);
      assertNull(e.attribute("cn"));
      assertEquals(List.of(BJENSEN), values(e, "entryDN"));
      assertEquals(List.of("inetOrgPerson"), values(e, "structuralObjectClass"));
      assertEquals(List.of("FALSE"), values(e, "hasSubordinates"));
      assertEquals(1, values(e, "entryUUID").size());
      assertTrue(values(e, "createTimestamp").get(0).matches("\\d{14}Z"));
      e = c.searchAll(SearchRequest.of(PEOPLE, SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "*", "hasSubordinates")).get(0);
      assertEquals(List.of("TRUE"), values(e, "hasSubordinates"));
      assertEquals(List.of("people"), values(e, "ou"));
    }
  }

  @Test
  void rootDseAndSubschema() throws IOException {
    try (LdapConnection c = connect()) {
      SearchResultEntry root = c.searchAll(SearchRequest.of("", SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "+")).get(0);
      assertEquals(List.of(BASE), values(root, "namingContexts"));
      assertEquals(List.of("3"), values(root, "supportedLDAPVersion"));
      assertTrue(values(root, "supportedControl").containsAll(List.of(PagedResults.OID,
          SortControl.OID, VirtualListView.OID)));
      SearchResultEntry schema = c.searchAll(SearchRequest.of("cn=subschema",
          SearchScope.BASE_OBJECT, Filter.parse("(objectClass=subschema)"), "attributeTypes",
          "objectClasses")).get(0);
      assertTrue(values(schema, "attributeTypes").stream().anyMatch(d -> d.contains("'cn'")));
      assertTrue(values(schema, "objectClasses").stream()
          .anyMatch(d -> d.contains("'inetOrgPerson'")));
    }
  }

  @Test
  void missingBaseIsNoSuchObjectWithTheMatchedDn() throws IOException {
    try (LdapConnection c = connect()) {
      LdapException e = assertThrows(LdapException.class, () -> c.searchAll(SearchRequest.of(
          "uid=nobody,ou=people," + BASE, SearchScope.BASE_OBJECT, Filter.present("cn"))));
      assertEquals(ResultCode.NO_SUCH_OBJECT, e.resultCode());
      assertEquals(PEOPLE, e.result().matchedDn());
      e = assertThrows(LdapException.class, () -> c.searchAll(SearchRequest.of("not a dn",
          SearchScope.BASE_OBJECT, Filter.present("cn"))));
      assertEquals(ResultCode.INVALID_DN_SYNTAX, e.resultCode());
    }
  }

  @Test
  void binds() throws IOException {
    try (LdapConnection c = connect()) {
      assertEquals("", c.whoAmI());
      c.bind(BJENSEN, "hifalutin");
      assertEquals("dn:" + BJENSEN, c.whoAmI());
      c.bind("uid=jdoe," + PEOPLE, "secret"); // {SSHA}
      assertEquals("dn:uid=jdoe," + PEOPLE, c.whoAmI());
      LdapException e = assertThrows(LdapException.class, () -> c.bind(BJENSEN, "wrong"));
      assertEquals(ResultCode.INVALID_CREDENTIALS, e.resultCode());
      assertEquals("", c.whoAmI()); // a failed bind leaves the connection anonymous
      e = assertThrows(LdapException.class, () -> c.bind("uid=nobody," + PEOPLE, "x"));
      assertEquals(ResultCode.INVALID_CREDENTIALS, e.resultCode());
      e = assertThrows(LdapException.class, () -> c.bind(BJENSEN, ""));
      assertEquals(ResultCode.UNWILLING_TO_PERFORM, e.resultCode());
      c.bind(ADMIN, "secret");
      assertEquals("dn:" + ADMIN, c.whoAmI());
    }
  }

  @Test
  void anonymousClientsMayReadButNotWrite() throws IOException {
    try (LdapConnection c = connect()) {
      LdapException e = assertThrows(LdapException.class, () -> c.delete(BJENSEN));
      assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, e.resultCode());
    }
  }

  @Test
  void addModifyRenameAndDelete() throws IOException {
    try (LdapConnection c = admin()) {
      String dn = "uid=new," + PEOPLE;
      c.add(dn, List.of(Attribute.of("objectClass", "inetOrgPerson"), Attribute.of("uid", "new"),
          Attribute.of("cn", "New Person"), Attribute.of("sn", "Person")));
      assertEquals(ResultCode.ENTRY_ALREADY_EXISTS, assertThrows(LdapException.class,
          () -> c.add(dn, List.of(Attribute.of("uid", "new")))).resultCode());
      c.modify(dn, List.of(
          new Modification(Modification.Type.ADD, Attribute.of("mail", "new@example.com")),
          new Modification(Modification.Type.REPLACE, Attribute.of("sn", "Newer")),
          new Modification(Modification.Type.DELETE, Attribute.of("cn", "New Person")),
          new Modification(Modification.Type.ADD, Attribute.of("cn", "Newest"))));
      SearchResultEntry e = read(c, dn);
      assertEquals(List.of("Newer"), values(e, "sn"));
      assertEquals(List.of("Newest"), values(e, "cn"));
      assertEquals(List.of("new@example.com"), values(e, "mail"));
      assertEquals(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, assertThrows(LdapException.class,
          () -> c.modify(dn, List.of(new Modification(Modification.Type.ADD,
              Attribute.of("mail", "NEW@example.com"))))).resultCode());
      assertEquals(ResultCode.NO_SUCH_ATTRIBUTE, assertThrows(LdapException.class,
          () -> c.modify(dn, List.of(new Modification(Modification.Type.DELETE,
              Attribute.of("title"))))).resultCode());
      assertEquals(ResultCode.NOT_ALLOWED_ON_RDN, assertThrows(LdapException.class,
          () -> c.modify(dn, List.of(new Modification(Modification.Type.DELETE,
              Attribute.of("uid"))))).resultCode());
      // a failed modify changes nothing, even the changes before the one that failed
      assertThrows(LdapException.class, () -> c.modify(dn, List.of(
          new Modification(Modification.Type.REPLACE, Attribute.of("sn", "Changed")),
          new Modification(Modification.Type.DELETE, Attribute.of("title")))));
      assertEquals(List.of("Newer"), values(read(c, dn), "sn"));
      c.modifyDn(dn, "uid=renamed", true, null);
      assertNull(server.entry(dn));
      e = read(c, "uid=renamed," + PEOPLE);
      assertEquals(List.of("renamed"), values(e, "uid"));
      c.delete("uid=renamed," + PEOPLE);
      assertEquals(ResultCode.NO_SUCH_OBJECT, assertThrows(LdapException.class,
          () -> c.delete("uid=renamed," + PEOPLE)).resultCode());
      assertEquals(ResultCode.NOT_ALLOWED_ON_NON_LEAF, assertThrows(LdapException.class,
          () -> c.delete(PEOPLE)).resultCode());
      assertEquals(ResultCode.NO_SUCH_OBJECT, assertThrows(LdapException.class,
          () -> c.add("uid=x,ou=nowhere," + BASE, List.of(Attribute.of("uid", "x"))))
          .resultCode());
      assertEquals(ResultCode.NAMING_VIOLATION, assertThrows(LdapException.class,
          () -> c.add("uid=x," + PEOPLE, List.of(Attribute.of("cn", "x")))).resultCode());
    }
  }

  @Test
  void modifyDnMovesASubtree() throws IOException {
    try (LdapConnection c = admin()) {
      c.add("ou=staff," + BASE, List.of(Attribute.of("objectClass", "organizationalUnit"),
          Attribute.of("ou", "staff")));
      c.modifyDn(PEOPLE, "ou=folks", false, "ou=staff," + BASE);
      String moved = "uid=bjensen,ou=folks,ou=staff," + BASE;
      SearchResultEntry e = read(c, moved);
      assertEquals(List.of("Barbara Jensen", "Babs Jensen"), values(e, "cn"));
      assertEquals(List.of("people", "folks"), values(read(c, "ou=folks,ou=staff," + BASE),
          "ou"));
      assertEquals(4, c.searchAll(SearchRequest.of("ou=staff," + BASE,
          SearchScope.WHOLE_SUBTREE, Filter.present("objectClass"))).size());
      SearchResultEntry op = c.searchAll(SearchRequest.of(moved, SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "entryDN")).get(0);
      assertEquals(List.of(moved), values(op, "entryDN"));
      assertEquals(ResultCode.UNWILLING_TO_PERFORM, assertThrows(LdapException.class,
          () -> c.modifyDn("ou=staff," + BASE, "ou=staff", false, "ou=folks,ou=staff," + BASE))
          .resultCode());
    }
  }

  @Test
  void compare() throws IOException {
    try (LdapConnection c = connect()) {
      assertTrue(c.compare(BJENSEN, "cn", ByteString.encodeUtf8("BABS JENSEN")));
      assertFalse(c.compare(BJENSEN, "cn", ByteString.encodeUtf8("nobody")));
      assertEquals(ResultCode.NO_SUCH_ATTRIBUTE, assertThrows(LdapException.class,
          () -> c.compare(BJENSEN, "title", ByteString.encodeUtf8("x"))).resultCode());
      assertEquals(ResultCode.NO_SUCH_OBJECT, assertThrows(LdapException.class,
          () -> c.compare("uid=no," + PEOPLE, "cn", ByteString.encodeUtf8("x"))).resultCode());
    }
  }

  @Test
  void pagedResultsWalkTheWholeSubtree() throws IOException {
    try (LdapConnection c = admin()) {
      for (int i = 0; i < 23; i++) {
        c.add("uid=p" + i + "," + PEOPLE, List.of(Attribute.of("objectClass", "account"),
            Attribute.of("uid", "p" + i)));
      }
      Set<String> seen = new TreeSet<>();
      ByteString cookie = ByteString.EMPTY;
      int pages = 0;
      do {
        SearchOutcome o = c.collect(SearchRequest.of(PEOPLE, SearchScope.SINGLE_LEVEL,
            Filter.parse("(objectClass=account)")), new PagedResults(5, cookie).toControl(true));
        for (SearchResultEntry e : o.entries()) {
          assertTrue(seen.add(e.objectName()), "twice: " + e.objectName());
        }
        assertTrue(o.entries().size() <= 5);
        cookie = PagedResults.from(o.done().controls().get(0)).cookie();
        pages++;
      } while (cookie.size() > 0);
      assertEquals(23, seen.size());
      assertEquals(5, pages);
    }
  }

  @Test
  void sizeLimitStopsWithSizeLimitExceeded() throws IOException {
    try (LdapConnection c = connect()) {
      SearchRequest r = new SearchRequest(BASE, SearchScope.WHOLE_SUBTREE, DerefAliases.NEVER,
          2, 0, false, Filter.present("objectClass"), List.of());
      List<LdapMessage> got = new ArrayList<>();
      try (SearchResults results = c.search(r)) {
        while (results.hasNext()) {
          got.add(results.next());
        }
        assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, results.done().result().resultCode());
      }
      assertEquals(2, got.size());
    }
  }

  @Test
  void criticalControlsTheServerDoesNotKnowAreRefused() throws IOException {
    try (LdapConnection c = connect()) {
      LdapException e = assertThrows(LdapException.class, () -> c.searchAll(SearchRequest.of(
          BASE, SearchScope.BASE_OBJECT, Filter.present("objectClass")),
          new Control("1.2.3.4", true, null)));
      assertEquals(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION, e.resultCode());
      assertEquals(1, c.searchAll(SearchRequest.of(BASE, SearchScope.BASE_OBJECT,
          Filter.present("objectClass")), new Control("1.2.3.4", false, null)).size());
    }
  }

  @Test
  void manyClientsAtOnce() throws Exception {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 16; t++) {
      threads.add(Thread.ofVirtual().start(() -> {
        try (LdapConnection c = connect()) {
          for (int i = 0; i < 200; i++) {
            assertEquals(1, c.searchAll(SearchRequest.of(BJENSEN, SearchScope.BASE_OBJECT,
                Filter.present("objectClass"))).size());
          }
        } catch (Throwable x) {
          failures.add(x);
        }
      }));
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(List.of(), failures);
  }

  @Test
  void entriesAreExportedAsLoaded() {
    assertEquals(6, server.entryCount());
    assertNotNull(server.entry("UID=BJENSEN,ou=people,dc=example,dc=com"));
    assertEquals(BASE, server.entries().get(0).dn());
  }

  static SearchResultEntry read(LdapConnection c, String dn) throws IOException {
    return c.searchAll(SearchRequest.of(dn, SearchScope.BASE_OBJECT,
        Filter.present("objectClass"))).get(0);
  }
}
