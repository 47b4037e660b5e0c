package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.asn1.BerReader;
import dev.ferry.asn1.BerWriter;
import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.ProtocolOp.ExtendedResponse;
import dev.ferry.ldap.ResultCode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The password modify extended operation (RFC 3062). */
class PasswordModifyTest {
  static final String OID = "1.3.6.1.4.1.4203.1.11.1";
  static final String BJENSEN = LdapServerTest.BJENSEN;

  static ByteString request(String user, String oldPassword, String newPassword)
      throws IOException {
    return BerWriter.encode(w -> {
      w.writeStartSequence();
      if (user != null) {
        w.writeOctetString(0x80, ByteString.encodeUtf8(user));
      }
      if (oldPassword != null) {
        w.writeOctetString(0x81, ByteString.encodeUtf8(oldPassword));
      }
      if (newPassword != null) {
        w.writeOctetString(0x82, ByteString.encodeUtf8(newPassword));
      }
      w.writeEndSequence();
    });
  }

  @Test
  void aUserChangesItsOwnPasswordAndTheRootSetsAnother() throws IOException {
    try (LdapServer s = AccessRulesTest.server(AccessRules.DEFAULTS);
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      LdapException e = assertThrows(LdapException.class, () -> c.extended(OID,
          request(null, null, "x")));
      assertEquals(ResultCode.UNWILLING_TO_PERFORM, e.resultCode());
      c.bind(BJENSEN, "hifalutin");
      e = assertThrows(LdapException.class, () -> c.extended(OID, request(null, "wrong", "x")));
      assertEquals(ResultCode.UNWILLING_TO_PERFORM, e.resultCode());
      c.extended(OID, request(null, "hifalutin", "new-secret"));
      c.bind(BJENSEN, "new-secret");
      assertThrows(LdapException.class, () -> c.bind(BJENSEN, "hifalutin"));
      c.bind(LdapServerTest.ADMIN, "secret");
      ExtendedResponse r = c.extended(OID, request("dn:" + BJENSEN, null, null));
      BerReader reader = BerReader.of(r.value());
      reader.readStartSequence();
      String generated = reader.readOctetString(0x80).utf8();
      assertTrue(generated.length() >= 12, generated);
      c.bind(BJENSEN, generated);
      assertEquals("dn:" + BJENSEN, c.whoAmI());
    }
  }
}
