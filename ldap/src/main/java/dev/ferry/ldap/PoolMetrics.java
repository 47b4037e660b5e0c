package dev.ferry.ldap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * An {@link LdapPool}'s meters in a Micrometer registry, tagged {@code pool=<name>}:
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code ferry.ldap.pool.connections}</td><td>gauge, tag {@code state}</td>
 *       <td>connections {@code idle} and {@code leased}</td></tr>
 *   <tr><td>{@code ferry.ldap.pool.opened}</td><td>counter, tag {@code server}</td>
 *       <td>connections opened</td></tr>
 *   <tr><td>{@code ferry.ldap.pool.connect.failures}</td><td>counter, tag {@code server}</td>
 *       <td>connections that could not be opened</td></tr>
 *   <tr><td>{@code ferry.ldap.pool.closed}</td><td>counter, tag {@code reason}</td>
 *       <td>connections closed: stale, age, idle, broken, unhealthy, closed</td></tr>
 *   <tr><td>{@code ferry.ldap.pool.checkout}</td><td>timer</td>
 *       <td>time callers waited for a connection</td></tr>
 *   <tr><td>{@code ferry.ldap.pool.checkout.timeouts}</td><td>counter</td>
 *       <td>callers who got none within the checkout timeout</td></tr>
 *   <tr><td>{@code ferry.ldap.pool.retries}</td><td>counter</td>
 *       <td>work retried on a new connection after a stale one</td></tr>
 * </table>
 */
final class PoolMetrics implements PoolMeter {
  private final MeterRegistry registry;
  private final String pool;
  private final Timer checkout;
  private final Counter timeouts;
  private final Counter retries;

  PoolMetrics(MeterRegistry registry, String pool, LdapPool owner) {
    this.registry = registry;
    this.pool = pool;
    Gauge.builder("ferry.ldap.pool.connections", owner, p -> p.stats().idle())
        .tag("pool", pool).tag("state", "idle").register(registry);
    Gauge.builder("ferry.ldap.pool.connections", owner, p -> p.stats().leased())
        .tag("pool", pool).tag("state", "leased").register(registry);
    this.checkout = Timer.builder("ferry.ldap.pool.checkout").tag("pool", pool)
        .register(registry);
    this.timeouts = Counter.builder("ferry.ldap.pool.checkout.timeouts").tag("pool", pool)
        .register(registry);
    this.retries = Counter.builder("ferry.ldap.pool.retries").tag("pool", pool)
        .register(registry);
  }

  @Override
  public void opened(String server) {
    registry.counter("ferry.ldap.pool.opened", "pool", pool, "server", server).increment();
  }

  @Override
  public void connectFailed(String server) {
    registry.counter("ferry.ldap.pool.connect.failures", "pool", pool, "server", server)
        .increment();
  }

  @Override
  public void closed(String reason) {
    registry.counter("ferry.ldap.pool.closed", "pool", pool, "reason", reason).increment();
  }

  @Override
  public void waited(long nanos) {
    checkout.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void timedOut() {
    timeouts.increment();
  }

  @Override
  public void retried() {
    retries.increment();
  }
}
