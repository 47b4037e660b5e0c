package dev.ferry.cli;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The demo's timing plan: rounds over every combination of blob size, encoding and route (a
 * cell), first untimed until the timings settle, then timed until every cell's p50 is known
 * well enough or the time budget is spent.
 *
 * <p>In a round each cell gets a slice of time, filled with back-to-back calls (at least one),
 * so a 1 KiB cell makes a hundred calls where a 12 MiB cell makes one. Calls of one cell run
 * together because a call right after another kind pays for what that one left behind (caches
 * emptied, garbage of a large blob collected); they amortise it over the slice. Rounds go up the
 * sizes and back down, and within a size start with another encoding and route each time, so
 * that a slow moment of the machine, or a late compilation, lands on every cell alike.
 *
 * <p>Warm-up: a JVM runs its first thousands of calls interpreted or lightly compiled, several
 * times slower than it will run, and how long that lasts depends on the machine. Each warm-up
 * round scores the geometric mean of its cells' medians, and warm-up lasts until the scores and
 * the JIT compiler have settled ({@link Settling}), for at most half the budget; if the timings
 * have not settled by then, {@link Result#settled} says so.
 *
 * <p>Timed rounds: a cell whose p50 is not yet known to within {@value #TARGET_ERROR_PERCENT}%
 * (half its 95% confidence interval, see {@link LatencyStats}) gets two to four slices and at
 * least two calls, so cells with a wide spread get more calls. The rounds end when every cell
 * is known that well and has the minimum number of calls, or when the budget is spent and every
 * cell has the minimum.
 */
final class DemoMeasurement {
  /** One combination of blob size, encoding and route. */
  record Cell(int blobBytes, boolean mtom, boolean brokered) {
    String encoding() {
      return mtom ? "MTOM" : "base64";
    }

    String route() {
      return brokered ? "brokered" : "direct";
    }

    String label() {
      return ByteSize.format(blobBytes) + " " + encoding() + " " + route();
    }
  }

  /** Makes one call of a cell and returns how long it took, in nanoseconds. */
  @FunctionalInterface
  interface Caller {
    long call(Cell cell) throws IOException;
  }

  /**
   * How long to measure and how much at least.
   *
   * @param budget warm-up and timed rounds together
   * @param minCalls timed calls every cell gets at least, budget or not
   * @param slice each cell's time in a round
   */
  record Plan(Duration budget, int minCalls, Duration slice) {}

  /** A cell's timed calls. */
  record Row(Cell cell, LatencyStats latency) {}

  /**
   * What was measured, and how.
   *
   * @param rows one per cell, sizes ascending, then MTOM before base64, direct before brokered
   * @param warmUpRounds untimed rounds
   * @param settled whether the timings settled within the warm-up's share of the budget
   * @param warmUpNanos time spent warming up
   * @param timedRounds timed rounds
   * @param timedNanos time spent in timed rounds
   */
  record Result(List<Row> rows, int warmUpRounds, boolean settled, long warmUpNanos,
      int timedRounds, long timedNanos) {}

  /** The half-width of its p50's 95% confidence interval a cell is timed to, in percent. */
  static final int TARGET_ERROR_PERCENT = 5;
  static final double TARGET_ERROR = TARGET_ERROR_PERCENT / 100.0;
  /** Warm-up gets at most this share of the budget. */
  static final double WARM_UP_SHARE = 0.5;
  /** The longest slice of a cell whose p50 is far from known, in slices. */
  static final int MAX_SLICES = 4;
  /** A cell's median counts in a warm-up round's score from this many calls. */
  static final int SCORED_CALLS = 5;
  private static final int PROGRESS_STEPS = 100;

  private final List<Cell> cells;
  private final List<Integer> sizes;
  private final Caller caller;
  private final LongSupplier clock;
  private final LongSupplier jitMillis;
  private final Plan plan;
  private final Map<Cell, LatencySamples> timed = new LinkedHashMap<>();
  private ProgressBar progress;
  private long start;
  private int rounds;
  private int shownSteps;

  /**
   * {@code clock} in nanoseconds, as {@link System#nanoTime}; {@code jitMillis} the time the JIT
   * has spent compiling, as {@link Settling#jitMillis()}. Tests pass ones they control.
   */
  DemoMeasurement(List<Integer> ascendingSizes, Caller caller, LongSupplier clock,
      LongSupplier jitMillis, Plan plan) {
    this.sizes = List.copyOf(ascendingSizes);
    this.cells = cells(sizes);
    this.caller = caller;
    this.clock = clock;
    this.jitMillis = jitMillis;
    this.plan = plan;
    for (Cell cell : cells) {
      timed.put(cell, new LatencySamples());
    }
  }

  /** Every cell of {@code ascendingSizes}, in the order of {@link Result#rows}. */
  static List<Cell> cells(List<Integer> ascendingSizes) {
    List<Cell> cells = new ArrayList<>();
    for (int size : ascendingSizes) {
      for (boolean mtom : new boolean[] {true, false}) {
        for (boolean brokered : new boolean[] {false, true}) {
          cells.add(new Cell(size, mtom, brokered));
        }
      }
    }
    return List.copyOf(cells);
  }

  /** The number of steps {@link #run} gives a progress bar. */
  static int progressSteps() {
    return PROGRESS_STEPS;
  }

  /** Warms up, then times; steps {@code progress} with the time spent out of the budget. */
  Result run(ProgressBar progress) throws IOException {
    this.progress = progress;
    start = clock.getAsLong();
    boolean settled = warmUp();
    int warmUpRounds = rounds;
    long timedStart = clock.getAsLong();
    long end = start + plan.budget().toNanos();
    while (!enough(clock.getAsLong() >= end)) {
      timedRound(rounds++);
    }
    long finished = clock.getAsLong();
    showProgress(PROGRESS_STEPS, "done");
    List<Row> rows = new ArrayList<>();
    for (Cell cell : cells) {
      rows.add(new Row(cell, timed.get(cell).stats()));
    }
    return new Result(rows, warmUpRounds, settled, timedStart - start, rounds - warmUpRounds,
        finished - timedStart);
  }

  /**
   * Runs untimed rounds until the timings have settled or the warm-up's share of the budget is
   * spent; returns whether they settled.
   */
  private boolean warmUp() throws IOException {
    long end = start + (long) (plan.budget().toNanos() * WARM_UP_SHARE);
    Settling settling = new Settling();
    while (clock.getAsLong() < end) {
      double score = warmUpRound(rounds++);
      settling.add(clock.getAsLong(), score, jitMillis.getAsLong());
      if (settling.settled()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Runs an untimed round; returns the geometric mean of the medians of the cells that made at
   * least {@value #SCORED_CALLS} calls in it (of every cell if none did): a median of one or two
   * calls is too noisy to tell whether the timings still fall.
   */
  private double warmUpRound(int round) throws IOException {
    double logSum = 0;
    int scored = 0;
    double allLogSum = 0;
    for (Cell cell : order(round)) {
      LatencySamples slice = new LatencySamples();
      fill(cell, plan.slice().toNanos(), 1, slice, "warming up, round " + (round + 1));
      double log = Math.log(Math.max(1, slice.stats().p50Nanos()));
      allLogSum += log;
      if (slice.count() >= SCORED_CALLS) {
        logSum += log;
        scored++;
      }
    }
    return scored > 0 ? Math.exp(logSum / scored) : Math.exp(allLogSum / cells.size());
  }

  /**
   * Runs a timed round. A cell whose p50 is not known to the target after the first round gets
   * at least two calls and a longer slice, the longer the further it is from the target: the
   * calls a median needs grow with the square of the precision asked, up to
   * {@value #MAX_SLICES} slices.
   */
  private void timedRound(int round) throws IOException {
    for (Cell cell : order(round)) {
      LatencySamples samples = timed.get(cell);
      double error = samples.count() == 0 ? 0 : samples.stats().p50RelativeError();
      boolean known = error <= TARGET_ERROR;
      double slices = known ? 1 : Math.min(MAX_SLICES, Math.max(2, square(error / TARGET_ERROR)));
      fill(cell, (long) (plan.slice().toNanos() * slices), known ? 1 : 2, samples, "measuring");
    }
  }

  private static double square(double x) {
    return x * x;
  }

  /** Calls {@code cell} until {@code sliceNanos} have passed and it made {@code minCalls}. */
  private void fill(Cell cell, long sliceNanos, int minCalls, LatencySamples into, String phase)
      throws IOException {
    long sliceEnd = clock.getAsLong() + sliceNanos;
    int calls = 0;
    do {
      into.add(caller.call(cell));
      calls++;
    } while (calls < minCalls || clock.getAsLong() < sliceEnd);
    long due = (clock.getAsLong() - start) * PROGRESS_STEPS / plan.budget().toNanos();
    showProgress((int) Math.min(PROGRESS_STEPS - 1, due), phase + ": " + cell.label());
  }

  /**
   * Whether the timed rounds can stop: every cell has its minimum of calls, and either its p50
   * is known to the target or the budget is spent.
   */
  private boolean enough(boolean budgetSpent) {
    for (LatencySamples samples : timed.values()) {
      if (samples.count() < plan.minCalls()
          || !budgetSpent && samples.stats().p50RelativeError() > TARGET_ERROR) {
        return false;
      }
    }
    return true;
  }

  /**
   * The cells in round {@code round}'s order: sizes up in even rounds and down in odd ones;
   * within a size, the four encodings and routes rotated by one each round.
   */
  List<Cell> order(int round) {
    List<Cell> ordered = new ArrayList<>(cells.size());
    int perSize = cells.size() / sizes.size();
    for (int s = 0; s < sizes.size(); s++) {
      int size = round % 2 == 0 ? s : sizes.size() - 1 - s;
      for (int k = 0; k < perSize; k++) {
        ordered.add(cells.get(size * perSize + (k + round) % perSize));
      }
    }
    return ordered;
  }

  private void showProgress(int step, String next) {
    for (; shownSteps < step; shownSteps++) {
      progress.step(next);
    }
  }
}
