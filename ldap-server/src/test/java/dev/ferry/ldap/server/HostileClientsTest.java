package dev.ferry.ldap.server;

import static dev.ferry.ldap.server.LdapServerLimitsTest.BASE;
import static dev.ferry.ldap.server.LdapServerLimitsTest.readMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * What a hostile client did to the server, each in a small loopback form: sockets that never
 * send a byte locking others out, and searches with tens of thousands of substring parts
 * taking seconds and gigabytes and slowing everyone else's searches.
 */
class HostileClientsTest {

  /** A substrings filter on description with {@code parts} one-letter parts. */
  static Filter substringsOfParts(int parts) {
    List<ByteString> any = new ArrayList<>();
    for (int i = 0; i < parts - 1; i++) {
      any.add(ByteString.encodeUtf8(String.valueOf((char) ('a' + i % 26))));
    }
    return new Filter.Substrings("description", ByteString.encodeUtf8("x"), any, null);
  }

  @Test
  void socketsThatSendNothingDoNotLockOutOtherClients() throws Exception {
    // The report: about 1,030 sockets that never sent a byte made every new client "busy".
    // Here: a table of 32, and 80 such sockets from eight addresses.
    LdapServerLimits limits = LdapServerLimits.builder().maxConnections(32)
        .maxConnectionsPerAddress(8).build();
    List<RawClient> attackers = new ArrayList<>();
    try (LdapServer s = LdapServerLimitsTest.server(limits, 10);
        LdapConnection bound = LdapConnection.connect("127.0.0.1", s.port())) {
      LdapServerLimitsTest.bind(bound);
      for (int address = 2; address <= 9; address++) {
        for (int i = 0; i < 10; i++) {
          attackers.add(new RawClient(s.port(), 0, "127.0.0." + address));
        }
      }
      LdapServerLimitsTest.await("the attackers accepted or refused",
          () -> s.connectionCount() == 32);
      try (LdapConnection newcomer = LdapConnection.connect("127.0.0.1", s.port())) {
        LdapServerLimitsTest.bind(newcomer);
        assertEquals(1, newcomer.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
            Filter.equality("uid", "u3"))).size());
      }
      assertEquals("dn:cn=admin," + BASE, bound.whoAmI());
      assertTrue(s.connectionCount() <= 32, s.connectionCount() + " connections");
    } finally {
      for (RawClient a : attackers) {
        a.close();
      }
    }
  }

  @Test
  void anEightyThousandPartSubstringFilterIsRefusedAtOnce() throws Exception {
    // The report: one such search (240 KB) took 8.2 s and grew the server by 1.4 GiB.
    try (LdapServer s = LdapServerLimitsTest.server(LdapServerLimits.DEFAULTS, 2000,
        "xylophone and quartz");
        RawClient c = new RawClient(s.port())) {
      ByteString hostile = LdapCodec.encode(LdapMessage.of(1, SearchRequest.of(BASE,
          SearchScope.WHOLE_SUBTREE, substringsOfParts(80_000))));
      assertTrue(hostile.size() > 240_000, hostile.size() + " bytes");
      long before = SearchAllocationTest.allocatedByAllThreads();
      long start = System.nanoTime();
      c.send(hostile);
      ProtocolOp.SearchResultDone done = (ProtocolOp.SearchResultDone) readMessage(c).op();
      long millis = (System.nanoTime() - start) / 1_000_000;
      long allocated = SearchAllocationTest.allocatedByAllThreads() - before;
      assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, done.result().resultCode());
      assertTrue(done.result().diagnosticMessage().contains(
          "LdapLimits.maxSubstringParts exceeded: 17 > 16"), done.result().diagnosticMessage());
      assertTrue(millis < 2_000, millis + " ms");
      // the request's own 240 KB, read whole, and what decoding 16 parts of it takes
      assertTrue(allocated < 2 * 1024 * 1024, allocated + " bytes allocated");
      // the connection goes on
      c.send(LdapCodec.encode(LdapMessage.of(2, SearchRequest.of(BASE,
          SearchScope.WHOLE_SUBTREE, Filter.equality("uid", "u7")))));
      assertEquals(1, c.readSearch());
    }
  }

  @Test
  void hostileSearchesDoNotSlowANormalOne() throws Exception {
    // The report: four clients sending 20,000-part searches slowed a 5 ms search to 3.8 s.
    try (LdapServer s = LdapServerLimitsTest.server(LdapServerLimits.DEFAULTS, 2000,
        "xylophone and quartz");
        LdapConnection normal = LdapConnection.connect("127.0.0.1", s.port())) {
      SearchRequest hostile = SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
          substringsOfParts(20_000));
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<Integer>> attackers = new ArrayList<>();
      try {
        for (int i = 0; i < 4; i++) {
          attackers.add(pool.submit(() -> {
            int refused = 0;
            try (LdapConnection c = LdapConnection.connect("127.0.0.1", s.port())) {
              while (!stop.get()) {
                LdapException e = assertThrows(LdapException.class, () -> c.searchAll(hostile));
                assertEquals(ResultCode.ADMIN_LIMIT_EXCEEDED, e.resultCode());
                refused++;
              }
            }
            return refused;
          }));
        }
        long[] millis = new long[21];
        for (int i = 0; i < millis.length; i++) {
          long start = System.nanoTime();
          assertEquals(1, normal.searchAll(SearchRequest.of(BASE, SearchScope.WHOLE_SUBTREE,
              Filter.parse("(&(objectClass=account)(uid=u" + (i * 37) + "))"))).size());
          millis[i] = (System.nanoTime() - start) / 1_000_000;
        }
        stop.set(true);
        for (Future<Integer> a : attackers) {
          assertTrue(a.get() > 0, "each attacker was answered");
        }
        Arrays.sort(millis);
        assertTrue(millis[10] < 250, "median " + millis[10] + " ms: " + Arrays.toString(millis));
      } finally {
        stop.set(true);
        pool.shutdownNow();
      }
    }
  }
}
