package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** The schema check on add and modify, and the permissive mode that has none. */
class SchemaCheckTest {
  static final String BASE = "dc=example,dc=com";
  static final String ADMIN = "cn=admin," + BASE;

  static LdapServer server(Schema schema) throws IOException {
    LdapServer.Builder b = LdapServer.builder().suffix(BASE).rootDn(ADMIN, "secret")
        .ldif("dn: " + BASE + "\nobjectClass: domain\ndc: example\n");
    return (schema == null ? b : b.schema(schema)).start();
  }

  static ResultCode add(LdapConnection c, String rdn, Attribute... attributes) {
    try {
      c.add(rdn + "," + BASE, List.of(attributes));
      return ResultCode.SUCCESS;
    } catch (LdapException e) {
      return e.resultCode();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static Attribute person() {
    return Attribute.of("objectClass", "person");
  }

  @Test
  void addIsChecked() throws IOException {
    try (LdapServer s = server(Schema.standard());
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind(ADMIN, "secret");
      assertEquals(ResultCode.SUCCESS, add(c, "cn=ok", person(), Attribute.of("cn", "ok"),
          Attribute.of("sn", "ok")));
      LdapException e = assertThrows(LdapException.class, () -> c.add("cn=a," + BASE,
          List.of(person(), Attribute.of("cn", "a"))));
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, e.resultCode());
      assertEquals("object class 'person' requires attribute 'sn'",
          e.result().diagnosticMessage());
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, add(c, "cn=b", person(),
          Attribute.of("cn", "b"), Attribute.of("sn", "b"), Attribute.of("mail", "b@x")));
      assertEquals(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, add(c, "cn=c", person(),
          Attribute.of("cn", "c"), Attribute.of("sn", "c"), Attribute.of("shoeSize", "9")));
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, add(c, "cn=d", Attribute.of("cn", "d")));
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, add(c, "cn=e",
          Attribute.of("objectClass", "person", "noSuchClass"), Attribute.of("cn", "e"),
          Attribute.of("sn", "e")));
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, add(c, "cn=f",
          Attribute.of("objectClass", "person", "device"), Attribute.of("cn", "f"),
          Attribute.of("sn", "f")));
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, add(c, "cn=g",
          Attribute.of("objectClass", "dcObject"), Attribute.of("cn", "g"),
          Attribute.of("dc", "g")));
      assertEquals(ResultCode.INVALID_ATTRIBUTE_SYNTAX, add(c, "cn=h",
          Attribute.of("objectClass", "posixGroup"), Attribute.of("cn", "h"),
          Attribute.of("gidNumber", "ten")));
      assertEquals(ResultCode.CONSTRAINT_VIOLATION, add(c, "cn=i",
          Attribute.of("objectClass", "posixGroup"), Attribute.of("cn", "i"),
          Attribute.of("gidNumber", "1", "2")));
      assertEquals(ResultCode.CONSTRAINT_VIOLATION, add(c, "cn=j", person(),
          Attribute.of("cn", "j"), Attribute.of("sn", "j"),
          Attribute.of("createTimestamp", "20240101000000Z")));
      assertEquals(ResultCode.SUCCESS, add(c, "cn=k",
          Attribute.of("objectClass", "device", "extensibleObject"), Attribute.of("cn", "k"),
          Attribute.of("mail", "k@example.com"), Attribute.of("uidNumber", "7")));
    }
  }

  @Test
  void modifyIsChecked() throws IOException {
    try (LdapServer s = server(Schema.standard());
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind(ADMIN, "secret");
      String dn = "cn=p," + BASE;
      c.add(dn, List.of(person(), Attribute.of("cn", "p"), Attribute.of("sn", "p")));
      LdapException e = assertThrows(LdapException.class, () -> c.modify(dn, List.of(
          new Modification(Modification.Type.DELETE, Attribute.of("sn")))));
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, e.resultCode());
      e = assertThrows(LdapException.class, () -> c.modify(dn, List.of(
          new Modification(Modification.Type.ADD, Attribute.of("mail", "p@x")))));
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, e.resultCode());
      c.modify(dn, List.of(
          new Modification(Modification.Type.ADD, Attribute.of("objectClass",
              "inetOrgPerson")),
          new Modification(Modification.Type.ADD, Attribute.of("mail", "p@x"))));
      e = assertThrows(LdapException.class, () -> c.modify(dn, List.of(
          new Modification(Modification.Type.REPLACE, Attribute.of("modifyTimestamp",
              "20240101000000Z")))));
      assertEquals(ResultCode.CONSTRAINT_VIOLATION, e.resultCode());
      assertEquals(1, c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
          Filter.parse("(&(objectClass=inetOrgPerson)(mail=p@x))"))).size());
    }
  }

  @Test
  void openLdapsSchemaFilesCheckToo() throws IOException {
    Schema openLdap = SchemaTest.openLdap("core.schema", "cosine.schema",
        "inetorgperson.schema", "nis.schema");
    try (LdapServer s = server(openLdap);
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind(ADMIN, "secret");
      assertEquals(ResultCode.SUCCESS, add(c, "uid=n", Attribute.of("objectClass", "account",
          "posixAccount"), Attribute.of("uid", "n"), Attribute.of("cn", "n"),
          Attribute.of("uidNumber", "1"), Attribute.of("gidNumber", "1"),
          Attribute.of("homeDirectory", "/home/n")));
      assertEquals(ResultCode.OBJECT_CLASS_VIOLATION, add(c, "uid=m",
          Attribute.of("objectClass", "account", "posixAccount"), Attribute.of("uid", "m"),
          Attribute.of("cn", "m"), Attribute.of("uidNumber", "1")));
    }
  }

  @Test
  void permissiveModeAcceptsWhatTheCheckRefuses() throws IOException {
    try (LdapServer s = server(null);
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind(ADMIN, "secret");
      assertEquals(ResultCode.SUCCESS, add(c, "cn=a", Attribute.of("cn", "a"),
          Attribute.of("shoeSize", "9"), Attribute.of("objectClass", "nothing")));
      assertTrue(c.compare("cn=a," + BASE, "SHOESIZE", dev.ferry.bytes.ByteString
          .encodeUtf8("9")));
      // still no operational attributes from clients, and still one value of each
      assertEquals(ResultCode.CONSTRAINT_VIOLATION, add(c, "cn=b", Attribute.of("cn", "b"),
          Attribute.of("entryUUID", "x")));
      assertEquals(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, add(c, "cn=c",
          Attribute.of("cn", "c", "C")));
    }
  }
}
