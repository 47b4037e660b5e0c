package dev.ferry.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A long-running command ({@code ferry serve}, {@code ferry broker}) on a thread of its own, as
 * a user would start it in another shell: its output is watched for what it prints on start,
 * and an interrupt stops it, as Ctrl-C would.
 */
final class RunningFerry implements AutoCloseable {
  private static final Pattern URL =
      Pattern.compile("(https?|ldap)://(127\\.0\\.0\\.1|localhost):\\d+/?\\S*");

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final Thread thread;
  private volatile int exit = -1;

  RunningFerry(String... args) {
    thread = new Thread(() -> exit = Ferry.run(args, new PrintWriter(out, true),
        new PrintWriter(err, true)), "ferry " + args[0]);
    thread.start();
  }

  /** Waits for the first URL the command prints after {@code prefix}. */
  String awaitUrl(String prefix) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      String printed = out.toString();
      int at = printed.indexOf(prefix);
      if (at >= 0) {
        Matcher m = URL.matcher(printed.substring(at));
        if (m.find()) {
          return m.group();
        }
      }
      if (!thread.isAlive()) {
        throw new AssertionError("exited with " + exit + ": " + printed + err);
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no '" + prefix + "' URL within 30 s: " + out + err);
  }

  String out() {
    return out.toString();
  }

  /** Stops the command as Ctrl-C would, and returns its exit code. */
  int stop() throws InterruptedException {
    thread.interrupt();
    thread.join(Duration.ofSeconds(30));
    if (thread.isAlive()) {
      throw new AssertionError("still running 30 s after the interrupt");
    }
    return exit;
  }

  @Override
  public void close() throws InterruptedException {
    if (thread.isAlive()) {
      stop();
    }
  }
}
