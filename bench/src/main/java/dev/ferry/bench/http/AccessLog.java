package dev.ferry.bench.http;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Turns Ferry's access log off for a benchmark: one console line per call, written by a
 * synchronized handler, would measure the console (CXF logs nothing per call by default).
 */
public final class AccessLog {
  private static final Logger ACCESS = Logger.getLogger("dev.ferry.access");

  private AccessLog() {}

  public static void quiet() {
    ACCESS.setLevel(Level.WARNING);
  }
}
