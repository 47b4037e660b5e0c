package dev.ferry.ldap.server;

import static dev.ferry.ldap.server.DirectoryAssertions.assertAttributeValues;
import static dev.ferry.ldap.server.DirectoryAssertions.assertEntryMissing;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ferry.testkit.PythonPackages;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Ferry's server driven by Python's ldap3 (2.9.1 from PyPI, in a virtual environment the test's
 * own script makes under {@code ~/.cache/ferry}): StartTLS, bind, the root DSE and the schema
 * ldap3 reads and parses, search, add, modify, compare, modify DN, paged search, Who am I,
 * password modify and an error result. The test fails if ldap3 cannot be installed, unless
 * {@code FERRY_SKIP_LDAP3=1} is set.
 */
class Ldap3InteropTest {
  static final String BASE = LdapServerTest.BASE;
  static final String PEOPLE = LdapServerTest.PEOPLE;

  static Path python() throws Exception {
    PythonPackages.Install install = PythonPackages.install("ldap3", "ldap3", "2.9.1");
    if (!install.installed()) {
      String why = "Python's ldap3 could not be installed (exit " + install.exit() + "):\n"
          + install.error() + "\nRun where PyPI is reachable (and as root if python3-venv is"
          + " missing), or set FERRY_SKIP_LDAP3=1 to skip this test.";
      Assumptions.assumeFalse("1".equals(System.getenv("FERRY_SKIP_LDAP3")), why);
      fail(why);
    }
    return install.python();
  }

  @Test
  void ldap3DrivesTheServer() throws Exception {
    Path python = python();
    try (TestCertificates certificates = TestCertificates.create();
        LdapServer server = LdapServer.builder().suffix(BASE)
            .rootDn(LdapServerTest.ADMIN, "secret").tls(certificates.server())
            .ldifResource(Ldap3InteropTest.class, "example.ldif").start()) {
      Path client = Files.createTempFile("ldap3_client", ".py");
      try (InputStream in = getClass().getResourceAsStream("ldap3_client.py")) {
        Files.copy(in, client, StandardCopyOption.REPLACE_EXISTING);
      }
      Tool t;
      try {
        t = Tool.run(Map.of(), List.of(python.toString(), client.toString(), "127.0.0.1",
            String.valueOf(server.port()), certificates.caPem().toString(), BASE,
            LdapServerTest.ADMIN, "secret")).ok();
      } finally {
        Files.deleteIfExists(client);
      }
      Map<String, String> out = new HashMap<>();
      for (String line : t.out().split("\n")) {
        int eq = line.indexOf('=');
        out.put(line.substring(0, eq), line.substring(eq + 1));
      }
      assertEquals("true", out.get("start_tls"), t.out());
      assertEquals("true", out.get("bind"));
      assertEquals("[\"dc=example,dc=com\"]", out.get("naming_contexts"));
      assertEquals("true", out.get("schema_knows_inetOrgPerson"));
      assertEquals("[\"caseIgnoreIA5Match\"]", out.get("schema_mail_equality"));
      assertEquals("\"dn:cn=admin,dc=example,dc=com\"", out.get("who_am_i"));
      assertEquals("[{\"cn\": [\"Babs Jensen\", \"Barbara Jensen\"], \"dn\": \""
          + LdapServerTest.BJENSEN + "\", \"mail\": \"bjensen@example.com\"}]",
          out.get("search"));
      assertEquals("true", out.get("add"));
      assertEquals("[false, 68]", out.get("add_again"));
      assertEquals("true", out.get("modify"));
      assertEquals("true", out.get("compare_true"));
      assertEquals("false", out.get("compare_false"));
      assertEquals("true", out.get("modify_dn"));
      assertEquals("7", out.get("paged_count"));
      assertEquals("true", out.get("password"));
      assertEquals("true", out.get("user_bind"));
      assertEquals("{\"matched\": \"" + PEOPLE + "\", \"result\": 32}", out.get("missing"));
      assertEquals("true", out.get("delete"));
      assertEntryMissing(server, "uid=py2," + PEOPLE);
      assertAttributeValues(server, "uid=jdoe," + PEOPLE, "uid", "jdoe");
    }
  }
}
