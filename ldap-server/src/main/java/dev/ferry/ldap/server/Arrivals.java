package dev.ferry.ldap.server;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * When the first bytes of the request a connection waits for arrived, so that the server can
 * tell a client that sends nothing (idle) from one that started a request and stalls in it
 * (reading), and time each out on its own clock. The connection marks the start of each wait;
 * its input calls {@link #arrived()} whenever a read from the peer returns bytes.
 */
final class Arrivals {
  private volatile long firstNanos; // 0: nothing arrived since the mark

  /** Starts waiting for a request; {@code buffered} if some of it is already here. */
  void mark(boolean buffered) {
    firstNanos = buffered ? System.nanoTime() : 0;
  }

  /** Notes that bytes came from the peer. */
  void arrived() {
    if (firstNanos == 0) {
      firstNanos = System.nanoTime();
    }
  }

  /** Returns when the first bytes arrived since the mark, or 0 if none did. */
  long firstNanos() {
    return firstNanos;
  }

  /** Wraps a stream read from the peer (a TLS socket's) so that its reads are noted. */
  InputStream watch(InputStream in) {
    return new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
          arrived();
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
          arrived();
        }
        return n;
      }
    };
  }
}
