package dev.ferry.ldap.interop;

import static dev.ferry.ldap.interop.Slapd.ADMIN;
import static dev.ferry.ldap.interop.Slapd.PASSWORD;
import static dev.ferry.ldap.interop.Slapd.SUFFIX;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Control;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapLimits;
import dev.ferry.ldap.LdapOptions;
import dev.ferry.ldap.LdapUrl;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp.DeleteRequest;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchOutcome;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.net.ConnectException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Referral objects ({@code objectClass: referral} with {@code ref:}) in a real slapd: returned
 * as data by default, followed on new connections when asked, seen as entries with ManageDsaIT.
 *
 * <pre>
 * ou=people        uid=user0..2
 * ou=branch        ou=elsewhere -> ou=people
 * ou=traps         ou=loop -> ou=loop (itself), ou=doomed -> ou=people
 * ou=unreachable   ou=nowhere -> a closed port
 * </pre>
 */
class SlapdReferralTest {
  private static final String PEOPLE = "ou=people," + SUFFIX;
  private static final String BRANCH = "ou=branch," + SUFFIX;
  private static final String ELSEWHERE = "ou=elsewhere," + BRANCH;
  private static final String LOOP = "ou=loop,ou=traps," + SUFFIX;
  private static final String DOOMED = "ou=doomed,ou=traps," + SUFFIX;
  private static final String UNREACHABLE = "ou=unreachable," + SUFFIX;
  private static Slapd slapd;

  @BeforeAll
  static void startSlapd() throws Exception {
    slapd = Slapd.start();
    slapd.awaitReady();
    slapd.addBaseEntries();
    try (LdapConnection c = slapd.admin()) {
      for (int i = 0; i < 3; i++) {
        c.add("uid=user" + i + "," + PEOPLE, List.of(Attribute.of("objectClass",
            "inetOrgPerson"), Attribute.of("uid", "user" + i), Attribute.of("cn", "User " + i),
            Attribute.of("sn", "User")));
      }
      for (String ou : List.of(BRANCH, "ou=traps," + SUFFIX, UNREACHABLE)) {
        c.add(ou, List.of(Attribute.of("objectClass", "organizationalUnit"),
            Attribute.of("ou", ou.substring(3, ou.indexOf(',')))));
      }
      addReferral(c, ELSEWHERE, server() + "/" + PEOPLE);
      addReferral(c, LOOP, server() + "/" + LOOP);
      addReferral(c, DOOMED, server() + "/" + PEOPLE);
      addReferral(c, "ou=nowhere," + UNREACHABLE, "ldap://127.0.0.1:1/" + PEOPLE);
    }
  }

  private static void addReferral(LdapConnection c, String dn, String ref) throws IOException {
    c.add(dn, List.of(Attribute.of("objectClass", "referral", "extensibleObject"),
        Attribute.of("ou", dn.substring(3, dn.indexOf(','))), Attribute.of("ref", ref)));
  }

  @AfterAll
  static void stopSlapd() throws Exception {
    if (slapd != null) {
      slapd.close();
    }
  }

  private static String server() {
    return "ldap://127.0.0.1:" + slapd.port;
  }

  private static LdapConnection connect(boolean follow) throws IOException {
    return LdapConnection.connect("127.0.0.1", slapd.port,
        LdapOptions.builder().followReferrals(follow).build());
  }

  private static SearchRequest subtree(String base, String filter) {
    return SearchRequest.of(base, SearchScope.WHOLE_SUBTREE, Filter.parse(filter), "uid");
  }

  private static List<String> dns(SearchOutcome outcome) {
    return outcome.entries().stream().map(SearchResultEntry::objectName).sorted().toList();
  }

  @Test
  void aSearchAtAReferralObjectReturnsTheReferralAsData() throws Exception {
    try (LdapConnection c = connect(false)) {
      SearchOutcome outcome = c.collect(subtree(ELSEWHERE, "(uid=*)"));
      assertEquals(ResultCode.REFERRAL, outcome.result().resultCode());
      assertEquals(ELSEWHERE, outcome.result().matchedDn());
      assertEquals(List.of(), outcome.entries());
      LdapUrl url = LdapUrl.parse(outcome.referrals().get(0));
      assertEquals(PEOPLE, url.dn());
      assertEquals(slapd.port, url.port());
      LdapException thrown = assertThrows(LdapException.class,
          () -> c.searchAll(subtree(ELSEWHERE, "(uid=*)")));
      assertEquals(outcome.referrals(), thrown.result().referrals());
    }
  }

  @Test
  void aSubtreeSearchReturnsContinuationReferencesAsData() throws Exception {
    try (LdapConnection c = connect(false)) {
      SearchOutcome outcome = c.collect(subtree(BRANCH, "(objectClass=*)"));
      assertEquals(ResultCode.SUCCESS, outcome.result().resultCode());
      assertEquals(List.of(BRANCH), dns(outcome));
      assertEquals(1, outcome.references().size());
      LdapUrl url = LdapUrl.parse(outcome.references().get(0).uris().get(0));
      assertEquals(PEOPLE, url.dn());
      assertEquals(SearchScope.WHOLE_SUBTREE, url.scope());
    }
  }

  @Test
  void manageDsaItShowsTheReferralObjectItself() throws Exception {
    try (LdapConnection c = connect(true)) {
      SearchOutcome outcome = c.collect(SearchRequest.of(ELSEWHERE, SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "ref"), Control.manageDsaIt());
      assertEquals(ResultCode.SUCCESS, outcome.result().resultCode());
      assertEquals(List.of(ELSEWHERE), dns(outcome));
      assertEquals(server() + "/" + PEOPLE,
          outcome.entries().get(0).attribute("ref").firstValueAsString());
    }
  }

  @Test
  void manageDsaItLetsAnUpdateReachTheReferralObject() throws Exception {
    try (LdapConnection c = slapd.admin()) {
      LdapException referred = assertThrows(LdapException.class, () -> c.delete(DOOMED));
      assertEquals(ResultCode.REFERRAL, referred.resultCode());
      LdapMessage deleted = c.send(new DeleteRequest(DOOMED), List.of(Control.manageDsaIt()))
          .get(10, TimeUnit.SECONDS);
      assertEquals(ResultCode.SUCCESS, deleted.op().result().resultCode());
      LdapException gone = assertThrows(LdapException.class, () -> c.searchAll(
          SearchRequest.of(DOOMED, SearchScope.BASE_OBJECT, Filter.present("objectClass")),
          Control.manageDsaIt()));
      assertEquals(ResultCode.NO_SUCH_OBJECT, gone.resultCode());
    }
  }

  @Test
  void followingASearchReferralSearchesWhereItPoints() throws Exception {
    try (LdapConnection c = connect(true)) {
      List<String> users = List.of("uid=user0," + PEOPLE, "uid=user1," + PEOPLE,
          "uid=user2," + PEOPLE);
      SearchOutcome atReferral = c.collect(subtree(ELSEWHERE, "(uid=*)"));
      assertEquals(ResultCode.SUCCESS, atReferral.result().resultCode());
      assertEquals(users, dns(atReferral));
      SearchOutcome throughReference = c.collect(subtree(BRANCH, "(uid=*)"));
      assertEquals(users, dns(throughReference));
      assertEquals(List.of(), throughReference.references());
      assertEquals(users, c.searchAll(subtree(BRANCH, "(uid=*)")).stream()
          .map(SearchResultEntry::objectName).sorted().toList());
    }
  }

  @Test
  void followingAnUpdateReferralAuthenticatesOnlyWhenAsked() throws Exception {
    String viaReferral = "uid=user1," + ELSEWHERE; // slapd rewrites it to the target's DN
    List<Modification> change = List.of(new Modification(Modification.Type.REPLACE,
        Attribute.of("sn", "Followed")));
    try (LdapConnection c = connect(true)) {
      c.bind(ADMIN, PASSWORD);
      // the followed connection is anonymous by default, and anonymous may only read
      LdapException e = assertThrows(LdapException.class, () -> c.modify(viaReferral, change));
      assertTrue(List.of(ResultCode.STRONGER_AUTH_REQUIRED,
          ResultCode.INSUFFICIENT_ACCESS_RIGHTS).contains(e.resultCode()), e::toString);
    }
    LdapOptions asAdmin = LdapOptions.builder().followReferrals(true)
        .referralAuthenticator(followed -> followed.bind(ADMIN, PASSWORD)).build();
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", slapd.port, asAdmin)) {
      c.bind(ADMIN, PASSWORD);
      c.modify(viaReferral, change);
      assertTrue(c.compare("uid=user1," + PEOPLE, "sn", ByteString.encodeUtf8("Followed")));
      assertTrue(c.compare(viaReferral, "sn", ByteString.encodeUtf8("Followed")));
    }
    try (LdapConnection c = connect(false)) {
      LdapException notFollowed = assertThrows(LdapException.class,
          () -> c.compare(viaReferral, "sn", ByteString.encodeUtf8("Followed")));
      assertEquals(ResultCode.REFERRAL, notFollowed.resultCode());
      assertEquals(List.of(server() + "/uid=user1," + PEOPLE),
          notFollowed.result().referrals());
    }
  }

  @Test
  void aReferralLoopStopsAtTheHopLimit() throws Exception {
    LdapOptions options = LdapOptions.builder().followReferrals(true)
        .limits(LdapLimits.builder().maxReferralHops(3).build()).build();
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", slapd.port, options)) {
      LdapException e = assertThrows(LdapException.class,
          () -> c.collect(subtree(LOOP, "(objectClass=*)")));
      assertEquals(ResultCode.REFERRAL_LIMIT_EXCEEDED, e.resultCode());
      assertTrue(e.getMessage().contains("4 > 3"), e.getMessage());
      assertTrue(c.isOpen());
    }
  }

  @Test
  void anUnreachableReferenceStaysData() throws Exception {
    try (LdapConnection c = connect(true)) {
      SearchOutcome outcome = c.collect(subtree(UNREACHABLE, "(objectClass=*)"));
      assertEquals(List.of(UNREACHABLE), dns(outcome));
      assertEquals(1, outcome.references().size());
      assertTrue(outcome.references().get(0).uris().get(0).startsWith("ldap://127.0.0.1:1/"));
      LdapException e = assertThrows(LdapException.class,
          () -> c.collect(subtree("ou=nowhere," + UNREACHABLE, "(objectClass=*)")));
      assertEquals(ResultCode.CONNECT_ERROR, e.resultCode());
      assertTrue(e.getCause() instanceof ConnectException, String.valueOf(e.getCause()));
    }
  }
}
