package dev.ferry.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Where a server command listens: address and port (a picocli mixin). */
final class ListenOptions {
  @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "ADDRESS",
      description = "Address to listen on (0.0.0.0: every interface). Default: ${DEFAULT-VALUE}.")
  String host;

  @Option(names = {"-p", "--port"}, defaultValue = "8080", paramLabel = "PORT",
      description = "Port (0: any free one). Default: ${DEFAULT-VALUE}.")
  int port;

  /** Rejects a port outside 0 to 65535 as a usage error of {@code spec}'s command. */
  void check(CommandSpec spec) {
    if (port < 0 || port > 65535) {
      throw new ParameterException(spec.commandLine(), "--port must be 0 to 65535: " + port);
    }
  }
}
