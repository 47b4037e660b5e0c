package dev.ferry.cli;

import dev.ferry.logging.MessageLog;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Message logging for support, off unless asked for (a picocli mixin). */
final class MessageLogOptions {
  @Option(names = "--log-messages",
      description = "Log each request and reply (HTTP headers and envelope, masked; attachments"
          + " by Content-ID, type and size, never their bytes) to the log dev.ferry.messages"
          + " on standard error.")
  boolean on;

  @Option(names = "--log-messages-max", paramLabel = "SIZE",
      converter = ByteSize.Converter.class, defaultValue = "16K",
      description = "With --log-messages: the most envelope bytes logged per message; the rest"
          + " is left out and counted. Default: ${DEFAULT-VALUE}.")
  int maxBytes;

  @Option(names = "--mask-names", paramLabel = "NAME", split = ",",
      description = "With --log-messages: also mask the content of elements and the values of"
          + " attributes with these local names (passwords, tokens, secrets, credentials, API"
          + " keys and card numbers are masked anyway).")
  List<String> names = List.of();

  @Option(names = "--mask-headers", paramLabel = "NAME", split = ",",
      description = "With --log-messages: also mask these HTTP headers (Authorization,"
          + " Proxy-Authorization, Cookie and Set-Cookie are masked anyway).")
  List<String> headers = List.of();

  /** The message log asked for, or null. */
  MessageLog messageLog(CommandSpec spec) {
    if (!on) {
      return null;
    }
    try {
      return MessageLog.builder().maxBytes(maxBytes).maskNames(names.toArray(String[]::new))
          .maskHeaders(headers.toArray(String[]::new)).build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--mask-names: " + e.getMessage());
    }
  }
}
