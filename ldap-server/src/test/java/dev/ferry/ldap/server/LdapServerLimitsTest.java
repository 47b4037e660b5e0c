package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.DerefAliases;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.PagedResults;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchOutcome;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every server limit at the limit, one over it, and (for sizes) far beyond it. */
class LdapServerLimitsTest {
  static final String BASE = "dc=example,dc=com";

  static LdapServer server(LdapServerLimits limits, int people) throws IOException {
    return server(limits, people, "");
  }

  /** A server with {@code people} accounts under the base, each described by {@code text}. */
  static LdapServer server(LdapServerLimits limits, int people, String text) throws IOException {
    StringBuilder ldif = new StringBuilder("dn: " + BASE + "\nobjectClass: domain\ndc: example\n");
    for (int i = 0; i < people; i++) {
      ldif.append("\ndn: uid=u").append(i).append(',').append(BASE)
          .append("\nobjectClass: account\nuid: u").append(i).append('\n');
      if (!text.isEmpty()) {
        ldif.append("description: ").append(text).append('\n');
      }
    }
    return LdapServer.builder().suffix(BASE).rootDn("cn=admin," + BASE, "secret")
        .limits(limits).ldif(ldif.toString()).start();
  }

  /** An add request PDU of exactly {@code size} bytes. */
  static ByteString addOfSize(int size) {
    int pad = size;
    for (int i = 0; i < 4; i++) {
      ByteString pdu = LdapCodec.encode(LdapMessage.of(1, new ProtocolOp.AddRequest(
          "cn=x," + BASE, List.of(Attribute.of("objectClass", "device"), Attribute.of("cn", "x"),
          Attribute.of("description", "a".repeat(pad))))));
      if (pdu.size() == size) {
        return pdu;
      }
      pad += size - pdu.size();
    }
    throw new AssertionError("no PDU of " + size + " bytes");
  }

  static LdapMessage readMessage(RawClient c) throws IOException {
    c.read();
    return LdapCodec.decode(c.last());
  }

  @Test
  void maxRequestBytesAnonymous() throws Exception {
    int limit = 4096;
    try (LdapServer s = server(LdapServerLimits.builder().maxRequestBytesAnonymous(limit)
        .build(), 0); RawClient c = new RawClient(s.port())) {
      c.send(addOfSize(limit));
      LdapMessage answer = readMessage(c);
      assertEquals(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, answer.op().result().resultCode());
      c.send(addOfSize(limit + 1));
      LdapMessage notice = readMessage(c);
      assertEquals(0, notice.messageId());
      assertEquals(ResultCode.PROTOCOL_ERROR, notice.op().result().resultCode());
      String message = notice.op().result().diagnosticMessage();
      assertTrue(message.contains("LdapServerLimits.maxRequestBytesAnonymous exceeded: 4097"
          + " > 4096"), message);
      assertTrue(c.isClosedByPeer());
    }
  }

  @Test
  void maxRequestBytesOnceBound() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxRequestBytesAnonymous(1024)
        .maxRequestBytes(8192).build(), 0); RawClient c = new RawClient(s.port())) {
      c.send(LdapCodec.encode(LdapMessage.of(1, ProtocolOp.BindRequest.simple("cn=admin,"
          + BASE, "secret"))));
      assertEquals(ResultCode.SUCCESS, readMessage(c).op().result().resultCode());
      c.send(addOfSize(8192));
      assertEquals(ResultCode.SUCCESS, readMessage(c).op().result().resultCode());
      c.send(addOfSize(8193));
      String message = readMessage(c).op().result().diagnosticMessage();
      assertTrue(message.contains("LdapServerLimits.maxRequestBytes exceeded: 8193 > 8192"),
          message);
    }
  }

  @Test
  void aHugeClaimedLengthIsRefusedBeforeAnythingIsAllocated() throws Exception {
    try (LdapServer s = server(LdapServerLimits.DEFAULTS, 0);
        RawClient c = new RawClient(s.port())) {
      long before = SearchAllocationTest.allocatedByAllThreads();
      c.sendRaw(new byte[] {0x30, (byte) 0x84, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff});
      LdapMessage notice = readMessage(c);
      long allocated = SearchAllocationTest.allocatedByAllThreads() - before;
      assertTrue(notice.op().result().diagnosticMessage()
          .contains("maxRequestBytesAnonymous exceeded: 2147483653 > 262144"),
          notice.op().result().diagnosticMessage());
      assertTrue(allocated < 1024 * 1024, allocated + " bytes allocated");
    }
  }

  static void bind(LdapConnection c) throws IOException {
    c.bind("cn=admin," + BASE, "secret");
  }

  /** Polls until {@code condition} holds, failing after 10 s. */
  static void await(String what, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s: " + what);
      }
      Thread.sleep(5);
    }
  }

  static void assertBusy(RawClient c, String message) throws IOException {
    LdapMessage notice = readMessage(c);
    assertEquals(ResultCode.BUSY, notice.op().result().resultCode());
    assertTrue(notice.op().result().diagnosticMessage().contains(message),
        notice.op().result().diagnosticMessage());
    assertTrue(c.isClosedByPeer());
  }

  @Test
  void maxConnections() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxConnections(2).build(), 0);
        LdapConnection a = LdapConnection.connect("127.0.0.1", s.port());
        LdapConnection b = LdapConnection.connect("127.0.0.1", s.port())) {
      bind(a);
      bind(b); // bound clients are never closed to make room
      try (RawClient third = new RawClient(s.port())) {
        assertBusy(third, "LdapServerLimits.maxConnections exceeded: 3 > 2");
      }
      a.close();
      await("a's connection closed", () -> s.connectionCount() == 1);
      try (LdapConnection again = LdapConnection.connect("127.0.0.1", s.port())) {
        assertEquals("", again.whoAmI());
      }
    }
  }

  @Test
  void maxConnectionsPerAddress() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxConnectionsPerAddress(2).build(),
        0); LdapConnection a = LdapConnection.connect("127.0.0.1", s.port());
        LdapConnection b = LdapConnection.connect("127.0.0.1", s.port())) {
      bind(a);
      bind(b);
      try (RawClient third = new RawClient(s.port(), 0, "127.0.0.1")) {
        assertBusy(third, "LdapServerLimits.maxConnectionsPerAddress exceeded: 3 > 2");
      }
      try (RawClient other = new RawClient(s.port(), 0, "127.0.0.2")) { // another address
        other.send(LdapCodec.encode(LdapMessage.of(1, new ProtocolOp.ExtendedRequest(
            ProtocolOp.ExtendedRequest.WHO_AM_I, null))));
        assertEquals(ResultCode.SUCCESS, readMessage(other).op().result().resultCode());
      }
    }
  }

  @Test
  void anIdleConnectionThatHasNotBoundMakesRoomForANewOne() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxConnections(2).build(), 0);
        LdapConnection bound = LdapConnection.connect("127.0.0.1", s.port());
        RawClient idle = new RawClient(s.port())) {
      bind(bound);
      await("both connected", () -> s.connectionCount() == 2);
      try (LdapConnection third = LdapConnection.connect("127.0.0.1", s.port())) {
        assertEquals("", third.whoAmI());
        assertTrue(idle.isClosedByPeer(), "the idle anonymous connection made room");
        assertEquals("dn:cn=admin," + BASE, bound.whoAmI());
      }
    }
  }

  @Test
  void idleTimeoutsAreShorterBeforeABind() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().idleTimeoutMillisAnonymous(200)
        .idleTimeoutMillis(60_000).build(), 0);
        LdapConnection bound = LdapConnection.connect("127.0.0.1", s.port());
        RawClient anonymous = new RawClient(s.port())) {
      bind(bound);
      long start = System.nanoTime();
      assertTrue(anonymous.isClosedByPeer());
      long waitedMillis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(waitedMillis >= 150, "closed after " + waitedMillis + " ms");
      assertEquals("dn:cn=admin," + BASE, bound.whoAmI()); // idle as long, still open
    }
    try (LdapServer s = server(LdapServerLimits.builder().idleTimeoutMillis(200).build(), 0);
        LdapConnection bound = LdapConnection.connect("127.0.0.1", s.port())) {
      bind(bound);
      await("the bound connection closed", () -> s.connectionCount() == 0);
    }
  }

  @Test
  void aRunningSearchIsNotIdle() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().idleTimeoutMillis(100)
        .maxSearchResults(10_000).build(), 3000, "x".repeat(2000));
        RawClient c = new RawClient(s.port(), 4096)) {
      c.send(LdapCodec.encode(LdapMessage.of(1, ProtocolOp.BindRequest.simple("cn=admin,"
          + BASE, "secret"))));
      assertEquals(ResultCode.SUCCESS, readMessage(c).op().result().resultCode());
      c.send(LdapCodec.encode(LdapMessage.of(2, SearchRequest.of(BASE,
          SearchScope.WHOLE_SUBTREE, Filter.present("objectClass")))));
      Thread.sleep(300); // the search waits on the client; the connection is not idle
      assertEquals(3001, c.readSearch());
    }
  }

  @Test
  void aRequestThatStopsHalfWayTimesOutShorterBeforeABind() throws Exception {
    ByteString whoAmI = LdapCodec.encode(LdapMessage.of(1, new ProtocolOp.ExtendedRequest(
        ProtocolOp.ExtendedRequest.WHO_AM_I, null)));
    byte[] half = whoAmI.subSequence(0, whoAmI.size() / 2).toByteArray();
    try (LdapServer s = server(LdapServerLimits.builder().readTimeoutMillisAnonymous(200)
        .readTimeoutMillis(60_000).idleTimeoutMillisAnonymous(60_000).build(), 0);
        RawClient anonymous = new RawClient(s.port());
        RawClient bound = new RawClient(s.port())) {
      bound.send(LdapCodec.encode(LdapMessage.of(1, ProtocolOp.BindRequest.simple("cn=admin,"
          + BASE, "secret"))));
      assertEquals(ResultCode.SUCCESS, readMessage(bound).op().result().resultCode());
      bound.sendRaw(half);
      anonymous.sendRaw(half);
      long start = System.nanoTime();
      assertTrue(anonymous.isClosedByPeer());
      assertTrue(System.nanoTime() - start >= 150_000_000L);
      bound.sendRaw(whoAmI.subSequence(whoAmI.size() / 2).toByteArray()); // finishes in time
      assertEquals(ResultCode.SUCCESS, readMessage(bound).op().result().resultCode());
    }
  }

  @Test
  void aClientThatDoesNotReadItsResultsIsClosedAfterTheWriteTimeout() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().writeTimeoutMillis(300)
        .maxSearchResults(10_000).build(), 3000, "x".repeat(2000));
        RawClient c = new RawClient(s.port(), 4096)) {
      c.send(LdapCodec.encode(LdapMessage.of(2, SearchRequest.of(BASE,
          SearchScope.WHOLE_SUBTREE, Filter.present("objectClass")))));
      await("the connection closed", () -> s.connectionCount() == 0);
    }
  }

  @Test
  void maxEntriesExamined() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxEntriesExamined(11).build(), 10);
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      Filter none = Filter.equality("uid", "nobody");
      assertEquals(0, c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE, none))
          .size()); // 11 entries looked at: the base and 10 accounts
      c.bind("cn=admin," + BASE, "secret");
      c.add("uid=u10," + BASE, List.of(Attribute.of("objectClass", "account"),
          Attribute.of("uid", "u10")));
      assertEquals(0, c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE, none))
          .size()); // the root DN is not limited
      c.bind(ProtocolOp.BindRequest.simple("", ""));
      LdapException e = assertThrows(LdapException.class, () -> c.searchAll(SearchRequest.of(
          BASE, SearchScope.WHOLE_SUBTREE, none)));
      assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e.resultCode());
      assertTrue(e.getMessage().contains("LdapServerLimits.maxEntriesExamined exceeded: 12 > 11"),
          e.getMessage());
    }
  }

  @Test
  void maxSearchResultsAndTheRequestsOwnSizeLimit() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxSearchResults(5).build(), 4);
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      SearchRequest all = SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
          Filter.present("objectClass"));
      assertEquals(5, c.searchAll(all).size()); // 5 entries: at the limit
      c.bind("cn=admin," + BASE, "secret");
      c.add("uid=u4," + BASE, List.of(Attribute.of("objectClass", "account"),
          Attribute.of("uid", "u4")));
      c.bind(ProtocolOp.BindRequest.simple("", ""));
      LdapException e = assertThrows(LdapException.class, () -> c.searchAll(all));
      assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, e.resultCode());
      SearchRequest three = new SearchRequest(BASE, SearchScope.WHOLE_SUBTREE,
          DerefAliases.NEVER, 3, 0, false, Filter.present("objectClass"), List.of());
      assertEquals(ResultCode.SIZE_LIMIT_EXCEEDED, assertThrows(LdapException.class,
          () -> c.searchAll(three)).resultCode());
      c.bind("cn=admin," + BASE, "secret"); // the root DN is not limited by the server
      assertEquals(6, c.searchAll(all).size());
    }
  }

  @Test
  void maxSearchTimeMillis() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxSearchTimeMillis(1).build(), 10_000);
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      // a filter that makes every entry cost something, on 10,000 entries, in 1 ms: too long
      Filter slow = Filter.parse("(|(uid=*9*9*9*)(description=*x*y*z*)(cn=q*))");
      LdapException e = assertThrows(LdapException.class, () -> c.searchAll(SearchRequest.of(
          BASE, SearchScope.WHOLE_SUBTREE, slow)));
      assertEquals(ResultCode.TIME_LIMIT_EXCEEDED, e.resultCode());
    }
    try (LdapServer s = server(LdapServerLimits.builder().maxSearchTimeMillis(60_000).build(),
        3000); LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      assertEquals(3001, c.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
          Filter.present("objectClass"))).size());
    }
  }

  /**
   * A small subtree searched with a broad indexed filter: its few entries are offered too
   * rarely to reach a look at the clock, so only the candidates it passes over (20,000 out of
   * its scope) can end it at the time limit; without that check it would succeed.
   */
  @Test
  void maxSearchTimeMillisWhilePassingOverCandidatesOutOfScope() throws Exception {
    StringBuilder ldif = new StringBuilder("dn: " + BASE + "\nobjectClass: domain\ndc: example\n");
    for (String ou : List.of("small", "big")) {
      ldif.append("\ndn: ou=").append(ou).append(',').append(BASE)
          .append("\nobjectClass: organizationalUnit\nou: ").append(ou).append('\n');
    }
    for (int i = 0; i < 20_003; i++) {
      ldif.append("\ndn: uid=u").append(i).append(",ou=").append(i < 3 ? "small" : "big")
          .append(',').append(BASE).append("\nobjectClass: account\nuid: u").append(i)
          .append('\n');
    }
    try (LdapServer s = LdapServer.builder().suffix(BASE).rootDn("cn=admin," + BASE, "secret")
        .limits(LdapServerLimits.builder().maxSearchTimeMillis(1).build())
        .index("objectClass", IndexType.EQUALITY).ldif(ldif.toString()).start();
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      String small = "ou=small," + BASE;
      // the subtree alone, walked without an index, ends within the limit
      assertEquals(3, c.searchAll(SearchRequest.of(small, SearchScope.SINGLE_LEVEL,
          Filter.present("uid"))).size());
      LdapException e = assertThrows(LdapException.class, () -> c.searchAll(SearchRequest.of(
          small, SearchScope.SINGLE_LEVEL, Filter.equality("objectClass", "account"))));
      assertEquals(ResultCode.TIME_LIMIT_EXCEEDED, e.resultCode());
    }
  }

  @Test
  void maxOperationsPerConnection() throws Exception {
    // 8 MB of results for a client that reads nothing yet: the first search waits on TCP
    try (LdapServer s = server(LdapServerLimits.builder().maxOperationsPerConnection(1)
        .maxSearchResults(10_000).build(), 4000, "x".repeat(2000));
        RawClient c = new RawClient(s.port(), 4096)) {
      // two subtree searches sent at once: the second finds the first still running
      ByteString search1 = LdapCodec.encode(LdapMessage.of(1, SearchRequest.of(BASE,
          SearchScope.WHOLE_SUBTREE, Filter.present("objectClass"))));
      ByteString search2 = LdapCodec.encode(LdapMessage.of(2, SearchRequest.of(BASE,
          SearchScope.WHOLE_SUBTREE, Filter.present("objectClass"))));
      byte[] both = new byte[search1.size() + search2.size()];
      search1.copyTo(0, both, 0, search1.size());
      search2.copyTo(0, both, search1.size(), search2.size());
      c.sendRaw(both);
      List<ResultCode> done = new ArrayList<>();
      while (done.size() < 2) {
        LdapMessage m = readMessage(c);
        if (m.op() instanceof ProtocolOp.SearchResultDone d) {
          done.add(d.result().resultCode());
        }
      }
      assertTrue(done.contains(ResultCode.BUSY), done.toString());
    }
  }

  @Test
  void maxEntries() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxEntries(4).build(), 2);
        LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      c.bind("cn=admin," + BASE, "secret");
      c.add("uid=u2," + BASE, List.of(Attribute.of("objectClass", "account"),
          Attribute.of("uid", "u2"))); // the fourth: at the limit
      LdapException e = assertThrows(LdapException.class, () -> c.add("uid=u3," + BASE,
          List.of(Attribute.of("objectClass", "account"), Attribute.of("uid", "u3"))));
      assertEquals(ResultCode.UNWILLING_TO_PERFORM, e.resultCode());
      assertTrue(e.getMessage().contains("LdapServerLimits.maxEntries reached: 4"),
          e.getMessage());
      c.delete("uid=u2," + BASE);
      c.add("uid=u3," + BASE, List.of(Attribute.of("objectClass", "account"),
          Attribute.of("uid", "u3")));
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> server(
        LdapServerLimits.builder().maxEntries(2).build(), 2)); // an LDIF of 3 entries
    assertTrue(e.getMessage().contains("maxEntries"), e.getMessage());
  }

  @Test
  void maxPagedSearchesPerConnection() throws Exception {
    try (LdapServer s = server(LdapServerLimits.builder().maxPagedSearchesPerConnection(2)
        .build(), 10); LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
      List<ByteString> cookies = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        SearchOutcome o = c.collect(SearchRequest.of(BASE, SearchScope.SINGLE_LEVEL,
            Filter.present("objectClass")), new PagedResults(2, ByteString.EMPTY)
            .toControl(true));
        cookies.add(PagedResults.from(o.done().controls().get(0)).cookie());
      }
      // the two newest are kept, the oldest was dropped
      for (int i = 1; i < 3; i++) {
        ByteString cookie = cookies.get(i);
        assertEquals(2, c.collect(SearchRequest.of(BASE, SearchScope.SINGLE_LEVEL,
            Filter.present("objectClass")), new PagedResults(2, cookie).toControl(true))
            .entries().size());
      }
      LdapException e = assertThrows(LdapException.class, () -> c.collect(SearchRequest.of(
          BASE, SearchScope.SINGLE_LEVEL, Filter.present("objectClass")),
          new PagedResults(2, cookies.get(0)).toControl(true)));
      assertEquals(ResultCode.UNWILLING_TO_PERFORM, e.resultCode());
    }
  }
}
