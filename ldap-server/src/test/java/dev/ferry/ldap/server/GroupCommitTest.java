package dev.ferry.ldap.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.ResultCode;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Updates that arrive together on a durable store are committed by one LMDB transaction (one
 * fsync); one that fails is dropped alone, with what it changed before it failed, and an
 * attribute type first named by a dropped update is still saved for the next one that names
 * it. The updates are made to queue by holding the write lock until all eight wait.
 */
class GroupCommitTest {
  private static final String BASE = "dc=example,dc=com";
  private static final int WRITERS = 8;
  private static final int FAILING = 3;

  @TempDir
  Path temp;

  private final Schema schema = Schema.standard();
  private final Indexes indexes = new Indexes(schema, Map.of("uid",
      Set.of(IndexType.EQUALITY)));
  private final EntryFactory factory = new EntryFactory(schema, null, Clock.systemUTC(),
      new Passwords(PasswordScheme.ssha256()));

  private Directory open(Path store) throws Exception {
    return new Directory(schema, List.of(Dn.parse(BASE)), indexes,
        LmdbStore.open(store, 1L << 30, schema, indexes));
  }

  private static List<Attribute> person(int i) {
    return List.of(Attribute.of("objectClass", "account"), Attribute.of("uid", "u" + i),
        Attribute.of("x-madeUp", "value " + i)); // a type the store has no id for yet
  }

  private static String dn(int i) {
    return "uid=u" + i + "," + BASE;
  }

  @Test
  void updatesThatArriveTogetherShareOneCommit() throws Exception {
    Path store = temp.resolve("store");
    try (Directory d = open(store)) {
      Updates updates = new Updates(d, factory, 1_000);
      updates.add(BASE, List.of(Attribute.of("objectClass", "domain"), Attribute.of("dc",
          "example")), "", false, Updates.EVERYTHING);
      LmdbStore lmdb = lmdbOf(d);
      AtomicReferenceArray<Throwable> failures = new AtomicReferenceArray<>(WRITERS);
      List<Thread> writers = new ArrayList<>();
      long before;
      d.writeLock.lock();
      try {
        // The failing update comes first, so that it gives the made-up type its id, then drops it.
        writers.add(writer(failures, FAILING, () -> d.update(c -> {
          updates.add(c, dn(FAILING), person(FAILING), "", false, Updates.EVERYTHING);
          throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "dropped on purpose");
        })));
        awaitQueued(d, 1);
        for (int i = 0; i < WRITERS; i++) {
          int n = i;
          if (n != FAILING) {
            writers.add(writer(failures, n, () -> updates.add(dn(n), person(n), "", false,
                Updates.EVERYTHING)));
          }
        }
        awaitQueued(d, WRITERS);
        before = lmdb.env.info().lastTransactionId;
      } finally {
        d.writeLock.unlock();
      }
      for (Thread t : writers) {
        t.join(TimeUnit.SECONDS.toMillis(30));
      }
      assertEquals(before + 1, lmdb.env.info().lastTransactionId, "commits for 8 updates");
      for (int i = 0; i < WRITERS; i++) {
        if (i == FAILING) {
          OperationException e = assertInstanceOf(OperationException.class, failures.get(i));
          assertEquals(ResultCode.UNWILLING_TO_PERFORM, e.result.resultCode());
        } else {
          assertNull(failures.get(i), "update " + i);
        }
      }
    }
    try (Directory d = open(store); Directory.View v = d.read()) {
      assertNull(v.get(Dn.parse(dn(FAILING))), "the failed update's entry");
      for (int i = 0; i < WRITERS; i++) {
        if (i != FAILING) {
          StoredEntry e = v.get(Dn.parse(dn(i)));
          assertNotNull(e, dn(i));
          assertTrue(e.userAttributes().contains(Attribute.of("x-madeUp", "value " + i)),
              e.userAttributes().toString());
        }
      }
      assertEquals(WRITERS, v.size()); // the base and seven
    }
  }

  private static LmdbStore lmdbOf(Directory d) {
    assertTrue(d.isDurable());
    return (LmdbStore) d.store();
  }

  private interface Update {
    void run() throws Exception;
  }

  private static Thread writer(AtomicReferenceArray<Throwable> failures, int i, Update u) {
    return Thread.ofPlatform().start(() -> {
      try {
        u.run();
      } catch (Exception | Error e) {
        failures.set(i, e);
      }
    });
  }

  /** Waits until {@code n} threads wait for the write lock (each queued its update first). */
  private static void awaitQueued(Directory d, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (d.writeLock.getQueueLength() < n) {
      assertTrue(System.nanoTime() < deadline, "writers queued: "
          + d.writeLock.getQueueLength());
      Thread.sleep(1);
    }
  }
}
