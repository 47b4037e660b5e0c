package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapOptions;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** StartTLS and SASL EXTERNAL, with Ferry's client. */
class TlsTest {
  static final String BASE = "o=Ferry";
  private static TestCertificates certificates;
  private static LdapServer server;

  @BeforeAll
  static void start() throws Exception {
    certificates = TestCertificates.create();
    server = LdapServer.builder().suffix(BASE).tls(certificates.server()).ldif("""
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

  static LdapConnection connect(boolean withCertificate) throws Exception {
    return LdapConnection.connect("127.0.0.1", server.port(), LdapOptions.builder()
        .sslContext(certificates.client(withCertificate)).build());
  }

  @Test
  void startTlsThenSearchAndExternalBind() throws Exception {
    try (LdapConnection c = connect(true)) {
      c.startTls();
      assertEquals(2, c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
          Filter.present("objectClass"))).size());
      c.bindExternal();
      assertEquals("dn:cn=client,o=Ferry", c.whoAmI());
    }
  }

  @Test
  void externalWithoutTlsOrCertificateIsRefused() throws Exception {
    try (LdapConnection c = connect(false)) {
      LdapException e = assertThrows(LdapException.class, c::bindExternal);
      assertEquals(ResultCode.INAPPROPRIATE_AUTHENTICATION, e.resultCode());
      c.startTls();
      e = assertThrows(LdapException.class, c::bindExternal);
      assertEquals(ResultCode.INAPPROPRIATE_AUTHENTICATION, e.resultCode());
      assertEquals("", c.whoAmI());
    }
  }

  @Test
  void startTlsTwiceIsAnOperationsError() throws Exception {
    try (LdapConnection c = connect(false)) {
      c.startTls();
      LdapException e = assertThrows(LdapException.class, c::startTls);
      assertEquals(ResultCode.OPERATIONS_ERROR, e.resultCode());
    }
  }

  @Test
  void withoutTlsConfiguredStartTlsIsUnavailable() throws IOException {
    try (LdapServer plain = LdapServer.builder().start();
        LdapConnection c = LdapConnection.connect("127.0.0.1", plain.port())) {
      LdapException e = assertThrows(LdapException.class, c::startTls);
      assertEquals(ResultCode.UNAVAILABLE, e.resultCode());
    }
  }
}
