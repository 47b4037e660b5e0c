package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.LdapConnection;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.Modification;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server on a durable store, in a process of its own, is killed (SIGKILL) while eight clients
 * add and modify entries, and started again, round after round on the same store: every add and
 * modify it acknowledged is there (a modify's value is the one acknowledged last, or one sent
 * after it), no entry is torn, and the indexes agree with the entries (a full scan). Two rounds
 * of at least 400 writes here; {@code -Dferry.crash.rounds=10 -Dferry.crash.writes=10000} runs
 * the longer trial.
 */
class CrashSafetyTest {
  private static final int ROUNDS = Integer.getInteger("ferry.crash.rounds", 2);
  private static final int WRITES = Integer.getInteger("ferry.crash.writes", 400);
  private static final int CLIENTS = 8;
  private static final String PEOPLE = "ou=people," + DurableServerMain.SUFFIX;

  @TempDir
  Path temp;

  /** What the clients sent and what the server acknowledged, by entry. */
  private final Map<String, Long> sent = new ConcurrentHashMap<>();
  private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
  private final AtomicLong acks = new AtomicLong();

  @Test
  void everyAcknowledgedWriteSurvivesAKill() throws Exception {
    Path store = temp.resolve("store");
    for (int round = 0; round < ROUNDS; round++) {
      Process server = start(store, round);
      try {
        int port = port(server, round);
        if (round == 0) {
          seed(port);
        }
        long target = acks.get() + WRITES;
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          int client = c;
          int r = round;
          clients.add(Thread.ofPlatform().start(() -> write(port, r, client)));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (acks.get() < target && System.nanoTime() < deadline && server.isAlive()) {
          Thread.sleep(5);
        }
        assertTrue(server.isAlive(), "the server died before it was killed: " + log(round));
        assertTrue(acks.get() >= target, "round " + round + ": " + (acks.get() - target
            + WRITES) + " of " + WRITES + " writes acknowledged within 120 s");
        server.destroyForcibly(); // SIGKILL: nothing runs after it in the server
        assertTrue(server.waitFor(30, TimeUnit.SECONDS));
        for (Thread t : clients) {
          t.join(30_000);
        }
      } finally {
        server.destroyForcibly();
      }
      check(store);
      System.out.printf("CrashSafetyTest round %d: %d writes acknowledged in all, %d entries"
          + " checked%n", round, acks.get(), acknowledged.size());
    }
  }

  private Process start(Path store, int round) throws IOException {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return new ProcessBuilder(java.toString(), "-Xmx256m",
        "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"),
        DurableServerMain.class.getName(), store.toString())
        .redirectError(temp.resolve("server-" + round + ".log").toFile())
        .start();
  }

  private int port(Process server, int round) throws IOException {
    BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(),
        StandardCharsets.US_ASCII));
    String line = out.readLine();
    assertNotNull(line, "the server printed no port: " + log(round));
    return Integer.parseInt(line.strip());
  }

  private String log(int round) {
    try {
      return Files.readString(temp.resolve("server-" + round + ".log"));
    } catch (IOException e) {
      return e.toString();
    }
  }

  private static void seed(int port) throws IOException {
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", port)) {
      c.bind(DurableServerMain.ROOT, "secret");
      c.add(DurableServerMain.SUFFIX, List.of(Attribute.of("objectClass", "domain"),
          Attribute.of("dc", "example")));
      c.add(PEOPLE, List.of(Attribute.of("objectClass", "organizationalUnit"),
          Attribute.of("ou", "people")));
    }
  }

  /** Adds entries and modifies the ones it added, until the server goes away. */
  private void write(int port, int round, int client) {
    Random random = new Random(round * 100L + client);
    List<String> mine = new ArrayList<>();
    try (LdapConnection c = LdapConnection.connect("127.0.0.1", port)) {
      c.bind(DurableServerMain.ROOT, "secret");
      for (long n = 0; ; n++) {
        if (mine.isEmpty() || random.nextInt(3) == 0) {
          String uid = "r" + round + "c" + client + "n" + n;
          String dn = "uid=" + uid + "," + PEOPLE;
          sent.put(dn, 0L);
          c.add(dn, List.of(Attribute.of("objectClass", "account"), Attribute.of("uid", uid),
              Attribute.of("uidNumber", "0"), Attribute.of("description", "entry " + uid)));
          acknowledged.put(dn, 0L);
          mine.add(dn);
        } else {
          String dn = mine.get(random.nextInt(mine.size()));
          long value = sent.get(dn) + 1;
          sent.put(dn, value);
          c.modify(dn, List.of(new Modification(Modification.Type.REPLACE,
              Attribute.of("uidNumber", Long.toString(value)))));
          acknowledged.put(dn, value);
        }
        acks.incrementAndGet();
      }
    } catch (IOException | RuntimeException e) {
      // the server was killed: what was acknowledged until then is checked
    }
  }

  private void check(Path store) throws IOException {
    try (LdapServer server = DurableServerMain.builder(store).start()) {
      for (Map.Entry<String, Long> a : acknowledged.entrySet()) {
        LdifRecord.Entry e = server.entry(a.getKey());
        assertNotNull(e, "acknowledged, and lost: " + a.getKey());
        long value = Long.parseLong(e.attribute("uidNumber").value(0).utf8());
        assertTrue(value >= a.getValue() && value <= sent.get(a.getKey()), a.getKey()
            + " has uidNumber " + value + ", acknowledged " + a.getValue());
      }
      assertEquals(List.of(), StoreCheck.problems(server.dsa()));
    }
  }
}
