package dev.ferry.broker;

import java.time.Duration;

/**
 * The broker counts an exchange (metrics, access log, {@link Broker#inFlight()}) after it wrote
 * the reply, so a caller may hold the reply before the count: a test reading the counts waits
 * until nothing is in flight (the broker lowers that count last).
 */
final class Settled {
  private static final Duration LIMIT = Duration.ofSeconds(10);

  private Settled() {}

  /** Waits until no exchange is in flight; fails the test if one still is after ten seconds. */
  static void await(Broker broker) throws InterruptedException {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (broker.inFlight() != 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(broker.inFlight() + " exchanges still in flight after " + LIMIT);
      }
      Thread.sleep(5);
    }
  }

  /**
   * Waits until the broker's metrics contain {@code text} (an exchange that was never admitted,
   * such as one answered with a fault, is counted after its answer is written but not in flight).
   */
  static void awaitMetric(Broker broker, String text) throws InterruptedException {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (!broker.scrape().contains(text)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no " + text + " in the metrics after " + LIMIT + ":\n"
            + broker.scrape());
      }
      Thread.sleep(5);
    }
  }
}
