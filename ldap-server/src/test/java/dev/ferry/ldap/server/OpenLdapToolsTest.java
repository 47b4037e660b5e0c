package dev.ferry.ldap.server;

import static dev.ferry.ldap.server.DirectoryAssertions.assertAttributeValues;
import static dev.ferry.ldap.server.DirectoryAssertions.assertEntryExists;
import static dev.ferry.ldap.server.DirectoryAssertions.assertEntryMissing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.LdifWriter;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.interop.Slapd;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Ferry's server driven by OpenLDAP's command-line tools from Debian's ldap-utils (installed by
 * the slapd tests' script when missing): ldapsearch (paged, StartTLS), ldapadd and ldapmodify
 * with LDIF that Ferry writes, ldappasswd, ldapwhoami (simple and SASL EXTERNAL), ldapcompare,
 * ldapdelete, ldapmodrdn, and the errors they report.
 */
class OpenLdapToolsTest {
  static final String BASE = LdapServerTest.BASE;
  static final String PEOPLE = LdapServerTest.PEOPLE;
  static final String BJENSEN = LdapServerTest.BJENSEN;
  static final String ADMIN = LdapServerTest.ADMIN;
  private static TestCertificates certificates;
  private static LdapServer server;
  private static Path home;
  private static Map<String, StoredEntry> loaded;

  @BeforeAll
  static void start() throws Exception {
    Slapd.ensureInstalled();
    certificates = TestCertificates.create();
    home = Files.createTempDirectory("ferry-ldaprc");
    server = LdapServer.builder().suffix(BASE, "o=Ferry").rootDn(ADMIN, "secret")
        .tls(certificates.server())
        .ldifResource(OpenLdapToolsTest.class, "example.ldif")
        .ldif("dn: o=Ferry\nobjectClass: organization\no: Ferry\n\n"
            + "dn: cn=client,o=Ferry\nobjectClass: device\ncn: client\n")
        .start();
    loaded = server.snapshot();
  }

  @AfterEach
  void restore() {
    server.restore(loaded); // each test starts from the LDIF as loaded
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (certificates != null) {
      certificates.close();
    }
    if (home != null) {
      try (var files = Files.walk(home)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /** The tools read no configuration but what a test gives them in their environment. */
  static Map<String, String> env(boolean clientCertificate) {
    Map<String, String> env = new HashMap<>();
    env.put("HOME", home.toString());
    env.put("LDAPCONF", "/dev/null");
    env.put("LDAPTLS_CACERT", certificates.caPem().toString());
    env.put("LDAPTLS_REQCERT", "demand");
    if (clientCertificate) {
      env.put("LDAPTLS_CERT", certificates.file("client") + ".pem");
      env.put("LDAPTLS_KEY", certificates.file("client") + ".key");
    }
    return env;
  }

  static List<String> command(String tool, String... args) {
    List<String> c = new ArrayList<>(List.of(tool, "-H", "ldap://127.0.0.1:" + server.port()));
    c.addAll(List.of(args));
    return c;
  }

  static Tool run(String tool, String... args) throws Exception {
    return Tool.run(env(false), command(tool, args));
  }

  static List<LdifRecord> ldif(String text) throws Exception {
    return LdifReader.of(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
        .readAll();
  }

  @Test
  void ldapsearchReadsEntriesAsLdif() throws Exception {
    Tool t = run("ldapsearch", "-x", "-LLL", "-b", BASE, "(uid=bjensen)", "cn", "mail").ok();
    List<LdifRecord> records = ldif(t.out());
    assertEquals(1, records.size());
    LdifRecord.Entry e = (LdifRecord.Entry) records.get(0);
    assertEquals(BJENSEN, e.dn());
    assertEquals(Attribute.of("cn", "Barbara Jensen", "Babs Jensen"), e.attribute("cn"));
    assertEquals(2, e.attributes().size());
  }

  @Test
  void ldapsearchPagesAndReadsTheRootDse() throws Exception {
    Tool t = run("ldapsearch", "-x", "-LLL", "-E", "pr=2/noprompt", "-b", BASE,
        "(objectClass=*)", "1.1").ok();
    Set<String> dns = new TreeSet<>();
    for (LdifRecord r : ldif(t.out())) {
      dns.add(r.dn());
    }
    assertEquals(6, dns.size());
    t = run("ldapsearch", "-x", "-LLL", "-s", "base", "-b", "", "+").ok();
    assertTrue(t.out().contains("namingContexts: dc=example,dc=com"), t.out());
    assertTrue(t.out().contains("supportedExtension: 1.3.6.1.4.1.1466.20037"), t.out());
  }

  @Test
  void ldapsearchOverStartTls() throws Exception {
    Tool t = run("ldapsearch", "-x", "-ZZ", "-LLL", "-b", BJENSEN, "-s", "base",
        "(objectClass=*)", "uid").ok();
    assertTrue(t.out().contains("uid: bjensen"), t.out());
  }

  @Test
  void ldapwhoamiWithSaslExternal() throws Exception {
    Tool t = Tool.run(env(true), command("ldapwhoami", "-ZZ", "-Y", "EXTERNAL")).ok();
    assertEquals("dn:cn=client,o=Ferry", t.out().strip());
  }

  @Test
  void ldapaddAndLdapmodifyApplyWhatLdifWriterWrites() throws Exception {
    String dn = "uid=tools," + PEOPLE;
    Path file = Files.createTempFile("ferry-tools", ".ldif");
    try {
      try (LdifWriter w = LdifWriter.of(Files.newOutputStream(file))) {
        w.write(new LdifRecord.Entry(dn, List.of(Attribute.of("objectClass", "inetOrgPerson"),
            Attribute.of("uid", "tools"), Attribute.of("cn", "Tööls"),
            Attribute.of("sn", " leading space"))));
      }
      run("ldapadd", "-x", "-D", ADMIN, "-w", "secret", "-f", file.toString()).ok();
      assertAttributeValues(server, dn, "sn", " leading space");
      assertAttributeValues(server, dn, "cn", "Tööls");
      try (LdifWriter w = LdifWriter.of(Files.newOutputStream(file))) {
        w.write(new LdifRecord.Modify(dn, List.of(
            new Modification(Modification.Type.ADD, Attribute.of("mail", "t@example.com")),
            new Modification(Modification.Type.REPLACE, Attribute.of("sn", "Tools"))),
            List.of()));
        w.write(new LdifRecord.ModifyDn(dn, "uid=renamed", true, null, List.of()));
      }
      run("ldapmodify", "-x", "-D", ADMIN, "-w", "secret", "-f", file.toString()).ok();
      String renamed = "uid=renamed," + PEOPLE;
      assertEntryMissing(server, dn);
      assertAttributeValues(server, renamed, "uid", "renamed");
      assertAttributeValues(server, renamed, "mail", "t@example.com");
      run("ldapdelete", "-x", "-D", ADMIN, "-w", "secret", renamed).ok();
      assertEntryMissing(server, renamed);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  @Test
  void ldappasswdThenLdapwhoami() throws Exception {
    String dn = "uid=jdoe," + PEOPLE;
    run("ldappasswd", "-x", "-D", ADMIN, "-w", "secret", "-s", "n3w-pass", dn).ok();
    Tool t = run("ldapwhoami", "-x", "-D", dn, "-w", "n3w-pass").ok();
    assertEquals("dn:" + dn, t.out().strip());
    Tool refused = run("ldapwhoami", "-x", "-D", dn, "-w", "secret");
    assertEquals(49, refused.exit());
    assertTrue(refused.err().contains("Invalid credentials"), refused.err());
    // the user changes it, giving the old one
    run("ldappasswd", "-x", "-D", dn, "-w", "n3w-pass", "-a", "n3w-pass", "-s", "other").ok();
    run("ldapwhoami", "-x", "-D", dn, "-w", "other").ok();
  }

  @Test
  void ldapcompareAndErrors() throws Exception {
    Tool t = run("ldapcompare", "-x", BJENSEN, "cn:babs jensen");
    assertEquals(6, t.exit(), t.err());
    assertEquals("TRUE", t.out().strip());
    assertEquals(5, run("ldapcompare", "-x", BJENSEN, "cn:nobody").exit());
    Tool missing = run("ldapsearch", "-x", "-b", "uid=nobody," + PEOPLE, "(objectClass=*)");
    assertEquals(32, missing.exit());
    assertTrue(missing.out().contains("matchedDN: " + PEOPLE), missing.out());
    Tool denied = run("ldapdelete", "-x", BJENSEN);
    assertEquals(50, denied.exit());
    assertEntryExists(server, BJENSEN);
    Tool nonLeaf = run("ldapdelete", "-x", "-D", ADMIN, "-w", "secret", PEOPLE);
    assertEquals(66, nonLeaf.exit(), nonLeaf.err());
  }

  @Test
  void ldapmodrdnMovesAnEntry() throws Exception {
    Tool t = Tool.run(env(false), command("ldapadd", "-x", "-D", ADMIN, "-w", "secret"),
        write("dn: ou=moved," + BASE + "\nobjectClass: organizationalUnit\nou: moved\n"));
    t.ok();
    run("ldapmodrdn", "-x", "-D", ADMIN, "-w", "secret", "-r", "-s", "ou=moved," + BASE,
        "cn=admins,ou=groups," + BASE, "cn=staff").ok();
    assertAttributeValues(server, "cn=staff,ou=moved," + BASE, "cn", "staff");
  }

  private static Path write(String text) throws Exception {
    Path f = Files.createTempFile(home, "in", ".ldif");
    Files.writeString(f, text);
    return f;
  }
}
