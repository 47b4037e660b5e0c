package dev.ferry.wssecurity.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.wss4j.common.cache.ReplayCache;

/**
 * The nonces and timestamps seen, each until it expires; at most {@code maxEntries}. When full
 * of entries that have not expired, what comes next is taken as a replay (refused) rather than
 * letting an old entry go, which could let its message in again.
 */
public final class BoundedReplayCache implements ReplayCache {
  private final Map<String, Instant> seen = new ConcurrentHashMap<>();
  private final int maxEntries;
  private final Duration defaultTtl;

  public BoundedReplayCache(int maxEntries, Duration defaultTtl) {
    this.maxEntries = maxEntries;
    this.defaultTtl = defaultTtl;
  }

  @Override
  public void add(String identifier) {
    add(identifier, Instant.now().plus(defaultTtl));
  }

  @Override
  public void add(String identifier, Instant expiry) {
    if (seen.size() >= maxEntries) {
      evictExpired();
    }
    if (seen.size() < maxEntries) {
      seen.put(identifier, expiry);
    }
  }

  @Override
  public boolean contains(String identifier) {
    Instant until = seen.get(identifier);
    if (until != null && until.isBefore(Instant.now())) {
      seen.remove(identifier, until);
      return false;
    }
    // full of live entries: nothing new can be remembered, so nothing new is let in
    return until != null || seen.size() >= maxEntries && !evictExpired();
  }

  /** Drops what expired; returns true if anything did. */
  private boolean evictExpired() {
    Instant now = Instant.now();
    boolean any = false;
    for (Iterator<Map.Entry<String, Instant>> i = seen.entrySet().iterator(); i.hasNext(); ) {
      if (i.next().getValue().isBefore(now)) {
        i.remove();
        any = true;
      }
    }
    return any;
  }

  /** Entries held now. */
  public int size() {
    return seen.size();
  }

  @Override
  public void close() {
    seen.clear();
  }
}
