package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.cli.FerryCliTest.Result;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.net.URI;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** {@code ferry ldap serve} and {@code ferry ldap search} together on loopback. */
class LdapCliTest {
  static final String LDIF = """
      dn: dc=example,dc=com
      objectClass: domain
      dc: example

      dn: ou=people,dc=example,dc=com
      objectClass: organizationalUnit
      ou: people

      dn: uid=bjensen,ou=people,dc=example,dc=com
      objectClass: inetOrgPerson
      uid: bjensen
      cn: Barbara Jensen
      sn: Jensen
      mail: bjensen@example.com
      description:: w4lsw6hndWU=
      """;

  @TempDir Path dir;

  static List<LdifRecord> ldif(String text) throws Exception {
    return LdifReader.of(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))
        .readAll();
  }

  @Test
  void searchesWhatServeLoaded() throws Exception {
    Path data = Files.writeString(dir.resolve("data.ldif"), LDIF + peopleLdif(12));
    try (RunningFerry serve = new RunningFerry("ldap", "serve", "--ldif", data.toString(),
        "--port", "0", "--root-dn", "cn=admin,dc=example,dc=com", "--root-password", "pw")) {
      String url = serve.awaitUrl("LDAP server at ");
      assertThat(serve.out()).contains("15 entries");
      Result r = ferry("ldap", "search", "--url", url, "--base", "dc=example,dc=com",
          "(uid=bjensen)", "cn", "mail", "description");
      assertThat(r.exit()).as(r.err()).isZero();
      List<LdifRecord> found = ldif(r.out());
      assertThat(found).hasSize(1);
      LdifRecord.Entry e = (LdifRecord.Entry) found.get(0);
      assertThat(e.dn()).isEqualTo("uid=bjensen,ou=people,dc=example,dc=com");
      assertThat(e.attribute("description")).isEqualTo(Attribute.of("description", "Élègue"));
      assertThat(e.attributes()).hasSize(3);
      assertThat(r.out()).endsWith("# 1 entries, success (0)\n");
      Result paged = ferry("ldap", "search", "--url", url, "-b", "ou=people,dc=example,dc=com",
          "--scope", "one", "--page-size", "5", "-D", "cn=admin,dc=example,dc=com", "-w", "pw",
          "(objectClass=person)", "1.1");
      assertThat(paged.exit()).as(paged.err()).isZero();
      assertThat(ldif(paged.out())).hasSize(13);
      assertThat(serve.stop()).isZero();
    }
  }

  @Test
  void aDirectoryKeptOnDiskIsImportedServedChangedAndExported() throws Exception {
    Path ldifFile = Files.writeString(dir.resolve("data.ldif"), LDIF + peopleLdif(30));
    Path store = dir.resolve("store");
    String[] shape = {"--data", store.toString(), "--suffix", "dc=example,dc=com",
        "--index", "uid=eq", "--index", "cn=sub"};
    Result imported = ferry(concat(new String[] {"ldap", "import", ldifFile.toString()},
        shape));
    assertThat(imported.exit()).as(imported.err()).isZero();
    assertThat(imported.out()).contains("imported 33 records");
    String[] serveArgs = concat(new String[] {"ldap", "serve", "--port", "0", "--root-dn",
        "cn=admin,dc=example,dc=com", "--root-password", "pw"}, shape);
    try (RunningFerry serve = new RunningFerry(serveArgs)) {
      String url = serve.awaitUrl("LDAP server at ");
      assertThat(serve.out()).contains("33 entries kept in " + store);
      try (LdapConnection c = LdapConnection.connect(URI.create(url).getHost(),
          URI.create(url).getPort())) {
        c.bind("cn=admin,dc=example,dc=com", "pw");
        c.modify("uid=bjensen,ou=people,dc=example,dc=com", List.of(new Modification(
            Modification.Type.REPLACE, Attribute.of("mail", "babs@example.com"))));
      }
      Result exported = ferry("ldap", "export", "--data", store.toString()); // beside it
      assertThat(exported.exit()).as(exported.err()).isZero();
      assertThat(ldif(exported.out())).hasSize(33);
      assertThat(exported.out()).contains("mail: babs@example.com").contains("entryUUID: ");
      assertThat(serve.stop()).isZero();
    }
    try (RunningFerry serve = new RunningFerry(serveArgs)) { // what was changed is kept
      String url = serve.awaitUrl("LDAP server at ");
      Result r = ferry("ldap", "search", "--url", url, "--base", "dc=example,dc=com",
          "(uid=bjensen)", "mail");
      assertThat(r.out()).contains("mail: babs@example.com");
      assertThat(serve.stop()).isZero();
    }
    Result again = ferry(concat(new String[] {"ldap", "import", ldifFile.toString()}, shape));
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).contains("LDIF record dc=example,dc=com: entryAlreadyExists");
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void errorsAreNamedWithTheirExitCodes() throws Exception {
    Path data = Files.writeString(dir.resolve("data.ldif"), LDIF);
    try (RunningFerry serve = new RunningFerry("ldap", "serve", "--ldif", data.toString(),
        "--port", "0", "--schema", "standard")) {
      String url = serve.awaitUrl("LDAP server at ");
      Result missing = ferry("ldap", "search", "--url", url, "--base",
          "uid=nobody,ou=people,dc=example,dc=com");
      assertThat(missing.exit()).isEqualTo(5);
      assertThat(missing.err()).contains("noSuchObject (32)")
          .contains("matched DN \"ou=people,dc=example,dc=com\"");
      Result limited = ferry("ldap", "search", "--url", url, "--base", "dc=example,dc=com",
          "--size-limit", "1");
      assertThat(limited.exit()).isEqualTo(5);
      assertThat(limited.err()).contains("sizeLimitExceeded (4)");
      Result badFilter = ferry("ldap", "search", "--url", url, "(uid=x");
      assertThat(badFilter.exit()).isEqualTo(2);
      assertThat(badFilter.err()).contains("FILTER:");
      Result wrongPassword = ferry("ldap", "search", "--url", url, "-D",
          "uid=bjensen,ou=people,dc=example,dc=com", "-w", "x");
      assertThat(wrongPassword.exit()).isEqualTo(5);
      assertThat(wrongPassword.err()).contains("invalidCredentials (49)");
      assertThat(serve.stop()).isZero();
    }
    Result down = ferry("ldap", "search", "--url", "ldap://127.0.0.1:1", "--timeout", "2s");
    assertThat(down.exit()).isEqualTo(4);
    assertThat(down.err()).contains("127.0.0.1");
  }

  @Test
  void serveRefusesBadLdifNamingTheLine() throws Exception {
    Path bad = Files.writeString(dir.resolve("bad.ldif"), "dn: dc=example,dc=com\n"
        + "objectClass: domain\ndc: example\n\ncn: no dn here\n");
    Result r = ferry("ldap", "serve", "--ldif", bad.toString(), "--port", "0");
    assertThat(r.exit()).isEqualTo(3);
    assertThat(r.err()).contains("line 5").contains("expected: dn:");
    Path violating = Files.writeString(dir.resolve("violating.ldif"),
        "dn: cn=x,dc=example,dc=com\nobjectClass: person\ncn: x\n");
    Result schema = ferry("ldap", "serve", "--ldif", violating.toString(), "--port", "0",
        "--schema", "standard");
    assertThat(schema.exit()).isEqualTo(3);
    assertThat(schema.err()).contains("cn=x,dc=example,dc=com")
        .contains("requires attribute 'sn'");
    Result none = ferry("ldap", "serve", "--ldif", dir.resolve("none.ldif").toString());
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err()).contains("no such file");
  }

  static final String ADMIN = "cn=admin,dc=example,dc=com";
  static final String BJENSEN = "uid=bjensen,ou=people,dc=example,dc=com";
  static final String JDOE = "uid=jdoe,ou=people,dc=example,dc=com";
  static final String WITH_PASSWORDS = LDIF + "userPassword: hifalutin\n\n"
      + "dn: " + JDOE + "\nobjectClass: inetOrgPerson\nuid: jdoe\ncn: John Doe\nsn: Doe\n"
      + "userPassword: secret\n";

  static LdapConnection connect(String url) throws Exception {
    URI u = URI.create(url);
    return LdapConnection.connect(u.getHost(), u.getPort());
  }

  static ResultCode code(Executable operation) {
    try {
      operation.execute();
      return ResultCode.SUCCESS;
    } catch (LdapException e) {
      return e.resultCode();
    } catch (Throwable e) {
      throw new AssertionError(e);
    }
  }

  static void describe(LdapConnection c, String dn, String text) throws Exception {
    c.modify(dn, List.of(new Modification(Modification.Type.REPLACE,
        Attribute.of("description", text))));
  }

  static ByteString newPassword(String password) throws Exception {
    return BerWriter.encode(w -> w.writeStartSequence()
        .writeOctetString(0x82, ByteString.encodeUtf8(password)).writeEndSequence());
  }

  @Test
  void byDefaultAnonymousReadsPublicAttributesUsersTheirPasswordAndTheRootWrites()
      throws Exception {
    // The report: without rules any bound user could rewrite any entry, others' passwords too.
    Path data = Files.writeString(dir.resolve("data.ldif"), WITH_PASSWORDS);
    try (RunningFerry serve = new RunningFerry("ldap", "serve", "--ldif", data.toString(),
        "--port", "0", "--root-dn", ADMIN, "--root-password", "pw")) {
      String url = serve.awaitUrl("LDAP server at ");
      assertThat(serve.out()).contains("default access");
      Result r = ferry("ldap", "search", "--url", url, "--base", BJENSEN, "--scope", "base",
          "(objectClass=*)", "*", "userPassword");
      assertThat(r.exit()).as(r.err()).isZero();
      assertThat(r.out()).contains("cn: Barbara Jensen").doesNotContain("userPassword");
      try (LdapConnection babs = connect(url); LdapConnection root = connect(url)) {
        babs.bind(BJENSEN, "hifalutin");
        assertThat(code(() -> describe(babs, JDOE, "defaced")))
            .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        assertThat(code(() -> babs.modify(JDOE, List.of(new Modification(
            Modification.Type.REPLACE, Attribute.of("userPassword", "mine"))))))
            .isEqualTo(ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
        assertThat(code(() -> babs.extended("1.3.6.1.4.1.4203.1.11.1", newPassword("new"))))
            .isEqualTo(ResultCode.SUCCESS);
        babs.bind(BJENSEN, "new");
        assertThat(code(() -> babs.modify(BJENSEN, List.of(new Modification(
            Modification.Type.REPLACE, Attribute.of("userPassword", "newer"))))))
            .isEqualTo(ResultCode.SUCCESS);
        babs.bind(BJENSEN, "newer");
        assertThat(babs.searchAll(SearchRequest.of("dc=example,dc=com",
            SearchScope.WHOLE_SUBTREE, Filter.present("userPassword")))).isEmpty();
        root.bind(ADMIN, "pw");
        describe(root, JDOE, "changed by the root");
        assertThat(root.searchAll(SearchRequest.of("dc=example,dc=com",
            SearchScope.WHOLE_SUBTREE, Filter.present("userPassword")))).hasSize(2);
      }
      assertThat(serve.stop()).isZero();
    }
  }

  @Test
  void accessRulesComeFromAFile() throws Exception {
    Path data = Files.writeString(dir.resolve("data.ldif"), WITH_PASSWORDS);
    Path rules = Files.writeString(dir.resolve("rules.txt"), """
        # people manage their colleagues; nobody else reads anything
        to ou=people,dc=example,dc=com by users write
        """);
    try (RunningFerry serve = new RunningFerry("ldap", "serve", "--ldif", data.toString(),
        "--port", "0", "--access", rules.toString())) {
      String url = serve.awaitUrl("LDAP server at ");
      Result anonymous = ferry("ldap", "search", "--url", url, "--base", "dc=example,dc=com");
      assertThat(anonymous.exit()).isEqualTo(5);
      assertThat(anonymous.err()).contains("noSuchObject (32)");
      try (LdapConnection babs = connect(url)) {
        babs.bind(BJENSEN, "hifalutin");
        describe(babs, JDOE, "changed by a colleague");
        assertThat(code(() -> describe(babs, "dc=example,dc=com", "x")))
            .isEqualTo(ResultCode.NO_SUCH_OBJECT); // outside the rules: not there for her
      }
      assertThat(serve.stop()).isZero();
    }
    Path bad = Files.writeString(dir.resolve("bad.txt"), "to * by users read\nto * by all read\n");
    Result r = ferry("ldap", "serve", "--ldif", data.toString(), "--port", "0", "--access",
        bad.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("line 2").contains("expected: anonymous, users");
  }

  @Test
  void readOnlyRefusesEveryChangeTheRootsToo() throws Exception {
    Path data = Files.writeString(dir.resolve("data.ldif"), WITH_PASSWORDS);
    try (RunningFerry serve = new RunningFerry("ldap", "serve", "--ldif", data.toString(),
        "--port", "0", "--root-dn", ADMIN, "--root-password", "pw", "--read-only")) {
      String url = serve.awaitUrl("LDAP server at ");
      assertThat(serve.out()).contains("read-only");
      try (LdapConnection root = connect(url)) {
        root.bind(ADMIN, "pw");
        assertThat(code(() -> describe(root, JDOE, "x")))
            .isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
        assertThat(code(() -> root.delete(JDOE))).isEqualTo(ResultCode.UNWILLING_TO_PERFORM);
        assertThat(root.searchAll(SearchRequest.of(JDOE, SearchScope.BASE_OBJECT,
            Filter.present("objectClass")))).hasSize(1);
      }
      assertThat(serve.stop()).isZero();
    }
  }

  @Test
  void indexesNarrowAnonymousSearchesTheLimitWouldRefuse() throws Exception {
    Path data = Files.writeString(dir.resolve("data.ldif"), LDIF + peopleLdif(10_001));
    try (RunningFerry serve = new RunningFerry("ldap", "serve", "--ldif", data.toString(),
        "--port", "0", "--index", "uid=eq", "--index", "cn=eq,sub")) {
      String url = serve.awaitUrl("LDAP server at ");
      Result indexed = ferry("ldap", "search", "--url", url, "--base", "dc=example,dc=com",
          "(|(uid=p9999)(cn=*P 1000*))", "1.1");
      assertThat(indexed.exit()).as(indexed.err()).isZero();
      assertThat(ldif(indexed.out())).hasSize(3); // p9999, p1000 and p10000
      Result unindexed = ferry("ldap", "search", "--url", url, "--base", "dc=example,dc=com",
          "(sn=nobody)", "1.1");
      assertThat(unindexed.exit()).isEqualTo(5);
      assertThat(unindexed.err()).contains("adminLimitExceeded (11)");
      assertThat(serve.stop()).isZero();
    }
    Result bad = ferry("ldap", "serve", "--ldif", data.toString(), "--index", "uid=exact");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("expected: eq, pres, sub or ord");
  }

  @Test
  void helpSaysWhatTheDefaultAllows() {
    Result r = ferry("ldap", "serve", "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out().replaceAll("\\s+", " ")).contains("Who may do what, without --access")
        .contains("never a password").contains("change their own password")
        .contains("only the --root-dn adds, changes").contains("--read-only");
  }

  private static String peopleLdif(int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append("\ndn: uid=p").append(i).append(",ou=people,dc=example,dc=com\n")
          .append("objectClass: inetOrgPerson\nuid: p").append(i).append("\ncn: P ").append(i)
          .append("\nsn: P\n");
    }
    return s.toString();
  }
}
