package dev.ferry.ldap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class LdapUrlTest {

  @Test
  void defaultsThePortBySchemeAndLeavesAbsentPartsEmpty() {
    LdapUrl ldaps = LdapUrl.parse("ldaps://ldap.example.com");
    assertEquals(636, ldaps.port());
    assertTrue(ldaps.isTls());
    assertEquals("", ldaps.dn());
    assertEquals(List.of(), ldaps.attributes());
    assertNull(ldaps.scope());
    assertNull(ldaps.filter());
    LdapUrl ldap = LdapUrl.parse("LDAP://ldap.example.com/");
    assertEquals(389, ldap.port());
    assertFalse(ldap.isTls());
    assertEquals("ldap://ldap.example.com:389", ldap.serverPart());
  }

  @Test
  void readsEveryPartOfAReferral() {
    LdapUrl u = LdapUrl.parse(
        "ldap://127.0.0.1:1389/ou=people,dc=example,dc=com?cn,mail?one?(uid=j%2A)");
    assertEquals("127.0.0.1", u.host());
    assertEquals(1389, u.port());
    assertEquals("ou=people,dc=example,dc=com", u.dn());
    assertEquals(List.of("cn", "mail"), u.attributes());
    assertEquals(SearchScope.SINGLE_LEVEL, u.scope());
    assertEquals("(uid=j*)", u.filter());
    assertEquals(SearchScope.WHOLE_SUBTREE, LdapUrl.parse("ldap://h/o=x??sub").scope());
    assertEquals(SearchScope.BASE_OBJECT, LdapUrl.parse("ldap://h/o=x??base").scope());
  }

  @Test
  void decodesPercentEscapesAsUtf8() {
    assertEquals("cn=Jürgen,o=Ä B", LdapUrl.parse("ldap://h/cn=J%C3%BCrgen,o=%C3%84%20B").dn());
    assertEquals("cn=😀", LdapUrl.parse("ldap://h/cn=😀").dn());
  }

  @Test
  void readsBracketedIpv6Addresses() {
    LdapUrl u = LdapUrl.parse("ldaps://[::1]:10636/dc=x");
    assertEquals("::1", u.host());
    assertEquals(10636, u.port());
    assertEquals("ldaps://[::1]:10636", u.serverPart());
    assertEquals(636, LdapUrl.parse("ldaps://[::1]/").port());
  }

  @Test
  void rejectsWhatIsNotAnLdapUrl() {
    assertThrows(IllegalArgumentException.class, () -> LdapUrl.parse("http://h/"));
    assertThrows(IllegalArgumentException.class, () -> LdapUrl.parse("ldap:/h"));
    assertThrows(IllegalArgumentException.class, () -> LdapUrl.parse("ldap://h:x/"));
    assertThrows(IllegalArgumentException.class, () -> LdapUrl.parse("ldap://h:70000/"));
    assertThrows(IllegalArgumentException.class, () -> LdapUrl.parse("ldap://h/o=x??deep"));
    assertThrows(IllegalArgumentException.class, () -> LdapUrl.parse("ldap://h/o=%4"));
    assertThrows(IllegalArgumentException.class, () -> LdapUrl.parse("ldap://h/o=%zz"));
    assertThrows(IllegalArgumentException.class, () -> LdapUrl.parse("ldap://h/o=x????a?b"));
  }

  @Test
  void refusesCriticalExtensionsButIgnoresOthers() {
    assertThrows(IllegalArgumentException.class,
        () -> LdapUrl.parse("ldap://h/o=x????!bindname=cn=a"));
    assertEquals("o=x", LdapUrl.parse("ldap://h/o=x????bindname=cn=a").dn());
  }
}
