package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  private final StringWriter err = new StringWriter();

  @Test
  void withoutATerminalItPrintsAPlainLineAtEachTenth() {
    try (ProgressBar bar = new ProgressBar(new PrintWriter(err), ProgressBar.Mode.LINES,
        "demo", 40)) {
      for (int i = 0; i < 40; i++) {
        bar.step("call " + (i + 2));
      }
      bar.step("one too many: counted as done, not printed again");
    }
    String[] lines = err.toString().split("\n");
    assertThat(lines).hasSize(10).doesNotContain("\r");
    assertThat(lines[0]).isEqualTo("demo: 4/40 (10%), next: call 5");
    assertThat(lines[9]).isEqualTo("demo: 40/40 (100%), done");
  }

  @Test
  void fewerStepsThanTenthsPrintEveryStep() {
    ProgressBar bar = new ProgressBar(new PrintWriter(err), ProgressBar.Mode.LINES, "x", 3);
    bar.step("b");
    bar.step("c");
    bar.step("");
    assertThat(err.toString().split("\n")).containsExactly("x: 1/3 (33%), next: b",
        "x: 2/3 (66%), next: c", "x: 3/3 (100%), done");
  }

  @Test
  void onATerminalItRedrawsOneLineAndEndsIt() {
    try (ProgressBar bar = new ProgressBar(new PrintWriter(err), ProgressBar.Mode.BAR,
        "demo", 4)) {
      for (int i = 0; i < 4; i++) {
        bar.step("a long description of call " + i);
      }
    }
    String s = err.toString();
    assertThat(s).startsWith("\rdemo [").endsWith("\n");
    assertThat(s.chars().filter(c -> c == '\n').count()).isEqualTo(1);
    String last = s.substring(s.lastIndexOf('\r') + 1).stripTrailing();
    assertThat(last).isEqualTo("demo [" + "#".repeat(30) + "] 4/4 100%  done");
  }

  @Test
  void offPrintsNothing() {
    try (ProgressBar bar = new ProgressBar(new PrintWriter(err), ProgressBar.modeFor(true),
        "demo", 2)) {
      bar.step("a");
      bar.step("b");
      assertThat(bar.done()).isEqualTo(2);
    }
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void testsRunWithoutAConsoleSoTheModeIsLines() {
    assertThat(ProgressBar.modeFor(false)).isEqualTo(ProgressBar.Mode.LINES);
  }
}
