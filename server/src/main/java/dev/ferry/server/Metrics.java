package dev.ferry.server;

import dev.ferry.bytes.Spool;
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
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request metrics of a server or broker, kept in a Micrometer registry and served in the
 * Prometheus text format at {@code /metrics}: requests by endpoint and status, latency, bytes in
 * and out, requests in flight, and attachment bytes in flight (what may sit in spools). Meters
 * are looked up per request by name and tags, which Micrometer caches. Given an application's
 * own registry ({@link #create(String, MeterRegistry)}, such as Spring Boot's), every meter is
 * registered there too. Thread-safe.
 */
public final class Metrics {
  private final PrometheusMeterRegistry registry;
  /** Where meters are registered: the Prometheus registry, or it and the application's. */
  private final MeterRegistry meters;
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong inFlightBytes = new AtomicLong();
  private final String prefix;
  private final Map<String, EndpointMeters> byEndpoint = new ConcurrentHashMap<>();

  private Metrics(String prefix, MeterRegistry also) {
    this.prefix = prefix;
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.meters = also == null ? registry
        : new CompositeMeterRegistry(Clock.SYSTEM, List.of(registry, also));
    meters.gauge(prefix + ".in.flight", inFlight);
    meters.gauge(prefix + ".in.flight.request.bytes", inFlightBytes);
    // process-wide: attachments that went past their memory threshold into temp files
    meters.gauge("ferry.spool.files", Spool.class, c -> Spool.filesInUse());
    meters.gauge("ferry.spool.file.bytes", Spool.class, c -> Spool.fileBytesInUse());
  }

  /** Returns metrics whose names start with {@code prefix} (for example {@code ferry.server}). */
  public static Metrics create(String prefix) {
    return new Metrics(prefix, null);
  }

  /**
   * Returns metrics whose names start with {@code prefix}, registered in {@code registry} as
   * well as in the Prometheus registry {@link #scrape()} reads.
   */
  public static Metrics create(String prefix, MeterRegistry registry) {
    return new Metrics(prefix, Objects.requireNonNull(registry));
  }

  /**
   * Adds the gauge {@code ferry.tls.certificate.expiry.seconds}: seconds until the certificate
   * {@code tls} shows expires (negative once it has), if it shows one.
   */
  public void certificate(dev.ferry.security.TlsSettings tls) {
    if (tls != null && tls.identity() != null) {
      meters.gauge("ferry.tls.certificate.expiry.seconds", tls,
          dev.ferry.security.TlsSettings::certificateSecondsLeft);
    }
  }

  /** Returns the registry, to add meters or bind JVM metrics. */
  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** Returns every meter in the Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }

  /** Returns the number of requests in flight. */
  public long inFlight() {
    return inFlight.get();
  }

  public void started() {
    inFlight.incrementAndGet();
  }

  public void requestBytes(long delta) {
    inFlightBytes.addAndGet(delta);
  }

  public void finished(String endpoint, int status, long nanos, long bytesIn, long bytesOut) {
    inFlight.decrementAndGet();
    inFlightBytes.addAndGet(-bytesIn);
    EndpointMeters m = byEndpoint.computeIfAbsent(endpoint, EndpointMeters::new);
    m.requests(status).increment();
    m.latency.record(nanos, TimeUnit.NANOSECONDS);
    m.requestBytes.record(bytesIn);
    m.responseBytes.record(bytesOut);
  }

  /**
   * One endpoint's meters, registered once: looking them up through Micrometer's builders on
   * every request would build ids and tags per call.
   */
  private final class EndpointMeters {
    final String endpoint;
    final Timer latency;
    final DistributionSummary requestBytes;
    final DistributionSummary responseBytes;
    final Map<Integer, Counter> requestsByStatus = new ConcurrentHashMap<>();

    EndpointMeters(String endpoint) {
      this.endpoint = endpoint;
      latency = Timer.builder(prefix + ".latency").tag("endpoint", endpoint).register(meters);
      requestBytes = DistributionSummary.builder(prefix + ".request.bytes").baseUnit("bytes")
          .tag("endpoint", endpoint).register(meters);
      responseBytes = DistributionSummary.builder(prefix + ".response.bytes").baseUnit("bytes")
          .tag("endpoint", endpoint).register(meters);
    }

    Counter requests(int status) {
      return requestsByStatus.computeIfAbsent(status, s -> Counter.builder(prefix + ".requests")
          .tag("endpoint", endpoint).tag("status", Integer.toString(s)).register(meters));
    }
  }
}
