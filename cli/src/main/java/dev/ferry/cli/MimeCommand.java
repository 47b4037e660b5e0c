package dev.ferry.cli;

import picocli.CommandLine.Command;

/** {@code ferry mime}: look into, build and take apart MIME multipart messages. */
@Command(name = "mime", mixinStandardHelpOptions = true,
    description = "Inspect, pack and unpack MIME multipart messages (MTOM, SwA, form data).",
    subcommands = {MimeInspect.class, MimePack.class, MimeUnpack.class})
final class MimeCommand {}
