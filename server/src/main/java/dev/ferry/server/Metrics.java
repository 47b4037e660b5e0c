package dev.ferry.server;

import dev.ferry.bytes.Spool;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request metrics of a server or broker, kept in a Micrometer registry and served in the
 * Prometheus text format at {@code /metrics}: requests by endpoint and status, latency, bytes in
 * and out, requests in flight, and attachment bytes in flight (what may sit in spools). Meters
 * are looked up per request by name and tags, which Micrometer caches. Thread-safe.
 */
public final class Metrics {
  private final PrometheusMeterRegistry registry;
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong inFlightBytes = new AtomicLong();
  private final String prefix;
  private final Map<String, EndpointMeters> byEndpoint = new ConcurrentHashMap<>();

  private Metrics(String prefix) {
    this.prefix = prefix;
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.gauge(prefix + ".in.flight", inFlight);
    registry.gauge(prefix + ".in.flight.request.bytes", inFlightBytes);
    // process-wide: attachments that went past their memory threshold into temp files
    registry.gauge("ferry.spool.files", Spool.class, c -> Spool.filesInUse());
    registry.gauge("ferry.spool.file.bytes", Spool.class, c -> Spool.fileBytesInUse());
  }

  /** Returns metrics whose names start with {@code prefix} (for example {@code ferry.server}). */
  public static Metrics create(String prefix) {
    return new Metrics(prefix);
  }

  /**
   * Adds the gauge {@code ferry.tls.certificate.expiry.seconds}: seconds until the certificate
   * {@code tls} shows expires (negative once it has), if it shows one.
   */
  public void certificate(dev.ferry.security.TlsSettings tls) {
    if (tls != null && tls.identity() != null) {
      registry.gauge("ferry.tls.certificate.expiry.seconds", tls,
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
      latency = Timer.builder(prefix + ".latency").tag("endpoint", endpoint).register(registry);
      requestBytes = DistributionSummary.builder(prefix + ".request.bytes").baseUnit("bytes")
          .tag("endpoint", endpoint).register(registry);
      responseBytes = DistributionSummary.builder(prefix + ".response.bytes").baseUnit("bytes")
          .tag("endpoint", endpoint).register(registry);
    }

    Counter requests(int status) {
      return requestsByStatus.computeIfAbsent(status, s -> Counter.builder(prefix + ".requests")
          .tag("endpoint", endpoint).tag("status", Integer.toString(s)).register(registry));
    }
  }
}
