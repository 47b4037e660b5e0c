package dev.ferry.wssecurity.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.wss4j.common.cache.ReplayCache;

/**
 * The nonces and timestamps seen, each until it expires; at most {@code maxEntries}.
 *
 * <p>WSS4J records a UsernameToken's nonce before it checks the password. So that messages that
 * fail a check (a guessed password, a forged signature) cannot fill the cache and lock out the
 * senders who authenticate, what a message adds while its thread {@link #hold holds} is kept
 * apart, and {@link #commit remembered} only once the whole message passed; a failed one leaves
 * nothing behind. When full of entries that have not expired, a message that would add one is
 * refused rather than letting an old entry go, which could let its message in again. Entries
 * leave in the order they came, as they expire, so a full cache costs no scan per message.
 */
public final class BoundedReplayCache implements ReplayCache {
  /** What {@link #commit} did with the entries a message added. */
  public enum Verdict {
    /** Remembered (or there were none). */
    REMEMBERED,
    /** One is there already: the same message, checked meanwhile on another thread. */
    REPLAYED,
    /** No room: the cache holds {@code maxEntries} that have not expired. */
    FULL
  }

  private record Entry(String id, Instant expiry) {}

  private final Map<String, Instant> seen = new ConcurrentHashMap<>();
  private final Queue<Entry> order = new ConcurrentLinkedQueue<>();
  private final ThreadLocal<Map<String, Instant>> held = new ThreadLocal<>();
  /** Set when this thread, holding, asked for an entry that is there: a replay. */
  private final ThreadLocal<Boolean> replayed = new ThreadLocal<>();
  private final int maxEntries;
  private final Duration defaultTtl;

  public BoundedReplayCache(int maxEntries, Duration defaultTtl) {
    this.maxEntries = maxEntries;
    this.defaultTtl = defaultTtl;
  }

  /** Holds what this thread adds from now on apart, until {@link #commit} or {@link #release}. */
  public void hold() {
    held.set(new HashMap<>(4));
    replayed.remove();
  }

  /** Whether this thread, since it began to hold, asked for an entry that is remembered. */
  public boolean replayed() {
    return Boolean.TRUE.equals(replayed.get());
  }

  /** Remembers what this thread held (all of it, or none), and stops holding. */
  public synchronized Verdict commit() {
    Map<String, Instant> h = held.get();
    held.remove();
    if (h == null || h.isEmpty()) {
      return Verdict.REMEMBERED;
    }
    Instant now = Instant.now();
    evictExpired(now);
    for (String id : h.keySet()) {
      if (isLive(seen.get(id), now)) {
        return Verdict.REPLAYED;
      }
    }
    if (seen.size() + h.size() > maxEntries) {
      return Verdict.FULL;
    }
    h.forEach(this::put);
    return Verdict.REMEMBERED;
  }

  /** Drops what this thread held, for a message refused. */
  public void release() {
    held.remove();
    replayed.remove();
  }

  @Override
  public void add(String identifier) {
    add(identifier, Instant.now().plus(defaultTtl));
  }

  @Override
  public void add(String identifier, Instant expiry) {
    Map<String, Instant> h = held.get();
    if (h != null) {
      h.put(identifier, expiry);
      return;
    }
    synchronized (this) {
      evictExpired(Instant.now());
      if (seen.size() < maxEntries) {
        put(identifier, expiry);
      }
    }
  }

  @Override
  public boolean contains(String identifier) {
    Map<String, Instant> h = held.get();
    Instant now = Instant.now();
    if (h != null && h.containsKey(identifier) || isLive(seen.get(identifier), now)) {
      if (h != null) {
        replayed.set(Boolean.TRUE);
      }
      return true;
    }
    // outside a hold, nothing new can be remembered when full: so nothing new is let in
    return h == null && seen.size() >= maxEntries && !hasExpired(now);
  }

  private void put(String id, Instant expiry) {
    seen.put(id, expiry);
    order.add(new Entry(id, expiry));
  }

  private static boolean isLive(Instant expiry, Instant now) {
    return expiry != null && !expiry.isBefore(now);
  }

  /** Drops the entries at the head that expired (an entry put again leaves with its last). */
  private void evictExpired(Instant now) {
    for (Entry e = order.peek(); e != null && e.expiry().isBefore(now); e = order.peek()) {
      order.poll();
      seen.remove(e.id(), e.expiry());
    }
  }

  private synchronized boolean hasExpired(Instant now) {
    int before = seen.size();
    evictExpired(now);
    return seen.size() < before;
  }

  /** Entries held now. */
  public int size() {
    return seen.size();
  }

  @Override
  public void close() {
    seen.clear();
    order.clear();
  }
}
