package dev.ferry.server.internal;

import java.util.function.BooleanSupplier;

/**
 * What a server's probes answer, as Kubernetes reads them: live while the process serves at all
 * ({@code /health/live}), started once it has started ({@code /health/started}), ready while
 * it is started, not draining and its own condition holds ({@code /health/ready}: endpoints to
 * serve, routes whose backends are up). Thread-safe.
 */
public final class Probes {
  /** The body of a probe that holds. */
  public static final String UP = "{\"status\":\"UP\"}\n";

  private final BooleanSupplier ready;
  private volatile boolean started;
  private volatile boolean draining;

  /** Probes whose readiness also asks {@code ready} (such as: is there an endpoint?). */
  public Probes(BooleanSupplier ready) {
    this.ready = ready;
  }

  public void started() {
    started = true;
  }

  /** From now on readiness fails: the server is draining. */
  public void draining() {
    draining = true;
  }

  public boolean isDraining() {
    return draining;
  }

  /** Null once started, else why not. */
  public String notStarted() {
    return started ? null : "starting";
  }

  /** Null if ready, else why not (for the probe's body). */
  public String notReady() {
    if (!started) {
      return "starting";
    }
    if (draining) {
      return "draining";
    }
    return ready.getAsBoolean() ? null : "not ready";
  }

  /** The body of a probe that fails, saying why. */
  public static String down(String why) {
    return "{\"status\":\"DOWN\",\"reason\":\"" + why + "\"}\n";
  }
}
