package dev.ferry.ldap.server;

import static dev.ferry.ldap.server.DirectoryAssertions.assertAttributeValues;
import static dev.ferry.ldap.server.DirectoryAssertions.assertEntryExists;
import static dev.ferry.ldap.server.DirectoryAssertions.assertEntryMatches;
import static dev.ferry.ldap.server.DirectoryAssertions.assertEntryMissing;
import static dev.ferry.ldap.server.DirectoryAssertions.assertSearchCount;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension on a static field: one server for the class, restored after each test. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LdapServerExtensionTest {
  static final String BJENSEN = LdapServerTest.BJENSEN;

  // tag::extension[]
  @RegisterExtension
  static final LdapServerExtension LDAP = new LdapServerExtension(LdapServer.builder()
      .suffix("dc=example,dc=com")
      .rootDn("cn=admin,dc=example,dc=com", "secret")
      .ldifResource(LdapServerExtensionTest.class, "example.ldif"));

  @Test
  @Order(1)
  void aTestChangesTheDirectory(LdapServer server) throws IOException {
    try (LdapConnection c = LDAP.connect()) {
      c.bind("cn=admin,dc=example,dc=com", "secret");
      c.delete("uid=jdoe,ou=people,dc=example,dc=com");
    }
    assertEntryMissing(server, "uid=jdoe,ou=people,dc=example,dc=com");
    assertAttributeValues(server, BJENSEN, "cn", "barbara jensen", "BABS JENSEN");
    assertEntryMatches(server, BJENSEN, "(&(objectClass=person)(mail=*@example.com))");
    assertSearchCount(server, "dc=example,dc=com", SearchScope.WHOLE_SUBTREE,
        "(objectClass=person)", 1);
  }
  // end::extension[]

  @Test
  @Order(2)
  void theNextTestFindsItAsLoaded(LdapServer server) {
    assertSame(LDAP.server(), server);
    assertEntryExists(server, "uid=jdoe,ou=people,dc=example,dc=com");
    assertEquals(6, server.entryCount());
  }

  @Test
  @Order(3)
  void assertionsSayWhatTheyFound(LdapServer server) {
    AssertionError e = assertThrows(AssertionError.class, () -> assertEntryExists(server,
        "uid=nobody,ou=people,dc=example,dc=com"));
    assertTrue(e.getMessage().contains("nearest: ou=people,dc=example,dc=com"),
        e.getMessage());
    e = assertThrows(AssertionError.class, () -> assertAttributeValues(server, BJENSEN, "cn",
        "Barbara Jensen"));
    assertTrue(e.getMessage().contains("found [Barbara Jensen, Babs Jensen]"), e.getMessage());
    e = assertThrows(AssertionError.class, () -> assertSearchCount(server,
        "ou=people,dc=example,dc=com", SearchScope.SINGLE_LEVEL, "(uid=*)", 3));
    assertTrue(e.getMessage().contains("found 2"), e.getMessage());
    assertThrows(AssertionError.class, () -> assertEntryMatches(server, BJENSEN, "(uid=jdoe)"));
    assertThrows(AssertionError.class, () -> assertEntryMissing(server, BJENSEN));
  }
}
