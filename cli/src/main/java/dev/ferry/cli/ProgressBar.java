package dev.ferry.cli;

import java.io.Console;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.util.concurrent.TimeUnit;

/**
 * Progress of a counted task on stderr. On a terminal it is one line redrawn in place (a bar,
 * the count and what is being done); when stderr goes to a file or a pipe it degrades to a plain
 * line at every tenth of the work, so logs stay readable; it can also be turned off.
 */
final class ProgressBar implements AutoCloseable {
  enum Mode { BAR, LINES, OFF }

  private static final int BAR_WIDTH = 30;
  private static final int LINE_STEPS = 10;
  private static final long REDRAW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final PrintWriter err;
  private final Mode mode;
  private final String task;
  private final int total;
  private int done;
  private int lastTenth;
  private long lastDrawNanos;
  private int lastWidth;

  ProgressBar(PrintWriter err, Mode mode, String task, int total) {
    if (total <= 0) {
      throw new IllegalArgumentException("a progress bar needs work to count: " + total);
    }
    this.err = err;
    this.mode = mode;
    this.task = task;
    this.total = total;
  }

  /**
   * The mode for this process: OFF if the user said so, BAR on an interactive console, LINES
   * otherwise. The JDK only tells whether the console (stdin and stdout) is a terminal; stderr
   * is taken to go where stdout goes, which a redirect of stdout alone gets wrong only in the
   * harmless direction (lines where a bar would do).
   */
  static Mode modeFor(boolean off) {
    if (off) {
      return Mode.OFF;
    }
    return isTerminal(System.console()) ? Mode.BAR : Mode.LINES;
  }

  /**
   * JDK 21 returns no console when redirected; JDK 22 to 24 return one anyway and say in
   * {@code isTerminal()} (not in Java 21's API, hence reflection) whether it is a terminal.
   */
  private static boolean isTerminal(Console console) {
    if (console == null) {
      return false;
    }
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }

  /** Counts one unit of work done; {@code next} says what comes next (shown on the bar). */
  void step(String next) {
    done = Math.min(done + 1, total);
    switch (mode) {
      case BAR -> drawBar(next);
      case LINES -> printLineAtEachTenth(next);
      case OFF -> { }
    }
  }

  int done() {
    return done;
  }

  private void drawBar(String next) {
    long now = System.nanoTime();
    if (done < total && done > 1 && now - lastDrawNanos < REDRAW_NANOS) {
      return;
    }
    lastDrawNanos = now;
    int filled = (int) ((long) BAR_WIDTH * done / total);
    String line = String.format("%s [%s%s] %d/%d %3d%%  %s", task, "#".repeat(filled),
        ".".repeat(BAR_WIDTH - filled), done, total, percent(), done < total ? next : "done");
    // Spaces over the end of a longer previous line, then back to the line's start.
    err.print("\r" + line + " ".repeat(Math.max(0, lastWidth - line.length())));
    lastWidth = line.length();
    err.flush();
  }

  private void printLineAtEachTenth(String next) {
    int tenth = (int) ((long) LINE_STEPS * done / total);
    if (tenth == lastTenth) {
      return;
    }
    lastTenth = tenth;
    err.printf("%s: %d/%d (%d%%)%s%n", task, done, total, percent(),
        done < total ? ", next: " + next : ", done");
    err.flush();
  }

  private int percent() {
    return (int) (100L * done / total);
  }

  /** Ends the bar's line, so whatever prints next starts on a line of its own. */
  @Override
  public void close() {
    if (mode == Mode.BAR && lastWidth > 0) {
      err.println();
      err.flush();
    }
  }
}
