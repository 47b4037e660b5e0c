package dev.ferry.cli;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Whether timings taken in a fresh JVM have settled, from a score per warm-up round (lower is
 * faster) and the time the JIT compiler has spent so far.
 *
 * <p>A JVM runs its first thousands of calls interpreted or lightly compiled, and its compiler
 * threads take CPU from the calls while they work: on two cores, the compiler alone can take one
 * for the first twenty seconds. The scores of those rounds fall, but unevenly, since a round
 * that shares the CPU with a compilation is slow whatever its code. So the timings count as
 * settled when both hold:
 * <ul>
 *   <li>the compiler worked less than {@value #QUIET_PERCENT}% of the wall time over the last
 *       {@link #QUIET} (where the JVM reports compile time; elsewhere this holds), and
 *   <li>the median score of the last {@value #WINDOW} rounds is not {@value #IMPROVEMENT_PERCENT}%
 *       better than the median of the {@value #WINDOW} before them: medians, because one round
 *       can be fast or slow by chance.
 * </ul>
 * The compile time is this JVM's: an echo service in another process (the demo's --url) is
 * seen only through the scores.
 */
final class Settling {
  static final int WINDOW = 3;
  static final int IMPROVEMENT_PERCENT = 5;
  static final Duration QUIET = Duration.ofSeconds(5);
  static final int QUIET_PERCENT = 10;
  private static final double NANOS_PER_MILLI = 1e6;

  private final List<long[]> rounds = new ArrayList<>(); // {end nanos, jit millis}
  private final List<Double> scores = new ArrayList<>();

  /**
   * The time this JVM's JIT compiler has spent compiling, in milliseconds, or a constant if the
   * JVM does not say.
   */
  static LongSupplier jitMillis() {
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    return jit != null && jit.isCompilationTimeMonitoringSupported()
        ? jit::getTotalCompilationTime : () -> 0;
  }

  /** Records a round that ended at {@code nanos}, with the compile time at its end. */
  void add(long nanos, double score, long jitMillis) {
    rounds.add(new long[] {nanos, jitMillis});
    scores.add(score);
  }

  boolean settled() {
    return jitQuiet() && scoresFlat();
  }

  private boolean jitQuiet() {
    long[] last = rounds.get(rounds.size() - 1);
    for (int i = rounds.size() - 2; i >= 0; i--) {
      long[] earlier = rounds.get(i);
      long wall = last[0] - earlier[0];
      if (wall >= QUIET.toNanos()) {
        double compiling = (last[1] - earlier[1]) * NANOS_PER_MILLI;
        return compiling < wall * QUIET_PERCENT / 100.0;
      }
    }
    return false;
  }

  private boolean scoresFlat() {
    int n = scores.size();
    if (n < 2 * WINDOW) {
      return false;
    }
    double recent = median(scores.subList(n - WINDOW, n));
    double before = median(scores.subList(n - 2 * WINDOW, n - WINDOW));
    return recent >= before * (1 - IMPROVEMENT_PERCENT / 100.0);
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
