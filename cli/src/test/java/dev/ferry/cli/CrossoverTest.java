package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CrossoverTest {
  private static final int[] SIZES = {1024, 2048, 4096, 8192};

  @Test
  void interpolatesBetweenTheLastBase64WinAndTheFirstMtomWin() {
    // The ratio MTOM/base64 is 2 at 2 KiB and 1/2 at 4 KiB: on log scales halfway, ~2896.
    Crossover c = Crossover.find(SIZES, new double[] {10, 10, 40, 80},
        new double[] {30, 20, 20, 20});
    assertThat(c.kind()).isEqualTo(Crossover.Kind.BETWEEN_SIZES);
    assertThat(c.lastBase64Bytes()).isEqualTo(2048);
    assertThat(c.firstMtomBytes()).isEqualTo(4096);
    assertThat(c.thresholdBytes()).isEqualTo(2816); // 2896 to the nearest 256
  }

  @Test
  void anEarlyNoisyMtomWinDoesNotCount() {
    Crossover c = Crossover.find(SIZES, new double[] {10, 10, 10, 80},
        new double[] {9, 20, 20, 20});
    assertThat(c.kind()).isEqualTo(Crossover.Kind.BETWEEN_SIZES);
    assertThat(c.lastBase64Bytes()).isEqualTo(4096);
    assertThat(c.firstMtomBytes()).isEqualTo(8192);
    assertThat(c.thresholdBytes()).isBetween(4096, 8192);
  }

  @Test
  void aTieCountsForBase64AndPutsTheThresholdThere() {
    Crossover c = Crossover.find(SIZES, new double[] {10, 20, 40, 80},
        new double[] {30, 20, 20, 20});
    assertThat(c.lastBase64Bytes()).isEqualTo(2048);
    assertThat(c.thresholdBytes()).isEqualTo(2048);
  }

  @Test
  void mtomCheaperEverywhereOrNowhere() {
    Crossover all = Crossover.find(SIZES, new double[] {9, 9, 9, 9}, new double[] {1, 1, 1, 1});
    assertThat(all.kind()).isEqualTo(Crossover.Kind.MTOM_AT_ALL_SIZES);
    assertThat(all.thresholdBytes()).isEqualTo(1024);
    Crossover none = Crossover.find(SIZES, new double[] {1, 1, 1, 1}, new double[] {9, 0, 0, 9});
    assertThat(none.kind()).isEqualTo(Crossover.Kind.BASE64_AT_LARGEST_SIZE);
    assertThat(none.lastBase64Bytes()).isEqualTo(8192);
    assertThat(none.thresholdBytes()).isZero();
  }

  @Test
  void costsMustMatchSizes() {
    assertThatThrownBy(() -> Crossover.find(SIZES, new double[3], new double[4]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Crossover.find(new int[0], new double[0], new double[0]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
