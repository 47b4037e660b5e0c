package dev.ferry.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** How a server command stops on SIGTERM or Ctrl-C: its drain (a picocli mixin). */
final class DrainOptions {
  @Option(names = "--drain-delay", defaultValue = "0s", paramLabel = "DURATION",
      converter = DurationText.ZeroOrMore.class,
      description = "On SIGTERM: how long to go on taking new connections once the drain"
          + " began (an HTTP server's /health/ready fails from then on), so that a load"
          + " balancer stops sending calls first. Default: ${DEFAULT-VALUE}.")
  Duration delay;

  @Option(names = "--drain-timeout", defaultValue = "30s", paramLabel = "DURATION",
      converter = DurationText.ZeroOrMore.class,
      description = "Then how long calls in flight (uploads included) may take to finish;"
          + " what still runs is cut. Default: ${DEFAULT-VALUE}.")
  Duration timeout;
}
