package dev.ferry.ldap.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What a connection writes: responses gathered in one buffer and written to the peer when it is
 * full or an operation ends. On a plain connection the buffer is direct and goes to the socket
 * channel as it is, so that a stored entry's bytes are copied once on their way to the kernel;
 * under TLS it is a heap buffer handed to the TLS socket's stream.
 *
 * <p>Writers take {@link #lock} around each whole message, so that responses of operations
 * running at once on one connection never interleave inside a message.
 */
final class Outbound {
  static final int BUFFER_BYTES = 64 * 1024;

  final ReentrantLock lock = new ReentrantLock();
  private final SocketChannel channel;
  private OutputStream tls;
  private ByteBuffer buf;
  private volatile long writingSince; // 0 when no write to the peer is under way
  private final OutputStream stream = new OutputStream() {
    @Override
    public void write(int b) throws IOException {
      put((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      put(b, off, len);
    }
  };

  Outbound(SocketChannel channel) {
    this.channel = channel;
    this.buf = ByteBuffer.allocateDirect(BUFFER_BYTES);
  }

  /** From now on writes go through TLS (the buffer must be empty: flush first). */
  void useTls(OutputStream out) {
    this.tls = out;
    this.buf = ByteBuffer.allocate(BUFFER_BYTES);
  }

  /** An output stream that appends here, for messages the codec writes. */
  OutputStream stream() {
    return stream;
  }

  void put(byte b) throws IOException {
    if (!buf.hasRemaining()) {
      flush();
    }
    buf.put(b);
  }

  void put(byte[] a, int off, int len) throws IOException {
    while (len > 0) {
      if (!buf.hasRemaining()) {
        flush();
      }
      int n = Math.min(len, buf.remaining());
      buf.put(a, off, n);
      off += n;
      len -= n;
    }
  }

  /** Copies {@code src[off, off + len)} (absolute: {@code src}'s position does not move). */
  void put(ByteBuffer src, int off, int len) throws IOException {
    while (len > 0) {
      if (!buf.hasRemaining()) {
        flush();
      }
      int n = Math.min(len, buf.remaining());
      buf.put(buf.position(), src, off, n);
      buf.position(buf.position() + n);
      off += n;
      len -= n;
    }
  }

  /** Writes a header with a low tag number and a minimal definite length. */
  void header(int tag, long length) throws IOException {
    if (buf.remaining() < 6) {
      flush();
    }
    buf.put((byte) tag);
    if (length < 0x80) {
      buf.put((byte) length);
      return;
    }
    int octets = (64 - Long.numberOfLeadingZeros(length) + 7) / 8;
    buf.put((byte) (0x80 | octets));
    for (int shift = 8 * (octets - 1); shift >= 0; shift -= 8) {
      buf.put((byte) (length >>> shift));
    }
  }

  /** Writes the messageID element of a message. */
  void messageId(int id) throws IOException {
    int n = integerOctets(id);
    header(0x02, n);
    for (int shift = 8 * (n - 1); shift >= 0; shift -= 8) {
      put((byte) (id >>> shift));
    }
  }

  /** Returns the content octets of a non-negative INTEGER. */
  static int integerOctets(int nonNegative) {
    return (33 - Integer.numberOfLeadingZeros(nonNegative) + 7) / 8;
  }

  /** Returns since when a write to the peer has been waiting (nanoTime), or 0 if none is. */
  long writingSince() {
    return writingSince;
  }

  /** Writes what the buffer holds to the peer. */
  void flush() throws IOException {
    buf.flip();
    writingSince = System.nanoTime();
    try {
      if (tls != null) {
        tls.write(buf.array(), 0, buf.limit());
        tls.flush();
      } else {
        while (buf.hasRemaining()) {
          channel.write(buf);
        }
      }
    } finally {
      writingSince = 0;
      buf.clear();
    }
  }
}
