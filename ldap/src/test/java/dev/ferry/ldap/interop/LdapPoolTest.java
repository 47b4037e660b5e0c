package dev.ferry.ldap.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdapException;
import dev.ferry.ldap.LdapPool;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SearchScope;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** LdapPool against two real slapds, one of them stopped and started again under load. */
class LdapPoolTest {
  private static Slapd a;
  private static Slapd b;

  @BeforeAll
  static void start() throws Exception {
    a = Slapd.start();
    b = Slapd.start();
    a.awaitReady();
    b.awaitReady();
    a.addBaseEntries();
    b.addBaseEntries();
  }

  @AfterAll
  static void stop() throws Exception {
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
  }

  static String url(Slapd s) {
    return "ldap://127.0.0.1:" + s.port;
  }

  static LdapPool.Builder pool(Slapd... servers) {
    LdapPool.Builder p = LdapPool.builder().bind(Slapd.ADMIN, Slapd.PASSWORD);
    for (Slapd s : servers) {
      p.servers(url(s));
    }
    return p;
  }

  static final SearchRequest BASE = SearchRequest.of(Slapd.SUFFIX, SearchScope.BASE_OBJECT,
      Filter.present("objectClass"), "1.1");

  /** Which server a connection goes to: its port. */
  static int port(LdapConnection c) {
    String s = c.toString();
    return Integer.parseInt(s.substring(s.lastIndexOf(':') + 1, s.indexOf(']')));
  }

  @Test
  void reusesConnectionsBoundOnce() throws IOException {
    try (LdapPool p = pool(a).min(2).max(4).build()) {
      assertEquals(2, p.stats().open());
      for (int i = 0; i < 50; i++) {
        assertEquals(1, p.execute(c -> c.searchAll(BASE)).size());
      }
      assertEquals("dn:" + Slapd.ADMIN, p.execute(LdapConnection::whoAmI));
      assertEquals(2, p.stats().opened());
    }
  }

  @Test
  void aCallerWaitsForAFreeConnectionAtMostTheCheckoutTimeout() throws IOException {
    try (LdapPool p = pool(a).min(0).max(2).checkoutTimeout(Duration.ofMillis(200)).build()) {
      LdapPool.Lease one = p.acquire();
      LdapPool.Lease two = p.acquire();
      long start = System.nanoTime();
      LdapException e = assertThrows(LdapException.class, p::acquire);
      long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertEquals(ResultCode.BUSY, e.resultCode());
      assertTrue(e.getMessage().contains("no pooled connection free within 200 ms: all 2 are"
          + " in use"), e.getMessage());
      assertTrue(waited >= 190 && waited < 5000, waited + " ms");
      one.close();
      try (LdapPool.Lease three = p.acquire()) {
        assertEquals(1, three.connection().searchAll(BASE).size());
      }
      two.close();
      assertEquals(1, p.stats().timeouts());
    }
  }

  @Test
  void failoverGoesToTheNextServerAndRoundRobinSpreads() throws Exception {
    try (LdapPool p = pool(a, b).min(0).max(4).strategy(LdapPool.Strategy.ROUND_ROBIN)
        .build()) {
      List<LdapPool.Lease> leases = new ArrayList<>();
      Map<Integer, Integer> perServer = new TreeMap<>();
      for (int i = 0; i < 4; i++) {
        LdapPool.Lease l = p.acquire();
        leases.add(l);
        perServer.merge(port(l.connection()), 1, Integer::sum);
      }
      leases.forEach(LdapPool.Lease::close);
      assertEquals(Map.of(a.port, 2, b.port, 2), perServer);
    }
    try (LdapPool p = pool(a, b).min(1).max(2).build()) {
      assertEquals(a.port, (int) p.execute(LdapPoolTest::port));
      a.stop();
      try {
        // the connection to a broke: the work runs again on a new one, which goes to b
        assertEquals(b.port, (int) p.execute(c -> {
          c.searchAll(BASE);
          return port(c);
        }));
      } finally {
        a.restart();
        a.awaitReady();
      }
    }
  }

  @Test
  void whenNoServerAnswersTheErrorNamesThemAll() throws Exception {
    a.stop();
    try {
      LdapException e = assertThrows(LdapException.class, () -> pool(a).min(1).build());
      assertEquals(ResultCode.CONNECT_ERROR, e.resultCode());
      assertTrue(e.getMessage().contains("no server could be reached: ldap://127.0.0.1:"
          + a.port + " ("), e.getMessage());
    } finally {
      a.restart();
      a.awaitReady();
    }
  }

  @Test
  void agedAndIdleConnectionsAreRetired() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (LdapPool p = pool(a).min(1).max(4).maxAge(Duration.ofMillis(300))
        .maxIdle(Duration.ofMillis(200)).maintenanceInterval(Duration.ofMillis(100))
        .metrics(registry, "test").build()) {
      List<LdapPool.Lease> leases = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        leases.add(p.acquire());
      }
      leases.forEach(LdapPool.Lease::close);
      assertEquals(3, p.stats().open());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      // exactly the minimum: the aged one may be closed and reopened meanwhile (0 for a moment)
      while (p.stats().open() != 1 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals(1, p.stats().open()); // down to the minimum
      Thread.sleep(400);
      p.execute(c -> c.searchAll(BASE)); // the first one is now too old: replaced
      assertTrue(p.stats().opened() >= 4, p.stats().toString());
      assertTrue(registry.get("ferry.ldap.pool.closed").tag("reason", "idle").counter()
          .count() >= 2);
      assertTrue(registry.get("ferry.ldap.pool.opened").tag("server", url(a)).counter()
          .count() >= 4);
      assertEquals(1.0, registry.get("ferry.ldap.pool.connections").tag("state", "idle")
          .gauge().value(), 1.0);
    }
  }

  /**
   * Four clients search while slapd stops after 1.5 s and starts again 2 s later: nothing hangs,
   * every failure is a clear LdapException, and a second after slapd answers again the pool has
   * healed and every search succeeds.
   */
  @Test
  void survivesARestartUnderLoad() throws Exception {
    record Outcome(long atMillis, String result) {}
    ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
    long start = System.nanoTime();
    java.util.concurrent.atomic.AtomicLong stopAtMillis = new java.util.concurrent.atomic
        .AtomicLong(Long.MAX_VALUE);
    long backMillis;
    try (LdapPool p = pool(a).min(2).max(4).checkAfterIdle(Duration.ofMillis(50))
        .checkoutTimeout(Duration.ofSeconds(2)).maintenanceInterval(Duration.ofMillis(200))
        .options(dev.ferry.ldap.LdapOptions.builder().timeout(Duration.ofSeconds(2)).build())
        .build()) {
      List<Thread> clients = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        clients.add(Thread.ofVirtual().start(() -> {
          long at;
          while ((at = millisSince(start)) < stopAtMillis.get()) {
            try {
              p.execute(c -> c.searchAll(BASE));
              outcomes.add(new Outcome(at, "ok"));
            } catch (LdapException e) {
              outcomes.add(new Outcome(at, e.resultCode().name() + ": " + e.getMessage()));
            } catch (Throwable e) {
              unexpected.add(e);
            }
          }
        }));
      }
      Thread.sleep(1500);
      a.stop();
      Thread.sleep(2000);
      a.restart();
      a.awaitReady();
      backMillis = millisSince(start);
      stopAtMillis.set(backMillis + 3000);
      for (Thread c : clients) {
        assertTrue(c.join(Duration.ofSeconds(30)), "a client hangs");
      }
    }
    assertEquals(List.of(), List.copyOf(unexpected));
    List<String> failures = outcomes.stream().filter(o -> !o.result.equals("ok"))
        .map(Outcome::result).distinct().toList();
    assertTrue(!failures.isEmpty(), "no failure while slapd was down");
    for (String f : failures) {
      assertTrue(f.startsWith("connectError: ") || f.startsWith("serverDown: "), f);
    }
    List<Outcome> healed = outcomes.stream().filter(o -> o.atMillis > backMillis + 1000)
        .toList();
    assertTrue(healed.size() > 20, healed.size() + " searches after slapd was back");
    assertEquals(List.of(), healed.stream().filter(o -> !o.result.equals("ok")).limit(3)
        .toList());
    assertNotEquals(0, outcomes.stream().filter(o -> o.atMillis < 1500 && o.result.equals("ok"))
        .count());
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }
}
