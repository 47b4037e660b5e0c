package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapResult;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchResults;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * An entry the access rules hide from a client answers every operation as a missing one does:
 * the same result code, the same matched DN (never the hidden entry, never nearer than what
 * the client may read) and the same message. The report found a search and a compare naming
 * the hidden entry as the matched DN, and password modify answering insufficientAccessRights
 * for a hidden user and noSuchObject for a missing one.
 */
class AccessLeakTest {
  static final String BASE = LdapServerTest.BASE;
  static final String PEOPLE = LdapServerTest.PEOPLE;
  static final String JDOE = "uid=jdoe," + PEOPLE;
  static final String HIDDEN = "cn=admins,ou=groups," + BASE;
  static final String MISSING = "cn=nobody,ou=groups," + BASE;

  /** jdoe reads ou=people only; anonymous clients read nothing. */
  static LdapServer server() throws IOException {
    return AccessRulesTest.server(AccessRules.builder().anonymousRead(false)
        .allowBoundUsers(PEOPLE, AccessRules.Level.READ).build());
  }

  /** The answer to an operation on {@code dn}, with the DN in the message made a placeholder. */
  record Answer(ResultCode code, String matched, String message) {}

  static Answer answer(LdapConnection c, String dn, Function<String, ProtocolOp> op)
      throws IOException {
    ProtocolOp request = op.apply(dn);
    LdapResult r;
    if (request instanceof SearchRequest s) {
      try (SearchResults results = c.search(s)) {
        while (results.hasNext()) {
          results.next();
        }
        r = results.done().result();
      }
    } else {
      r = SlapdDifferentialTest.result(c, request);
    }
    return new Answer(r.resultCode(), r.matchedDn(), r.diagnosticMessage().replace(dn, "<dn>"));
  }

  static final List<Function<String, ProtocolOp>> OPERATIONS = List.of(
      dn -> SearchRequest.of(dn, SearchScope.BASE_OBJECT, Filter.present("objectClass")),
      dn -> SearchRequest.of(dn, SearchScope.WHOLE_SUBTREE, Filter.present("objectClass")),
      dn -> new ProtocolOp.CompareRequest(dn, "cn", ByteString.encodeUtf8("admins")),
      dn -> new ProtocolOp.ModifyRequest(dn, List.of(new Modification(
          Modification.Type.REPLACE, Attribute.of("description", "x")))),
      dn -> new ProtocolOp.ModifyDnRequest(dn, "cn=renamed", true, null),
      dn -> new ProtocolOp.ModifyDnRequest(JDOE, "uid=jdoe", false, dn),
      dn -> new ProtocolOp.DeleteRequest(dn),
      dn -> new ProtocolOp.AddRequest("cn=child," + dn, List.of(
          Attribute.of("objectClass", "device"), Attribute.of("cn", "child"))),
      dn -> new ProtocolOp.ExtendedRequest(PasswordModifyTest.OID, request(dn)));

  private static ByteString request(String dn) {
    try {
      return PasswordModifyTest.request("dn:" + dn, null, "new");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aHiddenEntryAnswersEveryOperationAsAMissingOne() throws IOException {
    try (LdapServer s = server(); LdapConnection john = LdapConnection.connect("127.0.0.1",
        s.port())) {
      john.bind(JDOE, "secret");
      for (Function<String, ProtocolOp> op : OPERATIONS) {
        Answer hidden = answer(john, HIDDEN, op);
        Answer missing = answer(john, MISSING, op);
        String what = op.apply(HIDDEN).toString();
        assertEquals(missing, hidden, what);
        assertEquals("", hidden.matched(), what); // ou=groups and the base are hidden too
      }
      assertEquals(ResultCode.NO_SUCH_OBJECT, answer(john, HIDDEN, OPERATIONS.get(0)).code());
    }
  }

  @Test
  void theMatchedDnIsTheNearestEntryTheClientMayRead() throws IOException {
    try (LdapServer s = server(); LdapConnection john = LdapConnection.connect("127.0.0.1",
        s.port()); LdapConnection anonymous = LdapConnection.connect("127.0.0.1", s.port())) {
      john.bind(JDOE, "secret");
      String ghost = "uid=ghost," + PEOPLE;
      for (Function<String, ProtocolOp> op : List.of(OPERATIONS.get(0), OPERATIONS.get(2),
          OPERATIONS.get(8))) {
        Answer a = answer(john, ghost, op);
        assertEquals(new Answer(ResultCode.NO_SUCH_OBJECT, PEOPLE, a.message()), a);
      }
      Answer a = answer(anonymous, "uid=ghost," + PEOPLE, OPERATIONS.get(0));
      assertEquals(new Answer(ResultCode.NO_SUCH_OBJECT, "", a.message()), a);
    }
  }

  @Test
  void aVisibleEntryTheClientMayNotChangeIsRefusedAsSuch() throws IOException {
    try (LdapServer s = server(); LdapConnection john = LdapConnection.connect("127.0.0.1",
        s.port())) {
      john.bind(JDOE, "secret");
      String bjensen = LdapServerTest.BJENSEN;
      for (int i : new int[] {3, 4, 6, 8}) {
        assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS,
            answer(john, bjensen, OPERATIONS.get(i)).code(), OPERATIONS.get(i).apply(bjensen)
            .toString());
      }
    }
  }
}
