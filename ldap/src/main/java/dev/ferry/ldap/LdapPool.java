package dev.ferry.ldap;

import dev.ferry.ldap.ProtocolOp.SearchRequest;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A pool of {@link LdapConnection}s to one server or a set of them: between a minimum and a
 * maximum of connections, each opened (in failover order or round-robin over the servers) and
 * authenticated once, checked on checkout and in the background, and retired when too old or
 * idle too long.
 *
 * <pre>{@code
 * try (LdapPool pool = LdapPool.builder()
 *     .servers("ldap://ldap1.example.com", "ldap://ldap2.example.com")
 *     .strategy(LdapPool.Strategy.FAILOVER)
 *     .bind("cn=app,dc=example,dc=com", "secret")
 *     .min(2).max(16)
 *     .build()) {
 *   List<SearchResultEntry> people = pool.execute(c -> c.searchAll(SearchRequest.of(
 *       "dc=example,dc=com", SearchScope.WHOLE_SUBTREE, Filter.parse("(objectClass=person)"))));
 * }
 * }</pre>
 *
 * <p>{@link #execute} runs work on a connection and gives it back. When that connection turns out
 * to be stale (the server closed it while it sat in the pool, as a restarted server does), the
 * work runs once more on a new connection; a failure on a new connection is the caller's. A
 * write retried so may have been applied once already if the server failed while it ran: make
 * writes that must not repeat conditional. Callers get {@link LdapException}s that name what
 * failed: {@code connectError} naming every server tried, {@code serverDown}, or {@code busy}
 * when no connection is free within the checkout timeout; nothing waits without a bound.
 *
 * <p>Thread-safe. {@link #close()} closes idle connections at once and leased ones as they come
 * back.
 */
public final class LdapPool implements Closeable {
  /** How new connections choose among the servers. */
  public enum Strategy {
    /** The first server that answers, in the order given: the others are standbys. */
    FAILOVER,
    /** Each new connection to the next server in turn, the others if it does not answer. */
    ROUND_ROBIN
  }

  /** Work done on a pooled connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(LdapConnection connection) throws IOException;
  }

  /** Checks that a connection still works; throws if it does not. */
  @FunctionalInterface
  public interface HealthCheck {
    /** Reads the root DSE: one round trip that any server answers, bound or not. */
    HealthCheck ROOT_DSE = c -> c.searchAll(SearchRequest.of("", SearchScope.BASE_OBJECT,
        Filter.present("objectClass"), "1.1"));

    void check(LdapConnection connection) throws IOException;
  }

  /** What the pool holds now, and has done since it started. */
  public record Stats(int open, int idle, int leased, long opened, long closed, long retries,
      long timeouts) {}

  private final List<LdapUrl> servers;
  private final Strategy strategy;
  private final LdapOptions options;
  private final LdapOptions.Authenticator authenticator;
  private final HealthCheck healthCheck;
  private final int min;
  private final int max;
  private final long checkoutTimeoutNanos;
  private final long checkAfterIdleNanos;
  private final long maxAgeNanos;
  private final long maxIdleNanos;
  private final long maintenanceNanos;
  private final PoolMeter meter;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition returned = lock.newCondition();
  private final ArrayDeque<Pooled> idle = new ArrayDeque<>(); // most recently used first
  private final AtomicInteger nextServer = new AtomicInteger();
  private final AtomicLong opened = new AtomicLong();
  private final AtomicLong closedCount = new AtomicLong();
  private final AtomicLong retries = new AtomicLong();
  private final AtomicLong timeouts = new AtomicLong();
  private final Thread maintainer;
  private int open; // connections open or being opened
  private int leased;
  private boolean closed;

  /** A connection and when it was opened and last given back. */
  private static final class Pooled {
    final LdapConnection connection;
    final String server;
    final long openedNanos;
    long returnedNanos;

    Pooled(LdapConnection connection, String server) {
      this.connection = connection;
      this.server = server;
      this.openedNanos = System.nanoTime();
      this.returnedNanos = openedNanos;
    }
  }

  private LdapPool(Builder b) {
    this.servers = List.copyOf(b.servers);
    this.strategy = b.strategy;
    this.options = b.options;
    this.authenticator = b.authenticator;
    this.healthCheck = b.healthCheck;
    this.min = b.min;
    this.max = b.max;
    this.checkoutTimeoutNanos = b.checkoutTimeout.toNanos();
    this.checkAfterIdleNanos = b.checkAfterIdle.toNanos();
    this.maxAgeNanos = b.maxAge.toNanos();
    this.maxIdleNanos = b.maxIdle.toNanos();
    this.maintenanceNanos = b.maintenanceInterval.toNanos();
    this.meter = b.meter == null ? PoolMeter.NONE : b.meter.apply(this);
    this.maintainer = Thread.ofVirtual().name("ldap-pool-maintainer").unstarted(this::maintain);
  }

  public static Builder builder() {
    return new Builder();
  }

  // --- using connections -----------------------------------------------------------------------

  /**
   * Runs {@code work} on a pooled connection and gives the connection back; if the connection
   * was stale, runs it once more on a new one.
   *
   * @throws LdapException from the work, or {@code busy}, {@code connectError}
   */
  public <T> T execute(Work<T> work) throws IOException {
    Lease lease = acquire();
    try {
      return lease.run(work);
    } catch (LdapException e) {
      if (!isStale(e) || lease.fresh) {
        throw e;
      }
      retries.incrementAndGet(); // the stale connection was closed as the lease ended
      meter.retried();
      Lease again = acquireNew();
      return again.run(work);
    } finally {
      lease.close();
    }
  }

  /** The connection broke under the work: the server went away. */
  private static boolean isStale(LdapException e) {
    return e.resultCode().equals(ResultCode.SERVER_DOWN);
  }

  /**
   * Takes a connection out of the pool until the lease is closed: an idle one that passes its
   * checks, or a new one if fewer than the maximum are open; else waits up to the checkout
   * timeout for one to come back.
   *
   * @throws LdapException {@code busy} if none is free in time, {@code connectError} if no
   *     server could be reached, {@code unavailable} once the pool is closed
   */
  public Lease acquire() throws IOException {
    long deadline = System.nanoTime() + checkoutTimeoutNanos;
    while (true) {
      Pooled p = take(deadline, true);
      if (p == null) {
        return new Lease(openReserved(), true);
      }
      String unusable = unusable(p, true);
      if (unusable == null) {
        return new Lease(p, false);
      }
      discard(p, unusable, true);
    }
  }

  /** Acquires a new connection, not an idle one (for the retry, and the minimum at start). */
  private Lease acquireNew() throws IOException {
    take(System.nanoTime() + checkoutTimeoutNanos, false); // reserves a place, lends no idle one
    return new Lease(openReserved(), true);
  }

  private LdapException busy() {
    return new LdapException(ResultCode.BUSY, "no pooled connection free within "
        + TimeUnit.NANOSECONDS.toMillis(checkoutTimeoutNanos) + " ms: all " + max
        + " are in use", null);
  }

  /**
   * Waits until the deadline for an idle connection ({@code orIdle}) or a free place, and takes
   * it: returns the idle connection, or null after reserving a place for a new one.
   */
  private Pooled take(long deadline, boolean orIdle) throws IOException {
    long start = System.nanoTime();
    lock.lock();
    try {
      while (true) {
        checkOpen();
        Pooled p = orIdle ? idle.pollFirst() : null;
        if (p != null || open < max) {
          if (p == null) {
            open++;
          }
          leased++;
          meter.waited(System.nanoTime() - start);
          return p;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          timeouts.incrementAndGet();
          meter.timedOut();
          throw busy();
        }
        returned.awaitNanos(left);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for a pooled connection");
    } finally {
      lock.unlock();
    }
  }

  private void checkOpen() throws LdapException {
    if (closed) {
      throw new LdapException(ResultCode.UNAVAILABLE, "the pool is closed", null);
    }
  }

  /** Returns why a connection may not be used, or null if it may. */
  private String unusable(Pooled p, boolean checkout) {
    long now = System.nanoTime();
    if (!p.connection.isOpen()) {
      return "stale";
    }
    if (now - p.openedNanos > maxAgeNanos) {
      return "age";
    }
    if (!checkout || now - p.returnedNanos >= checkAfterIdleNanos) {
      try {
        healthCheck.check(p.connection);
      } catch (IOException | RuntimeException e) {
        return "unhealthy";
      }
    }
    return null;
  }

  /** Opens a connection in a place already reserved; gives the place up if it fails. */
  private Pooled openReserved() throws IOException {
    try {
      return connect();
    } catch (IOException | RuntimeException e) {
      lock.lock();
      try {
        open--;
        leased--;
        returned.signal();
      } finally {
        lock.unlock();
      }
      throw e;
    }
  }

  /** Opens and authenticates a connection to the first server that answers. */
  private Pooled connect() throws IOException {
    List<String> failures = new ArrayList<>();
    IOException last = null;
    for (LdapUrl url : order()) {
      String server = url.scheme() + "://" + url.host() + ":" + url.port();
      LdapConnection c = null;
      try {
        c = LdapConnection.open(url, options);
        authenticator.authenticate(c);
        opened.incrementAndGet();
        meter.opened(server);
        return new Pooled(c, server);
      } catch (IOException e) {
        if (c != null) {
          c.close();
        }
        meter.connectFailed(server);
        failures.add(server + " (" + e.getMessage() + ")");
        last = e;
      }
    }
    throw new LdapException(ResultCode.CONNECT_ERROR, "no server could be reached: "
        + String.join(", ", failures), last);
  }

  /** The servers in the order to try them for the next connection. */
  private List<LdapUrl> order() {
    if (strategy == Strategy.FAILOVER || servers.size() == 1) {
      return servers;
    }
    int first = Math.floorMod(nextServer.getAndIncrement(), servers.size());
    List<LdapUrl> out = new ArrayList<>(servers.size());
    for (int i = 0; i < servers.size(); i++) {
      out.add(servers.get((first + i) % servers.size()));
    }
    return out;
  }

  /** Gives a leased connection back, or closes it if it is broken or the pool is closed. */
  private void release(Pooled p, boolean broken) {
    String reason = null;
    lock.lock();
    try {
      leased--;
      if (closed) {
        reason = "closed";
      } else if (broken || !p.connection.isOpen()) {
        reason = "broken";
      } else if (System.nanoTime() - p.openedNanos > maxAgeNanos) {
        reason = "age";
      }
      if (reason == null) {
        p.returnedNanos = System.nanoTime();
        idle.addFirst(p);
      } else {
        open--;
      }
      returned.signal();
    } finally {
      lock.unlock();
    }
    if (reason != null) {
      close(p, reason);
    }
  }

  /** Closes a connection taken out of the pool, freeing its place. */
  private void discard(Pooled p, String reason, boolean wasLeased) {
    lock.lock();
    try {
      open--;
      if (wasLeased) {
        leased--;
      }
      returned.signal();
    } finally {
      lock.unlock();
    }
    close(p, reason);
  }

  private void close(Pooled p, String reason) {
    try {
      p.connection.close();
    } catch (IOException ignored) {
      // it is being thrown away
    }
    closedCount.incrementAndGet();
    meter.closed(reason);
  }

  // --- maintenance -----------------------------------------------------------------------------

  /** Starts the background checks; called once the pool is built. */
  private LdapPool start() {
    maintainer.start();
    return this;
  }

  private void maintain() {
    while (true) {
      try {
        TimeUnit.NANOSECONDS.sleep(maintenanceNanos);
      } catch (InterruptedException e) {
        return; // closed
      }
      if (isClosed()) {
        return;
      }
      checkIdle();
      fillToMinimum();
    }
  }

  /** Checks each idle connection once, least recently used first, outside the lock. */
  private void checkIdle() {
    int count;
    lock.lock();
    try {
      count = idle.size();
    } finally {
      lock.unlock();
    }
    for (int i = 0; i < count; i++) {
      Pooled p;
      boolean surplus;
      lock.lock();
      try {
        p = idle.pollLast();
        surplus = open > min;
      } finally {
        lock.unlock();
      }
      if (p == null) {
        return;
      }
      String reason = surplus && System.nanoTime() - p.returnedNanos > maxIdleNanos ? "idle"
          : unusable(p, false);
      if (reason != null) {
        discard(p, reason, false);
      } else {
        putBackOldest(p);
      }
    }
  }

  private void putBackOldest(Pooled p) {
    boolean close;
    lock.lock();
    try {
      close = closed;
      if (close) {
        open--;
      } else {
        idle.addLast(p);
        returned.signal();
      }
    } finally {
      lock.unlock();
    }
    if (close) {
      close(p, "closed");
    }
  }

  /** Opens connections until the minimum is open; stops at the first failure. */
  private void fillToMinimum() {
    while (true) {
      lock.lock();
      try {
        if (closed || open >= min) {
          return;
        }
        open++;
        leased++; // counted as leased until it joins the idle ones
      } finally {
        lock.unlock();
      }
      try {
        release(openReserved(), false);
      } catch (IOException e) {
        return; // the servers are down: the next round tries again
      }
    }
  }

  private boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  /** Returns what the pool holds now and has done. */
  public Stats stats() {
    lock.lock();
    try {
      return new Stats(open, idle.size(), leased, opened.get(), closedCount.get(), retries.get(),
          timeouts.get());
    } finally {
      lock.unlock();
    }
  }

  /** Closes the idle connections and stops the checks; leased ones close when given back. */
  @Override
  public void close() {
    List<Pooled> toClose;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      toClose = new ArrayList<>(idle);
      open -= idle.size();
      idle.clear();
      returned.signalAll();
    } finally {
      lock.unlock();
    }
    maintainer.interrupt();
    for (Pooled p : toClose) {
      close(p, "closed");
    }
  }

  @Override
  public String toString() {
    return "LdapPool" + servers.stream().map(u -> u.host() + ":" + u.port()).toList() + " "
        + stats();
  }

  /** A connection taken from the pool; closing the lease gives it back. */
  public final class Lease implements AutoCloseable {
    private final Pooled pooled;
    private final boolean fresh;
    private boolean done;
    private boolean broken;

    private Lease(Pooled pooled, boolean fresh) {
      this.pooled = pooled;
      this.fresh = fresh;
    }

    /** The connection; do not close it: close the lease. */
    public LdapConnection connection() {
      if (done) {
        throw new IllegalStateException("the lease is closed");
      }
      return pooled.connection;
    }

    /** Marks the connection broken: closing the lease closes it instead of pooling it. */
    public void invalidate() {
      broken = true;
    }

    private <T> T run(Work<T> work) throws IOException {
      try {
        return work.run(pooled.connection);
      } catch (LdapException e) {
        if (isStale(e)) {
          broken = true;
        }
        throw e;
      } finally {
        close();
      }
    }

    @Override
    public void close() {
      if (!done) {
        done = true;
        release(pooled, broken);
      }
    }
  }

  /** Builds an {@link LdapPool}. */
  public static final class Builder {
    private final List<LdapUrl> servers = new ArrayList<>();
    private Strategy strategy = Strategy.FAILOVER;
    private LdapOptions options = LdapOptions.DEFAULTS;
    private LdapOptions.Authenticator authenticator = LdapOptions.Authenticator.ANONYMOUS;
    private HealthCheck healthCheck = HealthCheck.ROOT_DSE;
    private int min = 1;
    private int max = 8;
    private Duration checkoutTimeout = Duration.ofSeconds(10);
    private Duration checkAfterIdle = Duration.ofSeconds(1);
    private Duration maxAge = Duration.ofMinutes(30);
    private Duration maxIdle = Duration.ofMinutes(5);
    private Duration maintenanceInterval = Duration.ofSeconds(30);
    private java.util.function.Function<LdapPool, PoolMeter> meter;

    private Builder() {}

    /** The servers, as {@code ldap://host:port} or {@code ldaps://host:port} URLs. */
    public Builder servers(String... urls) {
      for (String u : urls) {
        servers.add(LdapUrl.parse(u));
      }
      return this;
    }

    public Builder strategy(Strategy strategy) {
      this.strategy = Objects.requireNonNull(strategy, "strategy");
      return this;
    }

    /** How connections connect: TLS trust, timeouts, limits. */
    public Builder options(LdapOptions options) {
      this.options = Objects.requireNonNull(options, "options");
      return this;
    }

    /** Binds each new connection with a simple bind. */
    public Builder bind(String dn, String password) {
      Objects.requireNonNull(dn, "dn");
      Objects.requireNonNull(password, "password");
      return authenticator(c -> c.bind(dn, password));
    }

    /** Authenticates each new connection (StartTLS, SASL, ...) before the pool lends it. */
    public Builder authenticator(LdapOptions.Authenticator authenticator) {
      this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
      return this;
    }

    public Builder healthCheck(HealthCheck healthCheck) {
      this.healthCheck = Objects.requireNonNull(healthCheck, "healthCheck");
      return this;
    }

    /** Connections kept open when idle (default 1; 0 opens none ahead of need). */
    public Builder min(int min) {
      if (min < 0) {
        throw new IllegalArgumentException("min < 0: " + min);
      }
      this.min = min;
      return this;
    }

    /** Connections open at most (default 8). */
    public Builder max(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("max < 1: " + max);
      }
      this.max = max;
      return this;
    }

    /** How long a caller waits for a free connection (default 10 s). */
    public Builder checkoutTimeout(Duration timeout) {
      this.checkoutTimeout = positive("checkoutTimeout", timeout);
      return this;
    }

    /**
     * A connection idle this long is health-checked before it is lent (default 1 s); one used
     * more recently is lent if it is open, so that a busy pool pays no extra round trip.
     */
    public Builder checkAfterIdle(Duration idle) {
      this.checkAfterIdle = Objects.requireNonNull(idle, "idle");
      return this;
    }

    /** Connections older than this are closed when they come back (default 30 min). */
    public Builder maxAge(Duration age) {
      this.maxAge = positive("maxAge", age);
      return this;
    }

    /** Connections idle longer than this are closed, down to the minimum (default 5 min). */
    public Builder maxIdle(Duration idle) {
      this.maxIdle = positive("maxIdle", idle);
      return this;
    }

    /** How often idle connections are checked and the minimum restored (default 30 s). */
    public Builder maintenanceInterval(Duration interval) {
      this.maintenanceInterval = positive("maintenanceInterval", interval);
      return this;
    }

    /**
     * Reports to a Micrometer registry (see {@code ferry.ldap.pool.*}); needs Micrometer on the
     * class path, which this module does not bring.
     */
    public Builder metrics(io.micrometer.core.instrument.MeterRegistry registry, String name) {
      Objects.requireNonNull(registry, "registry");
      Objects.requireNonNull(name, "name");
      this.meter = pool -> new PoolMetrics(registry, name, pool);
      return this;
    }

    /**
     * Builds the pool and starts its background checks; opens the minimum of connections now.
     *
     * @throws IllegalArgumentException if no server is given or min is above max
     * @throws LdapException if the minimum cannot be opened (no server could be reached)
     */
    public LdapPool build() throws IOException {
      if (servers.isEmpty()) {
        throw new IllegalArgumentException("no servers");
      }
      if (min > max) {
        throw new IllegalArgumentException("min > max: " + min + " > " + max);
      }
      LdapPool pool = new LdapPool(this);
      for (int i = 0; i < min; i++) {
        try (Lease l = pool.acquireNew()) {
          l.connection();
        } catch (IOException e) {
          pool.close();
          throw e;
        }
      }
      return pool.start();
    }

    private static Duration positive(String name, Duration d) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive: " + d);
      }
      return d;
    }
  }
}
