package dev.ferry.broker;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The access log: one line per exchange at INFO on {@code dev.ferry.access} (the server writes
 * the same), who, what, status, bytes in and out, time, the member forwarded to (the last one
 * tried), and a note for what went wrong. It is on
 * by default, so it is written cheaply: the line is built by hand, and the record names its
 * source, which spares java.util.logging the stack walk it does to find one.
 */
final class AccessLog {
  private static final Logger ACCESS = Logger.getLogger("dev.ferry.access");

  private AccessLog() {}

  static void line(SocketAddress remote, String method, String uri, int status, long in,
      long out, long nanos, String member, String note) {
    if (!ACCESS.isLoggable(Level.INFO)) {
      return;
    }
    StringBuilder b = new StringBuilder(96);
    b.append(remote instanceof InetSocketAddress a ? a.getAddress().getHostAddress()
        : String.valueOf(remote));
    b.append(" \"").append(method).append(' ').append(uri).append("\" ").append(status)
        .append(" in=").append(in).append(" out=").append(out).append(' ');
    long tenths = (nanos + 50_000) / 100_000;
    b.append(tenths / 10).append('.').append(tenths % 10).append("ms");
    if (member != null) {
      b.append(" to=").append(member);
    }
    if (note != null) {
      b.append(' ').append(note);
    }
    ACCESS.logp(Level.INFO, "dev.ferry.broker.Broker", "exchange", b.toString());
  }
}
