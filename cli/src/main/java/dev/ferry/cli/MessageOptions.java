package dev.ferry.cli;

import dev.ferry.mime.MimeLimits;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options every command that reads a message file shares (a picocli mixin). */
final class MessageOptions {
  @Option(names = "--content-type", paramLabel = "TYPE",
      description = "The Content-Type, if the file does not start with it.")
  String contentType;

  @Option(names = "--line-ends", defaultValue = "AUTO",
      description = "AUTO (from the first delimiter line), STRICT (CRLF) or LENIENT (CRLF or"
          + " LF). Default: ${DEFAULT-VALUE}.")
  MessageFile.LineEnds lineEnds;

  @Option(names = "--lenient-headers",
      description = "Read past a malformed header field or Content-Type parameter (8-bit bytes"
          + " in a field name, an unquoted encoded word), printing a warning, instead of"
          + " rejecting the message.")
  boolean lenientHeaders;

  /** Opens {@code file} as these options say. */
  MessageFile.Opened open(Path file) throws IOException {
    return MessageFile.open(file, contentType, lineEnds, lenientHeaders, MimeLimits.DEFAULTS);
  }
}
