package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The demo's plan against calls whose latencies the test decides, on a clock the calls advance:
 * when it stops warming up, how it shares calls out, when it stops timing.
 */
class DemoMeasurementTest {
  private static final List<Integer> SIZES = List.of(1024, 4096);
  private static final Duration SLICE = Duration.ofMillis(40);
  private static final long MICROS = 1_000;

  /** A call's latency, from the cell, the simulated time and the calls made before it. */
  @FunctionalInterface
  private interface Latency {
    long nanos(DemoMeasurement.Cell cell, long now, long callsBefore);
  }

  /** Calls that take the time a model says, on a clock that moves only when a call does. */
  private static final class Simulated implements DemoMeasurement.Caller {
    private final Latency latency;
    long now;
    long calls;
    long jitMillis;

    Simulated(Latency latency) {
      this.latency = latency;
    }

    @Override
    public long call(DemoMeasurement.Cell cell) {
      long nanos = latency.nanos(cell, now, calls);
      now += nanos;
      calls++;
      return nanos;
    }

    DemoMeasurement.Result run(Duration budget, int minCalls) throws Exception {
      DemoMeasurement.Plan plan = new DemoMeasurement.Plan(budget, minCalls, SLICE);
      try (ProgressBar progress = new ProgressBar(null, ProgressBar.Mode.OFF, "test",
          DemoMeasurement.progressSteps())) {
        return new DemoMeasurement(SIZES, this, () -> now, () -> jitMillis, plan).run(progress);
      }
    }
  }

  @Test
  void aCellWithAWideSpreadGetsMoreCallsUntilEveryP50IsKnown() throws Exception {
    Random random = new Random(7);
    DemoMeasurement.Cell wide = new DemoMeasurement.Cell(4096, false, true);
    Simulated calls = new Simulated((cell, now, before) -> {
      double spread = cell.equals(wide) ? 0.8 : 0.02;
      return (long) (200 * MICROS * (1 + spread * (2 * random.nextDouble() - 1)));
    });
    DemoMeasurement.Result r = calls.run(Duration.ofSeconds(60), 10);

    assertThat(r.settled()).as("steady timings settle as soon as the rule allows").isTrue();
    long quiet = Settling.QUIET.toNanos();
    assertThat(r.warmUpNanos()).isBetween(quiet, quiet + 2 * oneRoundAtMost(r));
    assertThat(r.warmUpNanos() + r.timedNanos()).as("stopped before the budget: all known")
        .isLessThan(Duration.ofSeconds(60).toNanos());
    int wideCalls = row(r, wide).latency().count();
    for (DemoMeasurement.Row row : r.rows()) {
      assertThat(row.latency().p50RelativeError()).as(row.cell().label())
          .isLessThanOrEqualTo(DemoMeasurement.TARGET_ERROR);
      if (!row.cell().equals(wide)) {
        assertThat(row.latency().count()).as(row.cell().label()).isLessThan(wideCalls);
      }
    }
  }

  @Test
  void warmUpLastsWhileTheTimingsFall() throws Exception {
    // Ten times the floor at first, the excess halving every two seconds.
    Simulated calls = new Simulated((cell, now, before) ->
        (long) (200 * MICROS * (1 + 9 * Math.pow(0.5, now / 2e9))));
    DemoMeasurement.Result r = calls.run(Duration.ofSeconds(60), 10);

    // At 10 s the excess is 28% and falls by more than 5% of the latency every three rounds.
    assertThat(r.settled()).isTrue();
    assertThat(r.warmUpNanos()).isGreaterThan(Duration.ofSeconds(10).toNanos());
    for (DemoMeasurement.Row row : r.rows()) {
      assertThat(row.latency().p50Nanos()).as(row.cell().label())
          .isBetween(200 * MICROS, 250 * MICROS);
    }
  }

  @Test
  void warmUpLastsWhileTheJitCompilesThoughTheTimingsAreFlat() throws Exception {
    Simulated[] self = new Simulated[1];
    Simulated calls = new Simulated((cell, now, before) -> {
      // compiling on one core of two for the first 15 s
      self[0].jitMillis = Math.min(now, Duration.ofSeconds(15).toNanos()) / 2 / 1_000_000;
      return 200 * MICROS;
    });
    self[0] = calls;
    DemoMeasurement.Result r = calls.run(Duration.ofSeconds(60), 10);

    assertThat(r.settled()).isTrue();
    long busy = Duration.ofSeconds(15).toNanos();
    long quiet = Settling.QUIET.toNanos();
    assertThat(r.warmUpNanos()).isBetween(busy + quiet / 2, busy + quiet + 2 * oneRoundAtMost(r));
  }

  @Test
  void timingsThatKeepFallingEndTheWarmUpAtItsShareOfTheBudgetAndSaySo() throws Exception {
    // Twice as fast every simulated second, without end.
    Simulated calls = new Simulated((cell, now, before) ->
        (long) (2_000 * MICROS * Math.pow(0.5, now / 1e9)));
    Duration budget = Duration.ofSeconds(10);
    DemoMeasurement.Result r = calls.run(budget, 10);

    assertThat(r.settled()).isFalse();
    long share = (long) (budget.toNanos() * DemoMeasurement.WARM_UP_SHARE);
    assertThat(r.warmUpNanos()).isBetween(share, share + oneRoundAtMost(r));
  }

  @Test
  void aSpreadThatNeverNarrowsStopsAtTheBudgetWithTheMinimumOfCalls() throws Exception {
    // Two equally likely latencies: the median's interval always spans both.
    Random random = new Random(11);
    DemoMeasurement.Cell slow = new DemoMeasurement.Cell(1024, true, false);
    Simulated calls = new Simulated((cell, now, before) -> cell.equals(slow)
        ? (random.nextBoolean() ? 100 : 300) * MICROS * 1_000 // 100 or 300 ms: few calls
        : 200 * MICROS);
    Duration budget = Duration.ofSeconds(20);
    DemoMeasurement.Result r = calls.run(budget, 30);

    assertThat(r.warmUpNanos() + r.timedNanos()).isGreaterThanOrEqualTo(budget.toNanos());
    assertThat(row(r, slow).latency().count()).isGreaterThanOrEqualTo(30);
    assertThat(row(r, slow).latency().p50RelativeError())
        .isGreaterThan(DemoMeasurement.TARGET_ERROR);
    for (DemoMeasurement.Row row : r.rows()) {
      assertThat(row.latency().count()).isGreaterThanOrEqualTo(30);
    }
  }

  @Test
  void everyRoundVisitsEveryCellOnceUpAndDownTheSizesStartingWithAnotherCombination() {
    DemoMeasurement m = new DemoMeasurement(List.of(1024, 4096, 16384), cell -> 1, () -> 0, () -> 0,
        new DemoMeasurement.Plan(Duration.ofSeconds(1), 1, SLICE));
    List<DemoMeasurement.Cell> all = DemoMeasurement.cells(List.of(1024, 4096, 16384));
    for (int round = 0; round < 8; round++) {
      List<DemoMeasurement.Cell> order = m.order(round);
      assertThat(new HashSet<>(order)).hasSameSizeAs(order)
          .containsExactlyInAnyOrderElementsOf(all);
      assertThat(order.get(0).blobBytes()).isEqualTo(round % 2 == 0 ? 1024 : 16384);
    }
    assertThat(m.order(0).get(0)).isNotEqualTo(m.order(2).get(0));
    assertThat(m.order(0).subList(0, 4)).containsExactly(all.get(0), all.get(1), all.get(2),
        all.get(3));
    assertThat(m.order(1).subList(0, 4)).containsExactly(all.get(9), all.get(10), all.get(11),
        all.get(8));
  }

  private static long oneRoundAtMost(DemoMeasurement.Result r) {
    // every cell's slice, plus one call past it
    return r.rows().size() * (SLICE.toNanos() + 2_000 * MICROS);
  }

  private static DemoMeasurement.Row row(DemoMeasurement.Result r, DemoMeasurement.Cell cell) {
    return r.rows().stream().filter(row -> row.cell().equals(cell)).findFirst().orElseThrow();
  }
}
