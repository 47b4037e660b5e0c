package dev.ferry.cli;

import dev.ferry.security.PasswordFile;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code ferry passwd}: a password file line for a user. */
@Command(name = "passwd", mixinStandardHelpOptions = true,
    description = {"Print a line for a password file (--users of ferry serve and ferry broker):"
        + " the user and a salted PBKDF2-HMAC-SHA256 hash of the password, which is asked for"
        + " (or read as one line from standard input when there is no console)."},
    footer = {"", "Example:", "  ferry passwd alice >> users.txt"})
final class PasswdCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "USER", description = "The user name.")
  String user;

  @Override
  public Integer call() throws IOException {
    char[] password = read();
    try {
      spec.commandLine().getOut().println(PasswordFile.line(user, password));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    } finally {
      Arrays.fill(password, '\0');
    }
    return 0;
  }

  private char[] read() throws IOException {
    Console console = System.console();
    if (console != null) {
      char[] p = console.readPassword("password for %s: ", user);
      if (p != null) {
        return p;
      }
    }
    String line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
        .readLine();
    if (line == null || line.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "no password given");
    }
    return line.toCharArray();
  }
}
