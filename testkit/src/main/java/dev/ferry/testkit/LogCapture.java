package dev.ferry.testkit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records a java.util.logging logger (and so a {@code System.Logger} of that name) writes at
 * INFO and above while it is open, as their formatted messages.
 */
public final class LogCapture implements AutoCloseable {
  private final Logger logger; // held: JUL keeps loggers weakly
  private final Level level;
  private final List<String> messages = new CopyOnWriteArrayList<>();
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord r) {
      messages.add(new java.util.logging.SimpleFormatter().formatMessage(r));
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  private LogCapture(String name) {
    this.logger = Logger.getLogger(name);
    this.level = logger.getLevel();
    logger.setLevel(Level.INFO);
    logger.setUseParentHandlers(false); // captured, not printed
    handler.setLevel(Level.ALL);
    logger.addHandler(handler);
  }

  /** Starts capturing what {@code loggerName} writes. */
  public static LogCapture of(String loggerName) {
    return new LogCapture(loggerName);
  }

  /** Turns {@code loggerName} off until the returned handle is closed. */
  public static AutoCloseable off(String loggerName) {
    Logger l = Logger.getLogger(loggerName);
    Level was = l.getLevel();
    l.setLevel(Level.OFF);
    return () -> l.setLevel(was);
  }

  /** The messages so far, in the order written. */
  public List<String> messages() {
    return List.copyOf(messages);
  }

  @Override
  public void close() {
    logger.removeHandler(handler);
    logger.setUseParentHandlers(true);
    logger.setLevel(level);
  }
}
