package dev.ferry.cli;

import picocli.CommandLine.Command;

/** {@code ferry bench}: quick measurements on this machine. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Quick in-process measurements on this machine (seconds, not minutes). The"
        + " JMH benchmarks in the bench module are the rigorous versions.",
    subcommands = {BenchThreshold.class})
final class BenchCommand {}
