package dev.ferry.broker;

import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.NettyTls;
import dev.ferry.client.internal.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything a broker runs from one {@link Routes} table: the choice of routes and the changes
 * made to requests ({@link Forwarding}), the routes' limits, each group's members and their
 * health ({@link Backends}), and the connections to them. One object, built whole and never
 * changed: an exchange takes the set current when it starts and keeps it to its end, so that a
 * broker can swap in a new set at once (a reload) while exchanges on the old one finish, then
 * close it. Counted: the broker holds one use until it retires the set, each exchange one from
 * {@link #enter} to {@link #leave}; the last use given back closes it, so a set closes once, as
 * soon as nothing runs on it, with no thread waiting for that.
 */
final class RouteSet implements AutoCloseable {
  private final Routes routes;
  private final Forwarding forwarding;
  private final HttpConnections shared;
  private final Map<BackendGroup, Backends> groups = new IdentityHashMap<>();
  private final Map<Route, HttpConnections> own = new IdentityHashMap<>();
  private final Map<Route, RouteLimiter> limiters = new IdentityHashMap<>();
  private final List<HealthChecks> checks = new ArrayList<>();
  private final BrokerMetrics metrics;
  /** The broker's use (until {@link #retire}) and one per exchange running on the set. */
  private final AtomicInteger uses = new AtomicInteger(1);
  private final AtomicBoolean retired = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  RouteSet(Routes routes, String name, Transport transport, BrokerMetrics metrics) {
    this.routes = routes;
    this.metrics = metrics;
    metrics.routes(routes.routes());
    this.forwarding = new Forwarding(routes, name);
    Duration timeout = routes.timeout();
    this.shared = new HttpConnections(transport, timeout, timeout);
    for (Route r : routes.routes()) {
      if (r.limits().any()) {
        limiters.put(r, new RouteLimiter(r));
      }
      BackendGroup g = r.backends();
      if (g == null) {
        continue;
      }
      Backends b = groups.computeIfAbsent(g, x -> new Backends(x, metrics));
      Duration t = g.timeout() != null ? g.timeout() : timeout;
      if (r.policy().backendTls() != null || !t.equals(timeout)) {
        own.put(r, r.policy().backendTls() == null ? new HttpConnections(transport, t, t)
            : new HttpConnections(transport, t, t, NettyTls.client(r.policy().backendTls())));
      }
      if (g.check() != null && checks.stream().noneMatch(c -> c.backends() == b)) {
        checks.add(new HealthChecks(b, connections(r), transport));
      }
    }
    checks.forEach(HealthChecks::start);
    metrics.routeSetOpened();
  }

  /**
   * Takes a use of the set for an exchange starting on it; false if the set closed meanwhile
   * (retired and drained between the broker's read of it and this call): take the current one.
   */
  boolean enter() {
    for (int n = uses.get(); n > 0; n = uses.get()) {
      if (uses.compareAndSet(n, n + 1)) {
        return true;
      }
    }
    return false;
  }

  /** Gives an exchange's use back; the last one of a retired set closes it. */
  void leave() {
    if (uses.decrementAndGet() == 0) {
      close();
    }
  }

  /** The broker no longer hands the set out: it closes as its last exchange ends (or now). */
  void retire() {
    if (retired.compareAndSet(false, true)) {
      leave();
    }
  }

  /** Whether the set is closed: its checks stopped, its idle connections closed. */
  boolean closed() {
    return closed.get();
  }

  Routes routes() {
    return routes;
  }

  Forwarding forwarding() {
    return forwarding;
  }

  /** The members of {@code route}'s group. */
  Backends backends(Route route) {
    return groups.get(route.backends());
  }

  /**
   * Why the broker is not ready on these routes: the first group that gates readiness
   * ({@link BackendGroup#gatesReadiness}) whose every member is suspended; null if none.
   */
  String unready() {
    for (Backends b : groups.values()) {
      if (b.group().gatesReadiness() && b.allSuspended()) {
        return "every member of " + b.group().name() + " is suspended";
      }
    }
    return null;
  }

  /** Takes a share of {@code route}'s limits for {@code caller}: a permit or a refusal. */
  RouteLimiter.Taken limit(Route route, String caller) {
    RouteLimiter l = limiters.get(route);
    return l == null ? RouteLimiter.NONE : l.acquire(caller);
  }

  /** The connections to {@code route}'s members. */
  HttpConnections connections(Route route) {
    HttpConnections c = own.get(route);
    return c != null ? c : shared;
  }

  /**
   * Stops the checks and closes the idle connections (those in use close with their exchanges,
   * as the pools take none back once closed). Once; by the last use, or by a broker stopping.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    metrics.routeSetClosed();
    checks.forEach(HealthChecks::close);
    shared.close();
    own.values().forEach(HttpConnections::close);
  }
}
