package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A client that sends PDUs it is given and reads whole response PDUs into one reused buffer:
 * it allocates nothing per exchange, so what a test measures around it is the server's.
 */
final class RawClient implements AutoCloseable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private byte[] buf = new byte[256 * 1024];

  RawClient(int port) throws IOException {
    this(port, 0);
  }

  /** Connects with a receive buffer of {@code receiveBufferBytes} (0: the system's). */
  RawClient(int port, int receiveBufferBytes) throws IOException {
    this(port, receiveBufferBytes, null);
  }

  /**
   * Connects from {@code localAddress} (a loopback address such as 127.0.0.2, so that a test
   * has clients of several addresses; null: the system's choice).
   */
  RawClient(int port, int receiveBufferBytes, String localAddress) throws IOException {
    socket = new Socket();
    socket.setTcpNoDelay(true);
    if (receiveBufferBytes > 0) {
      socket.setReceiveBufferSize(receiveBufferBytes);
    }
    if (localAddress != null) {
      socket.bind(new InetSocketAddress(localAddress, 0));
    }
    socket.connect(new InetSocketAddress("127.0.0.1", port));
    in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    out = socket.getOutputStream();
  }

  void send(ByteString pdu) throws IOException {
    pdu.writeTo(out);
    out.flush();
  }

  /** Reads one PDU; returns its total length; see {@link #opTag()} and {@link #last()}. */
  int read() throws IOException {
    int tag = readByte();
    int first = readByte();
    buf[0] = (byte) tag;
    buf[1] = (byte) first;
    int length = first;
    int header = 2;
    if (first >= 0x80) {
      length = 0;
      for (int i = 0; i < (first & 0x7f); i++) {
        int b = readByte();
        buf[header++] = (byte) b;
        length = length << 8 | b;
      }
    }
    if (header + length > buf.length) {
      byte[] bigger = new byte[header + length];
      System.arraycopy(buf, 0, bigger, 0, header);
      buf = bigger;
    }
    int off = header;
    while (off < header + length) {
      int n = in.read(buf, off, header + length - off);
      if (n < 0) {
        throw new EOFException();
      }
      off += n;
    }
    if (tag != 0x30) {
      throw new IOException("not a message: tag " + tag);
    }
    contentStart = header;
    total = header + length;
    return total;
  }

  private int contentStart;
  private int total;

  /** Returns the protocolOp tag of the last PDU read. */
  int opTag() {
    int idLength = buf[contentStart + 1];
    return buf[contentStart + 2 + idLength] & 0xff;
  }

  /** Returns a copy of the last PDU read. */
  ByteString last() {
    return ByteString.copyOf(buf, 0, total);
  }

  /** Returns true if the server closed the connection (after what was read so far). */
  boolean isClosedByPeer() throws IOException {
    socket.setSoTimeout(5_000);
    return in.read() < 0;
  }

  /** Sends raw bytes. */
  void sendRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Reads messages until a SearchResultDone; returns how many entries came before it. */
  int readSearch() throws IOException {
    int entries = 0;
    while (true) {
      read();
      int tag = opTag();
      if (tag == 0x65) {
        return entries;
      }
      if (tag == 0x64) {
        entries++;
      }
    }
  }

  private int readByte() throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException();
    }
    return b;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
