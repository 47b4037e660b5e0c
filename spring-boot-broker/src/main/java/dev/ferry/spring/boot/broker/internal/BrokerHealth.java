package dev.ferry.spring.boot.broker.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The broker's health: up while it listens, out of service while it drains at shutdown, down
 * otherwise; with its routes and the exchanges in flight.
 */
public final class BrokerHealth implements HealthIndicator {
  private final ManagedBroker managed;

  public BrokerHealth(ManagedBroker managed) {
    this.managed = managed;
  }

  @Override
  public Health health() {
    Map<String, String> routes = new LinkedHashMap<>();
    managed.routes().routes().forEach(r -> routes.put(r.name(), r.to().toString()));
    Health.Builder b = managed.draining() ? Health.outOfService().withDetail("broker",
        "draining: shutting down")
        : managed.isRunning() ? Health.up().withDetail("url", managed.uri("/").toString())
        : Health.down().withDetail("broker", "not listening");
    return b.withDetail("routes", routes).withDetail("inFlight", managed.broker().inFlight())
        .build();
  }
}
