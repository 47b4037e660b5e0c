package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapOptions;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.interop.Slapd;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A server that speaks TLS from the first byte (ldaps), with Ferry's client and OpenLDAP's. */
class LdapsTest {
  private static final long HANDSHAKE_MILLIS = 400;
  private static TestCertificates certificates;
  private static LdapServer server;

  @BeforeAll
  static void start() throws Exception {
    certificates = TestCertificates.create();
    server = LdapServer.builder().suffix("o=Ferry").rootDn("cn=admin,o=Ferry", "secret")
        .ldaps(certificates.server())
        .limits(LdapServerLimits.builder().idleTimeoutMillisAnonymous(HANDSHAKE_MILLIS).build())
        .ldif("""
            dn: o=Ferry
            objectClass: organization
            o: Ferry

            dn: cn=client,o=Ferry
            objectClass: device
            cn: client
            """).start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    if (certificates != null) {
      certificates.close();
    }
  }

  @Test
  void searchesAndBindsOverTlsFromTheFirstByte() throws Exception {
    assertTrue(server.url().startsWith("ldaps://"), server.url());
    LdapOptions tls = LdapOptions.builder().sslContext(certificates.client(true)).build();
    try (LdapConnection c = LdapConnection.connect(server.url(), tls)) {
      assertEquals(2, c.searchAll(SearchRequest.of("o=Ferry", SearchScope.WHOLE_SUBTREE,
          Filter.present("objectClass"))).size());
      c.bindExternal();
      assertEquals("dn:cn=client,o=Ferry", c.whoAmI());
      LdapException again = assertThrows(LdapException.class, c::startTls);
      assertEquals(ResultCode.OPERATIONS_ERROR, again.resultCode());
    }
  }

  @Test
  void aClientWithoutTlsGetsNoAnswer() {
    assertThrows(IOException.class, () -> {
      try (LdapConnection plain = LdapConnection.connect("127.0.0.1", server.port(),
          LdapOptions.builder().timeout(Duration.ofSeconds(5)).build())) {
        plain.whoAmI();
      }
    });
  }

  @Test
  void aClientThatNeverStartsTheHandshakeIsClosedAtTheIdleTimeout() throws Exception {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", server.port()));
      s.setSoTimeout(10_000); // far past the timeout: a read that returns shows the close
      long start = System.nanoTime();
      InputStream in = s.getInputStream();
      assertEquals(-1, in.read(), "the server sends nothing and closes");
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(millis >= HANDSHAKE_MILLIS - 50, "closed after " + millis + " ms");
    }
  }

  @Test
  void openLdapToolsSpeakLdaps() throws Exception {
    Slapd.ensureInstalled();
    Path home = Files.createTempDirectory("ferry-ldaprc");
    try {
      Map<String, String> env = Map.of("HOME", home.toString(), "LDAPCONF", "/dev/null",
          "LDAPTLS_CACERT", certificates.caPem().toString(), "LDAPTLS_REQCERT", "demand",
          "LDAPTLS_CERT", certificates.file("client") + ".pem",
          "LDAPTLS_KEY", certificates.file("client") + ".key");
      String url = "ldaps://127.0.0.1:" + server.port();
      Tool search = Tool.run(env, List.of("ldapsearch", "-H", url, "-x", "-D",
          "cn=admin,o=Ferry", "-w", "secret", "-LLL", "-b", "o=Ferry", "(cn=client)", "cn"))
          .ok();
      assertTrue(search.out().contains("dn: cn=client,o=Ferry"), search.out());
      Tool whoami = Tool.run(env, List.of("ldapwhoami", "-H", url, "-Y", "EXTERNAL")).ok();
      assertEquals("dn:cn=client,o=Ferry", whoami.out().strip());
    } finally {
      Files.deleteIfExists(home);
    }
  }
}
