package dev.ferry.ldap;

/**
 * What an {@link LdapPool} reports as it works: to {@link #NONE}, or to Micrometer through
 * {@code PoolMetrics}, which only a pool given a registry loads (Micrometer is an optional
 * dependency of this module).
 */
interface PoolMeter {
  PoolMeter NONE = new PoolMeter() { };

  /** A connection to {@code server} was opened and authenticated. */
  default void opened(String server) { }

  /** An attempt to open a connection to {@code server} failed. */
  default void connectFailed(String server) { }

  /** A connection was closed, for {@code reason} (stale, age, idle, broken, unhealthy, closed). */
  default void closed(String reason) { }

  /** A caller waited {@code nanos} for a connection. */
  default void waited(long nanos) { }

  /** No connection was free within the checkout timeout. */
  default void timedOut() { }

  /** Work was retried once on a new connection after its connection was found stale. */
  default void retried() { }
}
