package dev.ferry.ldap.interop;

import static dev.ferry.ldap.interop.Slapd.ADMIN;
import static dev.ferry.ldap.interop.Slapd.CLIENT_DN;
import static dev.ferry.ldap.interop.Slapd.PASSWORD;
import static dev.ferry.ldap.interop.Slapd.SASL_DN;
import static dev.ferry.ldap.interop.Slapd.SASL_PASSWORD;
import static dev.ferry.ldap.interop.Slapd.SASL_USER;
import static dev.ferry.ldap.interop.Slapd.SUFFIX;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapOptions;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.security.cert.CertificateException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.sasl.RealmCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** LDAPS, StartTLS with a client certificate, and SASL binds against a real slapd. */
class SlapdSecurityTest {
  private static Slapd slapd;

  @BeforeAll
  static void startSlapd() throws Exception {
    slapd = Slapd.start();
    slapd.awaitReady();
    slapd.addBaseEntries();
    try (LdapConnection c = slapd.admin()) {
      // DIGEST-MD5 needs the password in clear: slapd reads userPassword of the mapped entry
      c.add(SASL_DN, List.of(Attribute.of("objectClass", "inetOrgPerson"),
          Attribute.of("uid", SASL_USER), Attribute.of("cn", "SASL"), Attribute.of("sn", "User"),
          Attribute.of("userPassword", SASL_PASSWORD)));
      c.add(CLIENT_DN, List.of(Attribute.of("objectClass", "organizationalRole"),
          Attribute.of("cn", "client")));
    }
  }

  @AfterAll
  static void stopSlapd() throws Exception {
    if (slapd != null) {
      slapd.close();
    }
  }

  private static LdapOptions trusting(boolean withClientCertificate) throws Exception {
    return LdapOptions.builder().sslContext(slapd.sslContext(withClientCertificate))
        .timeout(Duration.ofSeconds(10)).build();
  }

  private static String ldaps(String address) {
    return "ldaps://" + address + ":" + slapd.tlsPort;
  }

  @Test
  void ldapsSpeaksTlsFromTheFirstByte() throws Exception {
    try (LdapConnection c = LdapConnection.connect(ldaps("localhost"), trusting(false))) {
      c.bind(ADMIN, PASSWORD);
      assertEquals("dn:" + ADMIN, c.whoAmI());
    }
    try (LdapConnection c = LdapConnection.connectTls("127.0.0.1", slapd.tlsPort,
        trusting(false))) {
      assertEquals(1, c.searchAll(SearchRequest.of(SUFFIX, SearchScope.BASE_OBJECT,
          Filter.present("objectClass"))).size());
    }
  }

  @Test
  void ldapsRefusesAHostNameTheCertificateDoesNotName() throws Exception {
    // slapd listens on 127.0.0.2 too, with the same certificate: localhost and 127.0.0.1 only
    SSLHandshakeException e = assertThrows(SSLHandshakeException.class,
        () -> LdapConnection.connect(ldaps("127.0.0.2"), trusting(false)));
    assertInstanceOf(CertificateException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("127.0.0.2"), e.getCause().getMessage());
    LdapOptions unverified = trusting(false).toBuilder().verifyHostname(false).build();
    try (LdapConnection c = LdapConnection.connect(ldaps("127.0.0.2"), unverified)) {
      assertEquals("", c.whoAmI()); // the same server, once the name check is off
    }
  }

  @Test
  void ldapsRefusesAServerTheTrustDoesNotKnow() throws Exception {
    SSLContext jdkDefaults = SSLContext.getInstance("TLS");
    jdkDefaults.init(null, null, null);
    LdapOptions options = LdapOptions.builder().sslContext(jdkDefaults).build();
    assertThrows(SSLHandshakeException.class,
        () -> LdapConnection.connect(ldaps("127.0.0.1"), options));
  }

  @Test
  void externalBindOverLdapsUsesTheClientCertificate() throws Exception {
    try (LdapConnection c = LdapConnection.connect(ldaps("127.0.0.1"), trusting(true))) {
      assertEquals(ResultCode.SUCCESS, c.bindExternal().resultCode());
      assertEquals("dn:" + CLIENT_DN, c.whoAmI());
    }
  }

  @Test
  void externalBindOverStartTlsUsesTheClientCertificate() throws Exception {
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", slapd.port, trusting(true))) {
      c.startTls();
      c.bindExternal();
      assertEquals("dn:" + CLIENT_DN, c.whoAmI());
    }
  }

  @Test
  void externalBindWithoutAClientCertificateIsRefused() throws Exception {
    try (LdapConnection c = LdapConnection.connect(ldaps("127.0.0.1"), trusting(false))) {
      LdapException e = assertThrows(LdapException.class, c::bindExternal);
      // slapd offers EXTERNAL only on a connection that presented a certificate
      assertEquals(ResultCode.AUTH_METHOD_NOT_SUPPORTED, e.resultCode());
      assertEquals("", c.whoAmI());
    }
  }

  @Test
  void serverOffersDigestMd5() throws Exception {
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", slapd.port)) {
      List<ByteString> mechanisms = c.searchAll(SearchRequest.of("", SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "supportedSASLMechanisms")).get(0)
          .attribute("supportedSASLMechanisms").values();
      assertTrue(mechanisms.contains(ByteString.encodeUtf8("DIGEST-MD5")), mechanisms::toString);
    }
  }

  @Test
  void digestMd5BindsInTwoStepsAndChecksTheServer() throws Exception {
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", slapd.port)) {
      SaslClient digest = Sasl.createSaslClient(new String[] {"DIGEST-MD5"}, null, "ldap",
          "127.0.0.1", Map.of(), callbacks -> {
            for (var cb : callbacks) {
              switch (cb) {
                case NameCallback n -> n.setName(SASL_USER);
                case PasswordCallback p -> p.setPassword(SASL_PASSWORD.toCharArray());
                case RealmCallback r -> r.setText(r.getDefaultText());
                default -> { }
              }
            }
          });
      CountingSaslClient counting = new CountingSaslClient(digest);
      assertEquals(ResultCode.SUCCESS, c.bind(counting).resultCode());
      // challenge (after saslBindInProgress), then the server's rspauth on success
      assertEquals(2, counting.challenges.get());
      assertTrue(digest.isComplete());
      assertEquals("dn:" + SASL_DN, c.whoAmI());
    }
  }

  @Test
  void digestMd5ThroughTheConvenienceBind() throws Exception {
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", slapd.port)) {
      c.bindSasl("DIGEST-MD5", SASL_USER, SASL_PASSWORD.toCharArray());
      assertEquals("dn:" + SASL_DN, c.whoAmI());
      LdapException e = assertThrows(LdapException.class,
          () -> c.bindSasl("DIGEST-MD5", SASL_USER, "wrong".toCharArray()));
      assertEquals(ResultCode.INVALID_CREDENTIALS, e.resultCode());
    }
  }

  @Test
  void aMechanismTheJvmLacksFailsBeforeAnythingIsSent() throws Exception {
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", slapd.port)) {
      LdapException e = assertThrows(LdapException.class,
          () -> c.bindSasl("SCRAM-SHA-256", SASL_USER, SASL_PASSWORD.toCharArray()));
      assertEquals(ResultCode.AUTH_METHOD_NOT_SUPPORTED, e.resultCode());
      assertEquals("", c.whoAmI());
    }
  }

  /** Counts the challenges a SASL client evaluates. */
  private static final class CountingSaslClient implements SaslClient {
    final AtomicInteger challenges = new AtomicInteger();
    private final SaslClient delegate;

    CountingSaslClient(SaslClient delegate) {
      this.delegate = delegate;
    }

    @Override
    public String getMechanismName() {
      return delegate.getMechanismName();
    }

    @Override
    public boolean hasInitialResponse() {
      return delegate.hasInitialResponse();
    }

    @Override
    public byte[] evaluateChallenge(byte[] challenge) throws SaslException {
      challenges.incrementAndGet();
      return delegate.evaluateChallenge(challenge);
    }

    @Override
    public boolean isComplete() {
      return delegate.isComplete();
    }

    @Override
    public byte[] unwrap(byte[] incoming, int offset, int len) throws SaslException {
      return delegate.unwrap(incoming, offset, len);
    }

    @Override
    public byte[] wrap(byte[] outgoing, int offset, int len) throws SaslException {
      return delegate.wrap(outgoing, offset, len);
    }

    @Override
    public Object getNegotiatedProperty(String propName) {
      return delegate.getNegotiatedProperty(propName);
    }

    @Override
    public void dispose() throws SaslException {
      delegate.dispose();
    }
  }
}
