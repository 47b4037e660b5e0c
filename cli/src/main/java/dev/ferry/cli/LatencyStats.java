package dev.ferry.cli;

import java.util.Arrays;

/**
 * Summary of recorded latencies, in nanoseconds: count, p10, p50, p90 and max, and how well the
 * p50 is known. Percentiles use the nearest-rank rule (the smallest recorded value with at least
 * that share of the samples at or below it), so every reported value is one that was actually
 * measured.
 *
 * <p>{@code p50LowNanos} and {@code p50HighNanos} bound the median with 95% confidence without
 * assuming any shape of the distribution: they are the order statistics whose ranks lie 1.96
 * standard deviations of a binomial(n, 1/2) either side of n/2. With few samples they are the
 * smallest and largest; they narrow as calls are added, faster where the spread is narrow.
 */
record LatencyStats(int count, long p10Nanos, long p50Nanos, long p90Nanos, long maxNanos,
    long p50LowNanos, long p50HighNanos) {
  private static final double NANOS_PER_MILLI = 1_000_000.0;
  private static final double NANOS_PER_MICRO = 1_000.0;
  private static final double Z_95 = 1.96;

  /** Summarises the first {@code count} values of {@code nanos}; the array is not changed. */
  static LatencyStats of(long[] nanos, int count) {
    if (count <= 0) {
      throw new IllegalArgumentException("no latencies recorded");
    }
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    double halfWidth = Z_95 * Math.sqrt(count) / 2;
    int lowRank = (int) Math.floor(count / 2.0 - halfWidth);
    int highRank = (int) Math.ceil(count / 2.0 + halfWidth) + 1;
    return new LatencyStats(count, percentile(sorted, 10), percentile(sorted, 50),
        percentile(sorted, 90), sorted[count - 1], rank(sorted, lowRank), rank(sorted, highRank));
  }

  /** Summarises all of {@code nanos}. */
  static LatencyStats of(long... nanos) {
    return of(nanos, nanos.length);
  }

  private static long percentile(long[] sorted, int percent) {
    return rank(sorted, (int) Math.ceil(percent / 100.0 * sorted.length));
  }

  /** The value of 1-based {@code rank}, clamped to the samples there are. */
  private static long rank(long[] sorted, int rank) {
    return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1];
  }

  /**
   * Half the width of the p50's 95% confidence interval, as a share of the p50: 0.05 means the
   * median is known to within about 5%.
   */
  double p50RelativeError() {
    return p50Nanos == 0 ? 0 : (p50HighNanos - p50LowNanos) / 2.0 / p50Nanos;
  }

  /** Half the width of the p50's 95% confidence interval, in milliseconds. */
  double p50ErrorMillis() {
    return (p50HighNanos - p50LowNanos) / 2.0 / NANOS_PER_MILLI;
  }

  double p10Millis() {
    return p10Nanos / NANOS_PER_MILLI;
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
