package dev.ferry.cli;

import dev.ferry.bytes.ByteString;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.xml.stream.XMLStreamException;

/**
 * Times the testMtom round trip for each blob size, inline base64 against MTOM, in this JVM.
 * The time budget is split into warm-up (the JIT compiles both paths; its results are thrown
 * away) and measurement. Both phases go round the sizes and policies in turn, the policy order
 * flipping every round, so that a burst of other work on the machine or a late compilation
 * lands on both policies alike rather than on one size or one policy.
 */
final class ThresholdMeasurement {
  /** One blob size's result: latencies per call and whole-message bytes on the wire. */
  record Row(int blobBytes, LatencyStats base64, LatencyStats mtom, int base64WireBytes,
      int mtomWireBytes) {}

  private static final double WARM_UP_SHARE = 0.4;
  private static final int MIN_MEASURED_ROUNDS = 3;
  private static final int PROGRESS_STEPS = 100;

  private final TestMtomRoundTrip roundTrip = new TestMtomRoundTrip();
  private final List<Integer> sizes;
  private final List<ByteString> blobs = new ArrayList<>();
  private final LatencySamples[] base64;
  private final LatencySamples[] mtom;
  private final int[] base64Wire;
  private final int[] mtomWire;

  ThresholdMeasurement(List<Integer> sizes) {
    this.sizes = List.copyOf(sizes);
    base64 = new LatencySamples[sizes.size()];
    mtom = new LatencySamples[sizes.size()];
    base64Wire = new int[sizes.size()];
    mtomWire = new int[sizes.size()];
    for (int i = 0; i < sizes.size(); i++) {
      byte[] blob = new byte[sizes.get(i)];
      new Random(sizes.get(i)).nextBytes(blob);
      blobs.add(ByteString.of(blob));
      base64[i] = new LatencySamples();
      mtom[i] = new LatencySamples();
    }
  }

  /** Steps {@code progress} {@value #PROGRESS_STEPS} times over the budget. */
  static int progressSteps() {
    return PROGRESS_STEPS;
  }

  List<Row> run(Duration budget, ProgressBar progress) throws IOException, XMLStreamException {
    checkBothPoliciesRoundTrip();
    long start = System.nanoTime();
    long warmUpEnd = start + (long) (budget.toNanos() * WARM_UP_SHARE);
    long end = start + budget.toNanos();
    int shownSteps = 0;
    int measuredRounds = 0;
    for (int round = 0; ; round++) {
      long now = System.nanoTime();
      boolean measuring = now >= warmUpEnd;
      if (now >= end && measuredRounds >= MIN_MEASURED_ROUNDS) {
        break;
      }
      runRound(round % 2 == 0, measuring);
      measuredRounds += measuring ? 1 : 0;
      int due = (int) Math.min(PROGRESS_STEPS - 1,
          (System.nanoTime() - start) * PROGRESS_STEPS / budget.toNanos());
      for (; shownSteps < due; shownSteps++) {
        progress.step(System.nanoTime() < warmUpEnd ? "warming up" : "measuring");
      }
    }
    for (; shownSteps < PROGRESS_STEPS; shownSteps++) {
      progress.step("done");
    }
    return rows();
  }

  private void checkBothPoliciesRoundTrip() throws IOException, XMLStreamException {
    for (ByteString blob : blobs) {
      byte[] bytes = new byte[blob.size()];
      blob.copyTo(0, bytes, 0, bytes.length);
      roundTrip.check(MtomPolicy.NEVER, bytes);
      roundTrip.check(MtomPolicy.ALWAYS, bytes);
    }
  }

  private void runRound(boolean base64First, boolean record)
      throws IOException, XMLStreamException {
    for (int i = 0; i < sizes.size(); i++) {
      if (base64First) {
        time(i, MtomPolicy.NEVER, record);
        time(i, MtomPolicy.ALWAYS, record);
      } else {
        time(i, MtomPolicy.ALWAYS, record);
        time(i, MtomPolicy.NEVER, record);
      }
    }
  }

  private void time(int i, MtomPolicy policy, boolean record)
      throws IOException, XMLStreamException {
    long t0 = System.nanoTime();
    int wire = roundTrip.run(policy, blobs.get(i));
    long elapsed = System.nanoTime() - t0;
    if (!record) {
      return;
    }
    if (policy.isMtom()) {
      mtom[i].add(elapsed);
      mtomWire[i] = wire;
    } else {
      base64[i].add(elapsed);
      base64Wire[i] = wire;
    }
  }

  private List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < sizes.size(); i++) {
      rows.add(new Row(sizes.get(i), base64[i].stats(), mtom[i].stats(), base64Wire[i],
          mtomWire[i]));
    }
    return rows;
  }
}
