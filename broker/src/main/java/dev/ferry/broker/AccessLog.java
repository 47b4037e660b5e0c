package dev.ferry.broker;

import java.net.SocketAddress;
import java.util.Locale;

/**
 * The access log: one line per exchange at INFO on {@code dev.ferry.access} (the server writes
 * the same), who, what, status, bytes in and out, time, and a note for what went wrong.
 */
final class AccessLog {
  private static final System.Logger ACCESS = System.getLogger("dev.ferry.access");

  private AccessLog() {}

  static void line(SocketAddress remote, String method, String uri, int status, long in,
      long out, long nanos, String note) {
    if (ACCESS.isLoggable(System.Logger.Level.INFO)) {
      String who = remote instanceof java.net.InetSocketAddress a
          ? a.getAddress().getHostAddress() : String.valueOf(remote);
      ACCESS.log(System.Logger.Level.INFO, String.format(Locale.ROOT,
          "%s \"%s %s\" %d in=%d out=%d %.1fms%s", who, method, uri, status, in, out,
          nanos / 1e6, note == null ? "" : " " + note));
    }
  }
}
