package dev.ferry.cli;

import java.util.Arrays;

/** Latencies in nanoseconds as they are measured: a growable array without boxing. */
final class LatencySamples {
  private long[] nanos = new long[64];
  private int count;

  void add(long elapsedNanos) {
    if (count == nanos.length) {
      nanos = Arrays.copyOf(nanos, count * 2);
    }
    nanos[count++] = elapsedNanos;
  }

  int count() {
    return count;
  }

  LatencyStats stats() {
    return LatencyStats.of(nanos, count);
  }
}
