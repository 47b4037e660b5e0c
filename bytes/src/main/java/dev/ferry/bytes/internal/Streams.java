package dev.ferry.bytes.internal;

import java.io.IOException;
import java.io.InputStream;

/** What Ferry's HTTP ends do with the rest of a message they are done with. */
public final class Streams {
  private static final int FIRST_READ = 64;
  private static final int LATER_READS = 8192;

  private Streams() {}

  /**
   * Reads and drops up to {@code maxBytes} of {@code in}; returns true if it ended within them.
   * The first read takes 64 bytes: what is left after a message is nearly always nothing or a
   * line end, and a buffer of 8 KiB per message was most of what such a read allocated.
   */
  public static boolean discard(InputStream in, long maxBytes) throws IOException {
    byte[] skip = new byte[FIRST_READ];
    for (long left = maxBytes; left > 0; ) {
      int n = in.read(skip, 0, (int) Math.min(skip.length, left));
      if (n < 0) {
        return true;
      }
      left -= n;
      if (n == skip.length && skip.length < LATER_READS) {
        skip = new byte[LATER_READS]; // more is left: larger reads
      }
    }
    return false;
  }
}
