package dev.ferry.spring.boot;

import java.time.Duration;

/**
 * The checks the starters' property setters share, so that a wrong value fails start-up with
 * the same message whichever starter reads it (Boot's report names the property).
 */
public final class PropertyChecks {
  private PropertyChecks() {}

  /** Returns {@code port} if it is a TCP port or 0 (any free one). */
  public static int port(int port) {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("expected a port from 0 to 65535, got " + port);
    }
    return port;
  }

  /** Returns {@code n} if it is 1 or more. */
  public static int positive(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("expected 1 or more, got " + n);
    }
    return n;
  }

  /** Returns {@code d} if it is set and longer than zero. */
  public static Duration positive(Duration d) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("expected a positive duration, got " + d);
    }
    return d;
  }
}
