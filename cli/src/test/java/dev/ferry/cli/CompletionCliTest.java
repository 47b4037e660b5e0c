package dev.ferry.cli;

import static dev.ferry.cli.FerryCliTest.ferry;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.cli.FerryCliTest.Result;
import org.junit.jupiter.api.Test;

class CompletionCliTest {
  @Test
  void printsABashScriptThatKnowsEveryCommandAndOption() {
    Result r = ferry("completion");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("#!/usr/bin/env bash")
        .contains("complete -F _complete_ferry")
        .contains("mime").contains("inspect").contains("unpack").contains("pack")
        .contains("bench").contains("threshold").contains("--quick").contains("--chart")
        .contains("completion");
  }

  @Test
  void helpSaysHowToInstallIt() {
    Result r = ferry("completion", "--help");
    assertThat(r.out()).contains("source <(ferry completion)").contains("bashcompinit");
    assertThat(ferry("--help").out()).contains("completion").contains("bench");
  }
}
