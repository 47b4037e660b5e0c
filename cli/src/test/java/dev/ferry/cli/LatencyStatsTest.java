package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatencyStatsTest {
  @Test
  void percentilesAreNearestRankOfTheSortedSamples() {
    long[] nanos = new long[100];
    for (int i = 0; i < nanos.length; i++) {
      nanos[i] = (100 - i) * 1_000L; // descending: the summary must sort
    }
    LatencyStats s = LatencyStats.of(nanos);
    assertThat(s.count()).isEqualTo(100);
    assertThat(s.p50Nanos()).isEqualTo(50_000);
    assertThat(s.p90Nanos()).isEqualTo(90_000);
    assertThat(s.maxNanos()).isEqualTo(100_000);
    assertThat(nanos[0]).as("the caller's array is not sorted in place").isEqualTo(100_000);
  }

  @Test
  void smallSampleCountsRoundTheRankUp() {
    LatencyStats s = LatencyStats.of(30, 10, 20);
    assertThat(s.p50Nanos()).isEqualTo(20);
    assertThat(s.p90Nanos()).isEqualTo(30);
    assertThat(LatencyStats.of(7).p50Nanos()).isEqualTo(7);
    assertThat(LatencyStats.of(7).p90Nanos()).isEqualTo(7);
    assertThat(LatencyStats.of(1, 2, 3, 4).p50Nanos()).isEqualTo(2);
  }

  @Test
  void onlyTheCountedPrefixIsSummarised() {
    LatencyStats s = LatencyStats.of(new long[] {5, 1, 1_000_000}, 2);
    assertThat(s.count()).isEqualTo(2);
    assertThat(s.maxNanos()).isEqualTo(5);
  }

  @Test
  void unitsConvertFromNanos() {
    LatencyStats s = LatencyStats.of(2_500_000, 1_500_000);
    assertThat(s.p50Millis()).isEqualTo(1.5);
    assertThat(s.p90Millis()).isEqualTo(2.5);
    assertThat(s.maxMillis()).isEqualTo(2.5);
    assertThat(s.p50Micros()).isEqualTo(1500.0);
    assertThat(s.p90Micros()).isEqualTo(2500.0);
  }

  @Test
  void noSamplesIsAnError() {
    assertThatThrownBy(() -> LatencyStats.of()).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LatencySamples().stats())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void samplesGrowPastTheirFirstArray() {
    LatencySamples samples = new LatencySamples();
    for (int i = 1; i <= 1000; i++) {
      samples.add(i);
    }
    assertThat(samples.count()).isEqualTo(1000);
    LatencyStats s = samples.stats();
    assertThat(s.p50Nanos()).isEqualTo(500);
    assertThat(s.p90Nanos()).isEqualTo(900);
    assertThat(s.maxNanos()).isEqualTo(1000);
  }
}
