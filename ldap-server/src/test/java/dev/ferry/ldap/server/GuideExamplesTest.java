package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerRules;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdapPool;
import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.LdifWriter;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.SearchScope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of docs/ldap.md, run: each snippet in the guide is a block of this file (checked
 * by DocSnippetsTest in interop), so the guide cannot drift from what works.
 */
class GuideExamplesTest {
  @TempDir Path dir;

  @Test
  void berAndAnLdapPduWithoutACopy() throws IOException {
    // tag::ber[]
    ByteString der = BerWriter.encode(BerRules.DER, w -> w   // measured, then written once
        .writeStartSequence()
        .writeInteger(7)
        .writeOctetString(ByteString.encodeUtf8("hello"))
        .writeEndSequence());
    BerReader r = BerReader.of(der);
    r.readStartSequence();
    int id = r.readInteger();
    ByteString value = r.readOctetString();                  // a slice of der, not a copy
    r.readEndSequence();
    // end::ber[]
    assertEquals(7, id);
    assertEquals("hello", value.utf8());
    byte[] received = LdapCodec.encode(LdapMessage.of(3,
        new ProtocolOp.DeleteRequest("cn=x,dc=example,dc=com"))).toByteArray();
    // tag::ldap-decode[]
    byte[] pdu = received;                     // one LDAPMessage, in an array that is yours
    LdapMessage message = LdapCodec.decode(ByteString.takeOwnership(pdu));
    // no copy: values are slices of pdu, so pdu must not be written to from here on
    // end::ldap-decode[]
    assertEquals(3, message.messageId());
  }

  @Test
  void serverFromLdif() throws IOException {
    Path data = Files.copy(resource("example.ldif"), dir.resolve("data.ldif"));
    // tag::server[]
    try (LdapServer server = LdapServer.builder()
        .suffix("dc=example,dc=com")
        .rootDn("cn=admin,dc=example,dc=com", "secret")
        .ldif(data)
        .start();
        LdapConnection c = LdapConnection.connect(server.host(), server.port())) {
      List<SearchResultEntry> found = c.searchAll(SearchRequest.of("dc=example,dc=com",
          SearchScope.WHOLE_SUBTREE, Filter.parse("(&(objectClass=person)(mail=*))"),
          "cn", "mail"));
      assertEquals(2, found.size());
    }
    // end::server[]
  }

  @Test
  void serverWithSchemaAccessAndLimits() throws IOException {
    Path data = Files.copy(resource("example.ldif"), dir.resolve("data.ldif"));
    // tag::options[]
    LdapServer.Builder builder = LdapServer.builder()
        .suffix("dc=example,dc=com")
        .schema(Schema.standard())                      // adds and modifies are checked
        .access(AccessRules.builder()
            .anonymousRead(false)
            .allowBoundUsers("ou=people,dc=example,dc=com", AccessRules.Level.READ)
            .allow("uid=bjensen,ou=people,dc=example,dc=com", "dc=example,dc=com",
                AccessRules.Level.WRITE)
            .build())
        .limits(LdapServerLimits.builder().maxSearchResults(100).build())
        .ldif(data);
    // end::options[]
    try (LdapServer server = builder.start()) {
      assertEquals(6, server.entryCount());
    }
  }

  @Test
  void ldifReadAndWrite() throws IOException {
    Path file = Files.copy(resource("example.ldif"), dir.resolve("data.ldif"));
    // tag::ldif[]
    List<String> dns = new ArrayList<>();
    try (LdifReader reader = LdifReader.of(Files.newInputStream(file))) {
      for (LdifRecord record; (record = reader.next()) != null; ) {
        if (record instanceof LdifRecord.Entry entry) {
          dns.add(entry.dn());                    // one record in memory at a time
        }
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (LdifWriter writer = LdifWriter.of(out)) {
      writer.write(new LdifRecord.Entry("cn=Zoë,dc=example,dc=com",
          List.of(Attribute.of("objectClass", "device"), Attribute.of("cn", "Zoë"))));
    }
    // "dn:: Y249Wm/DqyxkYz1leGFtcGxlLGRjPWNvbQ==" and "cn:: Wm/Dqw==": UTF-8 goes in base64
    // end::ldif[]
    assertEquals(6, dns.size());
    assertEquals("dn:: Y249Wm/DqyxkYz1leGFtcGxlLGRjPWNvbQ==\nobjectClass: device\n"
        + "cn:: Wm/Dqw==\n", out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void pool() throws IOException {
    try (LdapServer one = LdapServer.builder().ldifResource(getClass(), "example.ldif")
        .rootDn("cn=admin,dc=example,dc=com", "secret").start();
        LdapServer two = LdapServer.builder().ldifResource(getClass(), "example.ldif")
        .rootDn("cn=admin,dc=example,dc=com", "secret").start()) {
      String first = one.url();
      String second = two.url();
      // tag::pool[]
      try (LdapPool pool = LdapPool.builder()
          .servers(first, second)                 // ldap://host:port, in failover order
          .strategy(LdapPool.Strategy.FAILOVER)
          .bind("cn=admin,dc=example,dc=com", "secret")
          .min(2).max(16)
          .checkoutTimeout(Duration.ofSeconds(5))
          .build()) {
        List<SearchResultEntry> people = pool.execute(c -> c.searchAll(SearchRequest.of(
            "ou=people,dc=example,dc=com", SearchScope.SINGLE_LEVEL,
            Filter.parse("(objectClass=person)"), "cn")));
        assertEquals(2, people.size());
      }
      // end::pool[]
    }
  }

  private static Path resource(String name) throws IOException {
    Path p = Files.createTempFile("guide", ".ldif");
    try (InputStream in = GuideExamplesTest.class.getResourceAsStream(name)) {
      Files.copy(in, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    p.toFile().deleteOnExit();
    return p;
  }
}
