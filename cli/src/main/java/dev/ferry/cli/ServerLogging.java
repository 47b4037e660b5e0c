package dev.ferry.cli;

import io.netty.util.ResourceLeakDetector;
import io.opentelemetry.api.trace.Span;
import dev.ferry.logging.LogMasking;
import dev.ferry.logging.MessageLog;
import io.opentelemetry.api.trace.SpanContext;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.ErrorManager;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What the embedded servers log to stderr (java.util.logging, Jetty's through SLF4J): the
 * access log where a person watches a server, Jetty's start-up chatter only with --verbose.
 * The access log is on by default, so its lines are formatted cheaply: the JDK's format string
 * ({@code String.format} with date conversions per line) was a visible share of the broker's
 * CPU per call; the time stamp here is made once a second. With {@code FERRY_LOG_FORMAT=json}
 * in the environment, each line is a JSON object instead ({@link JsonLine}). Either way every
 * line is masked first ({@link LogMasking}): no password, token or credential is written.
 */
final class ServerLogging {
  // Held here: JUL keeps loggers weakly, and a collected one would forget its level.
  private static final Logger JETTY = Logger.getLogger("org.eclipse.jetty");
  private static final Logger ACCESS = Logger.getLogger("dev.ferry.access");
  private static final Logger MESSAGES = Logger.getLogger(MessageLog.LOGGER);
  private static volatile BatchedLines batched; // null until useOneLineFormat set it up

  private ServerLogging() {}

  /**
   * Before any logging: one line per record ({@code 2026-11-26 14:25:55 INFO message}, or JSON
   * with {@code FERRY_LOG_FORMAT=json}), unless the user configured java.util.logging; and, the
   * commands being programs of their own, no Netty buffer leak tracking (a per-buffer cost that
   * is for Netty's own development).
   */
  static void useOneLineFormat() {
    if (System.getProperty("io.netty.leakDetection.level") == null) {
      ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
    }
    if (System.getProperty("java.util.logging.config.file") != null
        || System.getProperty("java.util.logging.SimpleFormatter.format") != null) {
      return;
    }
    boolean json = "json".equalsIgnoreCase(System.getenv("FERRY_LOG_FORMAT"));
    for (Handler h : LogManager.getLogManager().getLogger("").getHandlers()) {
      h.setFormatter(json ? new JsonLine() : new OneLine());
    }
    // the access log's lines and message records (a line or two per exchange each) go out in
    // batches: one write a quarter of a second, not one and a flush a record
    BatchedLines lines = new BatchedLines();
    lines.setFormatter(json ? new JsonLine() : new OneLine());
    for (Logger l : new Logger[] {ACCESS, MESSAGES}) {
      l.addHandler(lines);
      l.setUseParentHandlers(false);
    }
    batched = lines;
  }

  /**
   * Writes out the batched lines now: what a command calls once its server has stopped, so that
   * the records of the last exchanges are not left to the race of the JVM's shutdown hooks.
   */
  static void flush() {
    BatchedLines lines = batched;
    if (lines != null) {
      lines.flush();
    }
  }

  static void configure(boolean accessLog, boolean verbose) {
    JETTY.setLevel(verbose ? Level.INFO : Level.WARNING);
    ACCESS.setLevel(accessLog || verbose ? Level.INFO : Level.WARNING);
  }

  static boolean verbose(CommandSpec spec) {
    return spec.root().userObject() instanceof Ferry f && f.verbose;
  }

  /**
   * Writes the access log and the message log to standard error in batches: lines gather in a
   * buffer that a daemon thread flushes four times a second (and at exit, and when a command's
   * server stopped: {@link #flush()}), so a busy server makes a few writes a second instead of
   * one system call per record. A line is out at most 250 ms after its exchange.
   */
  static final class BatchedLines extends Handler {
    // bytes, not a PrintStream: its writer and encoder layers cost more than the line's format
    private final BufferedOutputStream out = new BufferedOutputStream(
        new FileOutputStream(FileDescriptor.err), 64 * 1024);

    BatchedLines() {
      Thread t = Thread.ofPlatform().daemon().name("ferry-access-log").unstarted(() -> {
        while (true) {
          try {
            Thread.sleep(250);
          } catch (InterruptedException e) {
            return;
          }
          flush();
        }
      });
      t.start();
      Runtime.getRuntime().addShutdownHook(new Thread(this::flush));
    }

    @Override
    public void publish(LogRecord record) {
      if (isLoggable(record)) {
        byte[] line = getFormatter().format(record).getBytes(StandardCharsets.UTF_8);
        synchronized (out) {
          try {
            out.write(line);
          } catch (IOException e) {
            reportError("cannot write the access log", e, ErrorManager.WRITE_FAILURE);
          }
        }
      }
    }

    @Override
    public void flush() {
      synchronized (out) {
        try {
          out.flush();
        } catch (IOException e) {
          reportError("cannot write the access log", e, ErrorManager.FLUSH_FAILURE);
        }
      }
    }

    @Override
    public void close() {
      flush();
    }
  }

  /**
   * The record's message, masked: by {@link LogMasking}'s rules, except a message log record,
   * which its {@link MessageLog} masked as it made it, with the rules it was given (names and
   * headers of the application's own beside these), and which is not masked a second time.
   */
  static String maskedMessage(Formatter f, LogRecord record) {
    String message = f.formatMessage(record);
    return MessageLog.LOGGER.equals(record.getLoggerName()) ? message : LogMasking.mask(message);
  }

  /** {@code yyyy-MM-dd HH:mm:ss LEVEL message}, the time stamp made once a second. */
  static final class OneLine extends Formatter {
    private long second = Long.MIN_VALUE;
    private String stamp = "";

    @Override
    public synchronized String format(LogRecord record) {
      long s = record.getMillis() / 1000;
      if (s != second) {
        second = s;
        LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochSecond(s),
            ZoneId.systemDefault());
        stamp = String.format("%tF %<tT ", t);
      }
      StringBuilder b = new StringBuilder(stamp.length() + 120).append(stamp)
          .append(record.getLevel().getName()).append(' ')
          .append(maskedMessage(this, record));
      if (record.getThrown() != null) {
        b.append(' ').append(LogMasking.mask(record.getThrown().toString()));
      }
      return b.append(System.lineSeparator()).toString();
    }
  }

  /**
   * One JSON object a line, for a log collector: {@code time} (UTC, milliseconds),
   * {@code level}, {@code logger}, {@code message}, {@code error} if the record has one, and
   * {@code trace_id} and {@code span_id} when the line is written within a span (the W3C ids,
   * as a tracing backend shows them). Message and error are masked.
   */
  static final class JsonLine extends Formatter {
    private static final DateTimeFormatter SECONDS =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");
    private long second = Long.MIN_VALUE;
    private String stamp = ""; // {"time":"yyyy-MM-ddTHH:mm:ss. of the second last formatted

    @Override
    public String format(LogRecord record) {
      String message = maskedMessage(this, record);
      StringBuilder b = new StringBuilder(message.length() + 200).append(stamp(record))
          .append(millis(record)).append("Z\",\"level\":\"")
          .append(record.getLevel().getName()).append("\",\"logger\":");
      Json.str(b, record.getLoggerName()).append(",\"message\":");
      Json.str(b, message);
      if (record.getThrown() != null) {
        b.append(",\"error\":");
        Json.str(b, LogMasking.mask(record.getThrown().toString()));
      }
      SpanContext span = Span.current().getSpanContext();
      if (span.isValid()) {
        b.append(",\"trace_id\":\"").append(span.getTraceId()).append("\",\"span_id\":\"")
            .append(span.getSpanId()).append('"');
      }
      return b.append('}').append(System.lineSeparator()).toString();
    }

    /** The line's start up to its time's second, made once a second (UTC, ISO 8601). */
    private synchronized String stamp(LogRecord record) {
      long s = Math.floorDiv(record.getMillis(), 1000);
      if (s != second) {
        second = s;
        stamp = "{\"time\":\"" + SECONDS.format(LocalDateTime.ofEpochSecond(s, 0,
            ZoneOffset.UTC)) + ".";
      }
      return stamp;
    }

    private static String millis(LogRecord record) {
      int ms = (int) Math.floorMod(record.getMillis(), 1000);
      return ms < 10 ? "00" + ms : ms < 100 ? "0" + ms : Integer.toString(ms);
    }
  }
}
