package dev.ferry.cli;

import java.util.Arrays;

/**
 * Summary of recorded latencies: count, p50, p90 and max, in nanoseconds. Percentiles use the
 * nearest-rank rule (the smallest recorded value with at least that share of the samples at or
 * below it), so every reported value is one that was actually measured.
 */
record LatencyStats(int count, long p50Nanos, long p90Nanos, long maxNanos) {
  private static final double NANOS_PER_MILLI = 1_000_000.0;
  private static final double NANOS_PER_MICRO = 1_000.0;

  /** Summarises the first {@code count} values of {@code nanos}; the array is not changed. */
  static LatencyStats of(long[] nanos, int count) {
    if (count <= 0) {
      throw new IllegalArgumentException("no latencies recorded");
    }
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    return new LatencyStats(count, percentile(sorted, 50), percentile(sorted, 90),
        sorted[count - 1]);
  }

  /** Summarises all of {@code nanos}. */
  static LatencyStats of(long... nanos) {
    return of(nanos, nanos.length);
  }

  private static long percentile(long[] sorted, int percent) {
    int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
    return sorted[Math.max(rank, 1) - 1];
  }

  double p50Millis() {
    return p50Nanos / NANOS_PER_MILLI;
  }

  double p90Millis() {
    return p90Nanos / NANOS_PER_MILLI;
  }

  double maxMillis() {
    return maxNanos / NANOS_PER_MILLI;
  }

  double p50Micros() {
    return p50Nanos / NANOS_PER_MICRO;
  }

  double p90Micros() {
    return p90Nanos / NANOS_PER_MICRO;
  }
}
