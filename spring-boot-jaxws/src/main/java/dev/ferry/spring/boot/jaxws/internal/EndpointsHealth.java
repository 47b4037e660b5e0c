package dev.ferry.spring.boot.jaxws.internal;

import dev.ferry.server.Metrics;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The endpoints' health: up once they are served (with their paths and the requests in flight),
 * down while Ferry's own server is not listening, unknown before the endpoints start.
 */
public final class EndpointsHealth implements HealthIndicator {
  private final ServedEndpoints served;
  private final Metrics metrics;
  private final OwnServer ownServer;

  /** {@code ownServer} is null where the servlet container serves the endpoints. */
  public EndpointsHealth(ServedEndpoints served, Metrics metrics, OwnServer ownServer) {
    this.served = served;
    this.metrics = metrics;
    this.ownServer = ownServer;
  }

  @Override
  public Health health() {
    Map<String, String> endpoints = new LinkedHashMap<>();
    served.hosted().forEach(h -> endpoints.put(h.path(), h.implementation().getName()));
    Health.Builder b;
    if (ownServer != null) {
      b = ownServer.serving() ? Health.up() : Health.down().withDetail("server",
          "Ferry's server is not listening");
    } else {
      b = endpoints.isEmpty() && !served.started() ? Health.unknown() : Health.up();
    }
    return b.withDetail("endpoints", endpoints).withDetail("inFlight", metrics.inFlight())
        .build();
  }
}
