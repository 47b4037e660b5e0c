package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Dn;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaTest {
  static final Path OPENLDAP = Path.of("/etc/ldap/schema");

  /** slapd's schema for the interop tests: its files on Ferry's system schema. */
  static Schema openLdap(String... files) throws IOException {
    Schema.Builder b = Schema.builder();
    for (String f : files) {
      b.load(OPENLDAP.resolve(f));
    }
    return b.build();
  }

  @Test
  void standardSchemaResolvesInheritance() {
    Schema s = Schema.standard();
    AttributeType cn = s.type("commonName");
    assertSame(cn, s.type("CN"));
    assertSame(cn, s.type("2.5.4.3"));
    assertEquals("caseIgnoreMatch", cn.equality.name);
    assertEquals("caseIgnoreSubstringsMatch", cn.substr.name);
    assertEquals(AttributeType.DIRECTORY_STRING, cn.syntax);
    assertTrue(cn.isA(s.type("name")));
    ObjectClass inet = s.objectClass("inetOrgPerson");
    assertTrue(inet.isA(s.objectClass("person")));
    assertTrue(inet.must.contains(s.type("sn")) && inet.must.contains(s.type("objectClass")));
    assertTrue(inet.may.contains(s.type("mail")) && inet.may.contains(s.type("telephoneNumber")));
    assertTrue(s.type("createTimestamp").isOperational());
    assertEquals("integerOrderingMatch", s.type("uidNumber").ordering.name);
  }

  @Test
  void undefinedTypesAreMadeUpAsCaseIgnoreStrings() {
    AttributeType t = Schema.standard().type("myAttribute");
    assertTrue(!t.defined);
    assertEquals("caseIgnoreMatch", t.equality.name);
    assertSame(t, Schema.standard().type("MYATTRIBUTE"));
  }

  @Test
  void madeUpTypesAreKeptBoundedAndStillMatchByName() {
    Schema s = Schema.standard().toBuilder().build();
    for (int i = 0; i < 10_000; i++) {
      s.type("madeUp" + i);
    }
    AttributeType late = s.type("madeUp9999");
    assertTrue(late.isA(s.type("MADEUP9999")), "one name, one type, cached or not");
    assertTrue(!late.isA(s.type("madeUp9998")));
    assertTrue(!late.isA(s.type("cn")) && !s.type("cn").isA(late));
  }

  @Test
  void loadsOpenLdapsFilesOnTheSystemSchema() throws IOException {
    Schema s = openLdap("core.schema", "cosine.schema", "nis.schema", "inetorgperson.schema");
    assertTrue(s.definesObjectClass("posixAccount"));
    assertTrue(s.definesAttributeType("mail"));
    assertEquals("telephoneNumberMatch", s.type("homePhone").equality.name);
  }

  @Test
  void loadsOpenLdapsLdifFilesAsWell() throws IOException {
    Schema s = openLdap("core.ldif", "cosine.ldif", "nis.ldif", "inetorgperson.ldif");
    assertTrue(s.definesObjectClass("inetOrgPerson"));
    assertEquals("caseIgnoreIA5Match", s.type("mail").equality.name);
  }

  @Test
  void loadsEveryFileOpenLdapShipsWithItsDependencies() throws IOException {
    // dsee uses OID macros (its .schema form misspells a keyword: the LDIF form is read)
    Schema s = openLdap("core.schema", "cosine.schema", "inetorgperson.schema", "nis.schema",
        "dsee.ldif", "java.schema", "misc.schema", "openldap.schema", "corba.schema",
        "dyngroup.schema", "duaconf.schema", "pmi.schema", "collective.schema",
        "namedobject.schema");
    assertTrue(s.definesAttributeType("2.16.840.1.113730.3.1.5")); // NSDSat:5 expanded
  }

  /** Ferry's standard definitions agree with OpenLDAP's wherever both define a type. */
  @Test
  void standardAgreesWithOpenLdapsFiles() throws IOException {
    Schema ours = Schema.standard();
    Schema theirs = openLdap("core.schema", "cosine.schema", "nis.schema",
        "inetorgperson.schema");
    List<String> differences = new ArrayList<>();
    for (AttributeType t : ours.attributeTypes()) {
      AttributeType o = theirs.definedType(t.oid);
      if (o == null) {
        continue;
      }
      String a = describe(t);
      String b = describe(o);
      if (!a.equals(b)) {
        differences.add("ours " + a + "\n   theirs " + b);
      }
    }
    for (ObjectClass c : ours.objectClasses()) {
      ObjectClass o = theirs.objectClass(c.oid);
      if (o != null && !(c.must.stream().map(x -> x.oid).sorted().toList()
          .equals(o.must.stream().map(x -> x.oid).sorted().toList())
          && c.kind == o.kind)) {
        differences.add("class " + c.name() + " must " + c.must + " vs " + o.must);
      }
    }
    assertEquals("", String.join("\n", differences));
  }

  private static String describe(AttributeType t) {
    return t.name() + " sup=" + (t.sup == null ? null : t.sup.oid) + " eq=" + t.equality
        + " ord=" + t.ordering + " sub=" + t.substr + " syntax=" + t.syntax + " single="
        + t.singleValue + " usage=" + t.usage;
  }

  @Test
  void errorsNameTheFileAndTheMissingReference() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () ->
        Schema.builder().openLdap("attributetype ( 1.2.3 NAME 'x' SUP nothere )", "mine.schema")
            .build());
    assertTrue(e.getMessage().contains("mine.schema line 1"), e.getMessage());
    assertTrue(e.getMessage().contains("'nothere', which is not defined"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Schema.standard().toBuilder()
        .openLdap("attributetype ( 2.5.4.3 NAME 'again' SUP name )", "dup.schema").build());
    assertTrue(e.getMessage().contains("already defined"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Schema.builder()
        .openLdap("attributetype ( 1.2.3 NAME 'x' SYNTAX 1.1 ", "bad.schema").build());
    assertTrue(e.getMessage().contains("bad.schema line 1"), e.getMessage());
  }

  @Test
  void ldifSchemaEntriesMayBeNumbered() throws IOException {
    String ldif = """
        dn: cn=mine,cn=schema,cn=config
        objectClass: olcSchemaConfig
        olcObjectIdentifier: {0}Mine 1.3.6.1.4.1.99999
        olcAttributeTypes: {0}( Mine:1 NAME 'myCount' EQUALITY integerMatch
          SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
        olcObjectClasses: {0}( Mine:2 NAME 'counted' SUP top AUXILIARY MUST myCount )
        """;
    Schema s = Schema.builder().ldif(new ByteArrayInputStream(
        ldif.getBytes(StandardCharsets.UTF_8)), "mine.ldif").build();
    assertEquals("1.3.6.1.4.1.99999.1", s.type("myCount").oid);
    assertTrue(s.type("myCount").singleValue);
    assertTrue(s.objectClass("counted").must.contains(s.type("myCount")));
  }

  @Test
  void dnKeysFollowTheAttributesMatchingRules() {
    Schema s = Schema.standard();
    String a = s.normalize(Dn.parse("CN=Babs  Jensen+uid=BJ,ou=People,DC=Example,dc=COM"));
    String b = s.normalize(Dn.parse("uid=bj+commonName=babs jensen, ou=people,dc=example,dc=com"));
    assertEquals(a, b);
    String exact = s.normalize(Dn.parse("homeDirectory=/Home,dc=com"));
    String other = s.normalize(Dn.parse("homeDirectory=/home,dc=com"));
    assertTrue(!exact.equals(other), "caseExactIA5Match keeps case");
    assertTrue(a.startsWith(s.normalize(Dn.parse("dc=example,dc=com")) + Schema.RDN_SEPARATOR));
  }

  @Test
  void matchingRulesNormalise() {
    Schema s = Schema.standard();
    assertEquals("+1 408 5551212".replace(" ", ""), s.type("telephoneNumber").equality
        .key(ByteString.encodeUtf8("+1 408-555 1212"), s));
    assertEquals(new java.math.BigInteger("42"), s.type("uidNumber").equality
        .key(ByteString.encodeUtf8(" 042 "), s));
    assertNull(s.type("uidNumber").equality.key(ByteString.encodeUtf8("forty-two"), s));
    assertEquals("2.5.6.6", s.type("objectClass").equality.key(ByteString.encodeUtf8("PERSON"),
        s));
    assertEquals(MatchingRules.generalizedTime("20240102030405Z"),
        MatchingRules.generalizedTime("20240102040405+0100"));
    assertEquals(MatchingRules.generalizedTime("202401020304Z").plusSeconds(30),
        MatchingRules.generalizedTime("202401020304.5Z"));
    assertNull(MatchingRules.generalizedTime("20241302030405Z"));
  }
}
