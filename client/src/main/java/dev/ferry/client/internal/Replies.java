package dev.ferry.client.internal;

import dev.ferry.bytes.internal.Streams;
import java.io.IOException;
import java.io.InputStream;

/** What a client does with the rest of a reply it is done with. */
public final class Replies {
  /** The most of an unread rest that is read so that the connection can be reused. */
  private static final int DRAIN_BYTES = 64 * 1024;

  private Replies() {}

  /**
   * Reads up to 64 KiB of an unread reply's rest so that its connection can be reused, then
   * closes it: a rest still unread then aborts the exchange, and the connection is dropped,
   * which is all it costs.
   */
  public static void drainAndClose(InputStream in) throws IOException {
    try {
      Streams.discard(in, DRAIN_BYTES);
    } catch (IOException ignored) {
      // the connection is dropped instead of reused
    } finally {
      in.close();
    }
  }
}
