package dev.ferry.cli;

import dev.ferry.bytes.DecodeException;
import java.io.IOException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code ferry} command. Exit codes: 0 success, 2 usage error, 3 bad input (the message
 * could not be decoded: the error names the byte offset and part), 4 I/O or network error, 5
 * the peer answered, but with a fault or a wrong reply.
 */
@Command(name = "ferry", mixinStandardHelpOptions = true, version = "ferry 0.1.0",
    description = "Ferry: MIME, MTOM, SOAP and LDAP messages with as few copies as the bytes"
        + " allow.",
    subcommands = {DemoCommand.class, ServeCommand.class, BrokerCommand.class, SendCommand.class,
        PasswdCommand.class,
        MimeCommand.class, LdapCommand.class, BenchCommand.class, CompletionCommand.class,
        CommandLine.HelpCommand.class},
    footer = {"", "Examples:",
        "  ferry demo                # MTOM vs base64, direct vs brokered: table, chart",
        "  ferry serve --port 8080",
        "  ferry send --url http://127.0.0.1:8080/echo --size 4M",
        "  ferry mime inspect samples/mtom-echo.eml",
        "  ferry mime pack -o msg.eml root.xml:text/xml photo.jpg:image/jpeg",
        "  ferry mime unpack msg.eml -d out/",
        "  ferry ldap serve --ldif data.ldif --port 1389",
        "  ferry ldap search --url ldap://127.0.0.1:1389 --base dc=example,dc=com '(uid=bjensen)'",
        "  ferry bench threshold --chart threshold.png",
        "  source <(ferry completion)",
        "", "Exit codes: 0 ok, 2 usage, 3 bad input, 4 I/O or network error, 5 the peer"
            + " answered with a fault or a wrong reply."})
public final class Ferry {
  static final int EXIT_BAD_INPUT = 3;
  static final int EXIT_IO = 4;
  static final int EXIT_PEER = 5;

  @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
      description = "Print stack traces with errors.")
  boolean verbose;

  public static void main(String[] args) {
    ServerLogging.useOneLineFormat();
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line and returns the exit code (for tests and embedding). */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Ferry());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      boolean verbose = commandLine.getCommandSpec().root().userObject() instanceof Ferry f
          && f.verbose;
      commandLine.getErr().println("ferry: " + describe(e));
      if (verbose) {
        e.printStackTrace(commandLine.getErr());
      }
      return exitCode(e);
    });
    cl.setParameterExceptionHandler(Ferry::usageError);
    return cl.execute(args);
  }

  /** The message and where to find help: the whole usage text would bury the message. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    PrintWriter err = cl.getErr();
    err.println("ferry: " + e.getMessage());
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
      err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help'.");
    }
    return cl.getCommandSpec().exitCodeOnInvalidInput();
  }

  private static int exitCode(Exception e) {
    if (e instanceof PeerException) {
      return EXIT_PEER;
    }
    return e instanceof DecodeException || e instanceof IllegalArgumentException
        ? EXIT_BAD_INPUT : EXIT_IO;
  }

  private static String describe(Exception e) {
    if (e instanceof DecodeException || e instanceof PeerException) {
      return e.getMessage();
    }
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file: " + e.getMessage();
    }
    if (e instanceof IOException) {
      return "I/O error: " + e.getMessage();
    }
    return e.getMessage();
  }
}
