package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Anonymous read on and off, and rules by bind DN and subtree. */
class AccessRulesTest {
  static final String BASE = LdapServerTest.BASE;
  static final String PEOPLE = LdapServerTest.PEOPLE;
  static final String BJENSEN = LdapServerTest.BJENSEN;
  static final String JDOE = "uid=jdoe," + PEOPLE;

  static LdapServer server(AccessRules rules) throws IOException {
    return LdapServer.builder().suffix(BASE).rootDn(LdapServerTest.ADMIN, "secret")
        .access(rules).ldifResource(AccessRulesTest.class, "example.ldif").start();
  }

  static int count(LdapConnection c, String base) throws IOException {
    return c.searchAll(SearchRequest.of(base, SearchScope.WHOLE_SUBTREE,
        Filter.present("objectClass"))).size();
  }

  static ResultCode replaceDescription(LdapConnection c, String dn) throws IOException {
    try {
      c.modify(dn, List.of(new Modification(Modification.Type.REPLACE,
          Attribute.of("description", "changed"))));
      return ResultCode.SUCCESS;
    } catch (LdapException e) {
      return e.resultCode();
    }
  }

  @Test
  void anonymousReadOff() throws IOException {
    try (LdapServer s = server(AccessRules.builder().anonymousRead(false).build());
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      LdapException e = assertThrows(LdapException.class, () -> count(c, BASE));
      assertEquals(ResultCode.NO_SUCH_OBJECT, e.resultCode());
      e = assertThrows(LdapException.class, () -> c.compare(BJENSEN, "uid",
          ByteString.encodeUtf8("bjensen")));
      assertEquals(ResultCode.NO_SUCH_OBJECT, e.resultCode());
      // the root DSE stays readable: clients need it to connect
      assertEquals(1, c.searchAll(SearchRequest.of("", SearchScope.BASE_OBJECT,
          Filter.present("objectClass"))).size());
      c.bind(BJENSEN, "hifalutin");
      assertEquals(6, count(c, BASE)); // without rules, bound clients read everything
    }
  }

  @Test
  void rulesByDnAndSubtree() throws IOException {
    AccessRules rules = AccessRules.builder().anonymousRead(false)
        .allowBoundUsers(PEOPLE, AccessRules.Level.READ)
        .allow(BJENSEN, PEOPLE, AccessRules.Level.WRITE)
        .allowSubtree(PEOPLE, "ou=groups," + BASE, AccessRules.Level.READ)
        .build();
    try (LdapServer s = server(rules);
        LdapConnection babs = LdapConnection.connect("127.0.0.1", s.port());
        LdapConnection john = LdapConnection.connect("127.0.0.1", s.port());
        LdapConnection root = LdapConnection.connect("127.0.0.1", s.port())) {
      babs.bind(BJENSEN, "hifalutin");
      john.bind(JDOE, "secret");
      root.bind(LdapServerTest.ADMIN, "secret");
      assertEquals(3, count(babs, PEOPLE));
      assertEquals(2, count(john, "ou=groups," + BASE));
      // the base entry is outside every rule: invisible, even in a subtree search from it
      assertEquals(ResultCode.NO_SUCH_OBJECT, assertThrows(LdapException.class,
          () -> count(john, BASE)).resultCode());
      assertEquals(ResultCode.SUCCESS, replaceDescription(babs, JDOE));
      assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, replaceDescription(john, BJENSEN));
      assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, replaceDescription(babs,
          "cn=admins,ou=groups," + BASE));
      assertEquals(ResultCode.SUCCESS, replaceDescription(root,
          "cn=admins,ou=groups," + BASE));
      assertEquals(6, count(root, BASE));
    }
  }

  @Test
  void rulesReadFromText() throws IOException {
    AccessRules rules = AccessRules.parse("""
        # a comment, then a blank line

        to ou=groups,dc=example,dc=com by anonymous read
        TO * BY users read
        to ou=people,dc=example,dc=com by dn=uid=bjensen,ou=people,dc=example,dc=com write
        to * by dn.subtree=ou=people,dc=example,dc=com read
        """);
    try (LdapServer s = server(rules);
        LdapConnection anonymous = LdapConnection.connect("127.0.0.1", s.port());
        LdapConnection babs = LdapConnection.connect("127.0.0.1", s.port());
        LdapConnection john = LdapConnection.connect("127.0.0.1", s.port())) {
      assertEquals(2, count(anonymous, "ou=groups," + BASE));
      assertEquals(ResultCode.NO_SUCH_OBJECT, assertThrows(LdapException.class,
          () -> count(anonymous, PEOPLE)).resultCode());
      babs.bind(BJENSEN, "hifalutin");
      john.bind(JDOE, "secret");
      assertEquals(6, count(john, BASE));
      assertEquals(ResultCode.SUCCESS, replaceDescription(babs, JDOE));
      assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, replaceDescription(john, BJENSEN));
      assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, replaceDescription(john, JDOE));
    }
  }

  @Test
  void badRuleTextNamesTheLine() {
    for (String[] bad : new String[][] {
        {"to * by users read\nallow all", "line 2", "expected: to SUBTREE by WHO LEVEL"},
        {"to * by users own", "line 1", "expected: read, write or manage"},
        {"to * by anonymous write", "line 1", "anonymous clients may only read"},
        {"to * by everybody read", "line 1", "expected: anonymous, users"},
        {"to not a dn by users read", "line 1", ""}}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> AccessRules.parse(bad[0]));
      assertTrue(e.getMessage().contains(bad[1]) && e.getMessage().contains(bad[2]),
          e.getMessage());
    }
  }
}
