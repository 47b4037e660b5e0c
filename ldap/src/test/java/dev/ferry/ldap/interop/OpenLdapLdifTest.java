package dev.ferry.ldap.interop;

import static dev.ferry.ldap.interop.Slapd.ADMIN;
import static dev.ferry.ldap.interop.Slapd.PASSWORD;
import static dev.ferry.ldap.interop.Slapd.SUFFIX;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.LdifWriter;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.SearchScope;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * LDIF as OpenLDAP writes and reads it: the schema files Debian's slapd ships, slapd's own
 * configuration as {@code slapcat} dumps it, {@code ldapsearch} output read by
 * {@link LdifReader}, and {@link LdifWriter} output applied by {@code ldapmodify}.
 */
class OpenLdapLdifTest {
  private static final Path SCHEMA = Path.of("/etc/ldap/schema");
  private static final String PEOPLE = "ou=people," + SUFFIX;
  private static Slapd slapd;

  @BeforeAll
  static void start() throws Exception {
    slapd = Slapd.start();
    slapd.awaitReady();
    slapd.addBaseEntries();
  }

  @AfterAll
  static void stop() throws Exception {
    if (slapd != null) {
      slapd.close();
    }
  }

  @Test
  void readsEverySchemaLdifOpenLdapShips() throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(SCHEMA)) {
      files = s.filter(p -> p.toString().endsWith(".ldif")).sorted().toList();
    }
    assertTrue(files.size() >= 10, "schema LDIFs in " + SCHEMA + ": " + files);
    for (Path file : files) {
      List<LdifRecord> records = LdifReader.readAll(file);
      assertEquals(1, records.size(), file.toString());
      LdifRecord.Entry schema = (LdifRecord.Entry) records.get(0);
      assertTrue(schema.dn().endsWith(",cn=schema,cn=config"), schema.dn());
      // Counted on the raw text: each definition starts one unfolded line.
      // (lower case: dsee.ldif spells one "olcObjectclasses")
      String text = Files.readString(file).toLowerCase(java.util.Locale.ROOT);
      assertEquals(count(text, "\nolcattributetypes:"), values(schema, "olcAttributeTypes"),
          file.toString());
      assertEquals(count(text, "\nolcobjectclasses:"), values(schema, "olcObjectClasses"),
          file.toString());
      for (Attribute a : schema.attributes()) {
        if (a.description().startsWith("olcAttributeTypes")) {
          for (ByteString v : a.values()) {
            String d = v.utf8().replaceFirst("^\\{\\d+\\}", ""); // some files number them
            assertTrue(d.startsWith("(") && d.endsWith(")") && !d.contains("\n"), d);
          }
        }
      }
    }
  }

  @Test
  void readsSlapdsOwnDumpOfTheSchemaItLoaded() throws Exception {
    byte[] dump = Slapd.tool(List.of("/usr/sbin/slapcat", "-n", "0", "-F",
        slapd.dir.resolve("slapd.d").toString()));
    List<LdifRecord> config = LdifReader.of(new ByteArrayInputStream(dump)).readAll();
    LdifRecord.Entry loaded = (LdifRecord.Entry) config.stream()
        .filter(r -> r.dn().equals("cn={0}core,cn=schema,cn=config")).findFirst().orElseThrow();
    LdifRecord.Entry shipped = (LdifRecord.Entry) LdifReader.readAll(SCHEMA.resolve("core.ldif"))
        .get(0);
    // slapd numbers each definition ("{3}( 2.5.4.3 ...") and folds at its own column.
    List<String> fromSlapd = new ArrayList<>();
    for (ByteString v : loaded.attribute("olcAttributeTypes").values()) {
      fromSlapd.add(v.utf8().replaceFirst("^\\{\\d+\\}", ""));
    }
    List<String> fromFile = shipped.attribute("olcAttributeTypes").values().stream()
        .map(ByteString::utf8).toList();
    assertEquals(fromFile.size(), fromSlapd.size());
    for (int i = 0; i < fromFile.size(); i++) {
      assertEquals(fromFile.get(i).replaceAll("\\s+", " "), fromSlapd.get(i)
          .replaceAll("\\s+", " "));
    }
  }

  @Test
  void readsWhatLdapsearchWrites() throws Exception {
    byte[] photo = new byte[3000];
    new Random(7).nextBytes(photo);
    List<Attribute> attributes = List.of(
        Attribute.of("objectClass", "inetOrgPerson"),
        Attribute.of("cn", "Zoë Ünal", "  leading spaces", "colon: inside"),
        Attribute.of("sn", "Ünal"),
        new Attribute("jpegPhoto", List.of(ByteString.of(photo))),
        Attribute.of("description", "a line\nand another", "ends with a space "),
        Attribute.of("uid", "zoe"));
    String dn = "uid=zoe," + PEOPLE;
    try (LdapConnection c = slapd.admin()) {
      c.add(dn, attributes);
    }
    byte[] out = Slapd.tool(List.of("ldapsearch", "-x", "-LLL", "-H",
        "ldap://127.0.0.1:" + slapd.port, "-b", dn, "-s", "base", "(objectClass=*)"));
    List<LdifRecord> records = LdifReader.of(new ByteArrayInputStream(out)).readAll();
    assertEquals(1, records.size());
    LdifRecord.Entry e = (LdifRecord.Entry) records.get(0);
    assertEquals(dn, e.dn());
    for (Attribute a : attributes) {
      assertEquals(a.values(), e.attribute(a.description()).values(), a.description());
    }
  }

  @Test
  void ldapmodifyAppliesWhatLdifWriterWrites() throws Exception {
    String dn = "cn=Written Ünal," + PEOPLE;
    List<LdifRecord> changes = List.of(
        new LdifRecord.Add(dn, List.of(Attribute.of("objectClass", "person"),
            Attribute.of("cn", "Written Ünal"), Attribute.of("sn", " Ünal"),
            Attribute.of("description", "one", "two")), List.of()),
        new LdifRecord.Modify(dn, List.of(
            new Modification(Modification.Type.ADD, Attribute.of("description", "three:")),
            new Modification(Modification.Type.DELETE, Attribute.of("description", "one")),
            new Modification(Modification.Type.REPLACE, Attribute.of("telephoneNumber",
                "+1 408 555 1212"))), List.of()),
        new LdifRecord.ModifyDn(dn, "cn=Renamed", false, null, List.of()));
    Path file = Files.createTempFile("ferry-changes", ".ldif");
    try {
      try (LdifWriter w = LdifWriter.of(Files.newOutputStream(file), 20)) {
        for (LdifRecord r : changes) {
          w.write(r);
        }
      }
      Slapd.tool(List.of("ldapmodify", "-x", "-H", "ldap://127.0.0.1:" + slapd.port, "-D",
          ADMIN, "-w", PASSWORD, "-f", file.toString()));
    } finally {
      Files.deleteIfExists(file);
    }
    try (LdapConnection c = slapd.admin()) {
      List<SearchResultEntry> found = c.searchAll(SearchRequest.of("cn=Renamed," + PEOPLE,
          SearchScope.BASE_OBJECT, Filter.present("objectClass")));
      SearchResultEntry e = found.get(0);
      assertEquals(List.of("two", "three:"), e.attribute("description").values().stream()
          .map(ByteString::utf8).toList());
      assertEquals(" Ünal", e.attribute("sn").firstValueAsString());
      assertEquals(List.of("Written Ünal", "Renamed"), e.attribute("cn").values().stream()
          .map(ByteString::utf8).toList());
      assertNotNull(e.attribute("telephoneNumber"));
      assertFalse(c.searchAll(SearchRequest.of(PEOPLE, SearchScope.SINGLE_LEVEL,
          Filter.equality("cn", "Written Ünal"))).isEmpty());
    }
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
      n++;
    }
    return n;
  }

  private static int values(LdifRecord.Entry e, String description) {
    Attribute a = e.attribute(description);
    return a == null ? 0 : a.size();
  }
}
