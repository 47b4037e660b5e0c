package dev.ferry.broker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broker's meters in a Micrometer registry, served in the Prometheus text format at
 * {@code /metrics}: exchanges by route and status, latency, bytes in and out, exchanges in
 * flight, refusals. Labels come from the configured routes only ({@code route="/echo"}, or
 * {@code "/echo urn:op"} for a route with an action), and {@code "none"} for requests no route
 * took, so a caller inventing paths cannot grow it. Thread-safe.
 */
final class BrokerMetrics {
  static final String NONE = "none";
  private static final String PREFIX = "ferry.broker";

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicLong inFlight = new AtomicLong();
  private final Map<String, RouteMeters> byRoute;
  private final Counter refused;

  BrokerMetrics(List<Route> routes) {
    registry.gauge(PREFIX + ".in.flight", inFlight);
    refused = Counter.builder(PREFIX + ".refused").description("requests refused with 503:"
        + " maxExchanges were in flight").register(registry);
    Map<String, RouteMeters> m = new HashMap<>();
    for (Route r : routes) {
      m.computeIfAbsent(r.name(), RouteMeters::new);
    }
    m.put(NONE, new RouteMeters(NONE));
    byRoute = Map.copyOf(m);
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
    final Map<Integer, Counter> byStatus = new ConcurrentHashMap<>();

    RouteMeters(String route) {
      this.route = route;
      latency = Timer.builder(PREFIX + ".latency").tag("route", route).register(registry);
      requestBytes = DistributionSummary.builder(PREFIX + ".request.bytes").baseUnit("bytes")
          .tag("route", route).register(registry);
      responseBytes = DistributionSummary.builder(PREFIX + ".response.bytes").baseUnit("bytes")
          .tag("route", route).register(registry);
    }

    /** Statuses are three digits, so this map stays small whatever callers send. */
    Counter requests(int status) {
      Counter c = byStatus.get(status); // the common case: no lambda, no lock
      return c != null ? c : byStatus.computeIfAbsent(status, s -> Counter.builder(PREFIX
          + ".requests").tag("route", route).tag("status", Integer.toString(s))
          .register(registry));
    }
  }
}
