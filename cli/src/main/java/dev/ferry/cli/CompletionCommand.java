package dev.ferry.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code ferry completion}: the shell completion script, generated from the command tree when
 * asked, so it always knows every command and option of the ferry that prints it.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
    description = "Print a bash/zsh completion script for ferry (complete commands, options"
        + " and file names with Tab).",
    footer = {"", "Examples:",
        "  source <(ferry completion)                      # this shell (bash or zsh)",
        "  ferry completion > ~/.local/share/bash-completion/completions/ferry",
        "", "zsh needs bash completions turned on first:"
            + " autoload -U +X bashcompinit && bashcompinit"})
final class CompletionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    String script = AutoComplete.bash("ferry", spec.root().commandLine());
    spec.commandLine().getOut().print(script);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
