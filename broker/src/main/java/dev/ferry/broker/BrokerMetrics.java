package dev.ferry.broker;

import dev.ferry.broker.internal.MemberHealth;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broker's meters in a Micrometer registry, served in the Prometheus text format at
 * {@code /metrics}: exchanges by route and status, latency, bytes in and out, exchanges in
 * flight, refusals, requests moved to another member; per member of a group, failures,
 * suspensions and whether it is available. Labels come from the configuration only (a route's
 * name, a group's and its members' URLs), and {@code "none"} for requests no route took, so a
 * caller inventing paths cannot grow it. Thread-safe.
 */
final class BrokerMetrics {
  static final String NONE = "none";
  private static final String PREFIX = "ferry.broker";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  /** Where meters are registered: the Prometheus registry, or it and the application's. */
  private final MeterRegistry meters;
  private final AtomicLong inFlight = new AtomicLong();
  /** By route name: those of every table loaded since start (a reload adds, never removes). */
  private final Map<String, RouteMeters> byRoute = new ConcurrentHashMap<>();
  /** By group and member label: a reload's new members of the same name keep the meters. */
  private final Map<String, MemberMeters> byMember = new ConcurrentHashMap<>();
  private final Counter refused;
  private final Counter reloaded;
  private final Counter reloadFailed;
  private final AtomicInteger routeSets = new AtomicInteger();

  /** {@code also}: an application's registry (Spring Boot's) to register every meter in too. */
  BrokerMetrics(List<Route> routes, MeterRegistry also) {
    meters = also == null ? registry
        : new CompositeMeterRegistry(Clock.SYSTEM, List.of(registry, also));
    meters.gauge(PREFIX + ".in.flight", inFlight);
    refused = Counter.builder(PREFIX + ".refused").description("requests refused with 503:"
        + " maxExchanges were in flight").register(meters);
    reloaded = reloads("ok");
    reloadFailed = reloads("failed");
    meters.gauge(PREFIX + ".route.sets", routeSets); // above 1: old tables' exchanges running
    byRoute.put(NONE, new RouteMeters(NONE));
    routes(routes);
  }

  private Counter reloads(String result) {
    return Counter.builder(PREFIX + ".route.reloads").description("route tables loaded again"
        + " and swapped in (ok) or refused, the old table kept (failed)").tag("result", result)
        .register(meters);
  }

  /** Registers the meters of {@code routes} not yet known (a reloaded table's new ones). */
  void routes(List<Route> routes) {
    for (Route r : routes) {
      byRoute.computeIfAbsent(r.name(), RouteMeters::new);
    }
  }

  /** Counts a reload: swapped in, or refused. */
  void reloaded(boolean ok) {
    (ok ? reloaded : reloadFailed).increment();
  }

  void routeSetOpened() {
    routeSets.incrementAndGet();
  }

  void routeSetClosed() {
    routeSets.decrementAndGet();
  }

  PrometheusMeterRegistry registry() {
    return registry;
  }

  String scrape() {
    return registry.scrape();
  }

  long inFlight() {
    return inFlight.get();
  }

  void started() {
    inFlight.incrementAndGet();
  }

  void refused() {
    refused.increment();
  }

  /**
   * Registers the meters of a member of {@code group}, or, for a member a reloaded table names
   * again, points its availability at the new one's health.
   */
  void member(String group, Backends.Backend b) {
    byMember.computeIfAbsent(key(group, b), k -> new MemberMeters(group, b)).health = b.health;
  }

  private static String key(String group, Backends.Backend b) {
    return group + ' ' + b.label;
  }

  /** An exchange with {@code b} failed in a way that counts against it. */
  void memberFailed(String group, Backends.Backend b) {
    byMember.get(key(group, b)).failures.increment();
  }

  /** {@code b} was suspended. */
  void memberSuspended(String group, Backends.Backend b) {
    byMember.get(key(group, b)).suspensions.increment();
  }

  /** A request of {@code route} was refused by its {@code limit} ({@code rate}...). */
  void limited(String route, String limit) {
    RouteMeters m = byRoute.getOrDefault(route, byRoute.get(NONE));
    m.limited.computeIfAbsent(limit, l -> Counter.builder(PREFIX + ".limited").description(
        "requests refused (503 or 429) by a route's limit").tag("route", m.route).tag("limit", l)
        .register(meters)).increment();
  }

  /** A request of {@code route} moved to another member after one failed. */
  void retried(String route) {
    byRoute.getOrDefault(route, byRoute.get(NONE)).retries.increment();
  }

  /** Counts an exchange that ended; {@code route} is a route's name or {@link #NONE}. */
  void finished(String route, int status, long nanos, long bytesIn, long bytesOut,
      boolean started) {
    RouteMeters m = byRoute.getOrDefault(route, byRoute.get(NONE));
    m.requests(status).increment();
    m.latency.record(nanos, TimeUnit.NANOSECONDS);
    m.requestBytes.record(bytesIn);
    m.responseBytes.record(bytesOut);
    if (started) {
      inFlight.decrementAndGet(); // last: whoever sees it drop sees the exchange counted
    }
  }

  /** One route's meters, registered once. */
  private final class RouteMeters {
    final String route;
    final Timer latency;
    final DistributionSummary requestBytes;
    final DistributionSummary responseBytes;
    final Counter retries;
    final Map<Integer, Counter> byStatus = new ConcurrentHashMap<>();
    final Map<String, Counter> limited = new ConcurrentHashMap<>(); // a few limits at most

    RouteMeters(String route) {
      this.route = route;
      retries = Counter.builder(PREFIX + ".retries").description("requests sent to another"
          + " member after one failed").tag("route", route).register(meters);
      latency = Timer.builder(PREFIX + ".latency").tag("route", route).register(meters);
      requestBytes = DistributionSummary.builder(PREFIX + ".request.bytes").baseUnit("bytes")
          .tag("route", route).register(meters);
      responseBytes = DistributionSummary.builder(PREFIX + ".response.bytes").baseUnit("bytes")
          .tag("route", route).register(meters);
    }

    /** Statuses are three digits, so this map stays small whatever callers send. */
    Counter requests(int status) {
      Counter c = byStatus.get(status); // the common case: no lambda, no lock
      return c != null ? c : byStatus.computeIfAbsent(status, s -> Counter.builder(PREFIX
          + ".requests").tag("route", route).tag("status", Integer.toString(s))
          .register(meters));
    }
  }

  /** One member's meters: failures that counted against it, suspensions, and whether it is up. */
  private final class MemberMeters {
    final Counter failures;
    final Counter suspensions;
    /** The health of the member of the current table (a reload's replaces the old one's). */
    volatile MemberHealth health;

    MemberMeters(String group, Backends.Backend b) {
      health = b.health;
      failures = Counter.builder(PREFIX + ".member.failures").description("exchanges that"
          + " failed in a way that counts against the member").tag("group", group)
          .tag("member", b.label).register(meters);
      suspensions = Counter.builder(PREFIX + ".member.suspensions").tag("group", group)
          .tag("member", b.label).register(meters);
      meters.gauge(PREFIX + ".member.available", java.util.List.of(
          io.micrometer.core.instrument.Tag.of("group", group),
          io.micrometer.core.instrument.Tag.of("member", b.label)), this,
          m -> m.health.available() ? 1 : 0);
    }
  }
}
