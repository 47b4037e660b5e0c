package dev.ferry.ldap.server;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A buffered stream over a blocking socket channel: the BER framer reads headers a byte at a
 * time, and the channel's own stream adapter would lock a monitor around each read, which pins a
 * virtual thread's carrier while it waits on JDK 21.
 */
final class ChannelInput extends InputStream {
  private final SocketChannel channel;
  private final Arrivals arrivals;
  private final ByteBuffer buf = ByteBuffer.allocate(16 * 1024).flip();

  ChannelInput(SocketChannel channel, Arrivals arrivals) {
    this.channel = channel;
    this.arrivals = arrivals;
  }

  /** Returns the number of bytes read from the channel and not yet consumed. */
  int buffered() {
    return buf.remaining();
  }

  @Override
  public int read() throws IOException {
    if (!buf.hasRemaining() && !fill()) {
      return -1;
    }
    return buf.get() & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!buf.hasRemaining()) {
      if (len >= buf.capacity()) {
        int n = channel.read(ByteBuffer.wrap(b, off, len)); // large reads skip the buffer
        if (n > 0) {
          arrivals.arrived();
        }
        return n;
      }
      if (!fill()) {
        return -1;
      }
    }
    int n = Math.min(len, buf.remaining());
    buf.get(b, off, n);
    return n;
  }

  private boolean fill() throws IOException {
    buf.clear();
    int n;
    try {
      n = channel.read(buf);
    } finally {
      buf.flip();
    }
    if (n > 0) {
      arrivals.arrived();
    }
    return n > 0;
  }
}
