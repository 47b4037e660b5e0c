package dev.ferry.cli;

import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What the embedded servers log to stderr (java.util.logging, Jetty's through SLF4J): the
 * access log where a person watches a server, Jetty's start-up chatter only with --verbose.
 */
final class ServerLogging {
  /** The JDK's two-line default buries the request; one line each, time first. */
  static final String ONE_LINE_FORMAT = "%1$tF %1$tT %4$s %5$s%6$s%n";

  // Held here: JUL keeps loggers weakly, and a collected one would forget its level.
  private static final Logger JETTY = Logger.getLogger("org.eclipse.jetty");
  private static final Logger ACCESS = Logger.getLogger("dev.ferry.access");

  private ServerLogging() {}

  /** Before any logging: one line per record, unless the user configured a format. */
  static void useOneLineFormat() {
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty("java.util.logging.SimpleFormatter.format", ONE_LINE_FORMAT);
    }
  }

  static void configure(boolean accessLog, boolean verbose) {
    JETTY.setLevel(verbose ? Level.INFO : Level.WARNING);
    ACCESS.setLevel(accessLog || verbose ? Level.INFO : Level.WARNING);
  }

  static boolean verbose(CommandSpec spec) {
    return spec.root().userObject() instanceof Ferry f && f.verbose;
  }
}
