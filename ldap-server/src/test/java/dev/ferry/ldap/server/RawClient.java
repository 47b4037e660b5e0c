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
    socket = new Socket();
    socket.setTcpNoDelay(true);
    socket.connect(new InetSocketAddress("127.0.0.1", port));
    in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    out = socket.getOutputStream();
  }

  void send(ByteString pdu) throws IOException {
    pdu.writeTo(out);
    out.flush();
  }

  /** Reads one PDU; returns its total length; its protocolOp tag is {@link #opTag(int)}. */
  int read() throws IOException {
    int tag = readByte();
    int first = readByte();
    int length = first;
    int header = 2;
    if (first >= 0x80) {
      length = 0;
      for (int i = 0; i < (first & 0x7f); i++) {
        length = length << 8 | readByte();
        header++;
      }
    }
    if (length > buf.length) {
      buf = new byte[length];
    }
    int off = 0;
    while (off < length) {
      int n = in.read(buf, off, length - off);
      if (n < 0) {
        throw new EOFException();
      }
      off += n;
    }
    if (tag != 0x30) {
      throw new IOException("not a message: tag " + tag);
    }
    return header + length;
  }

  /** Returns the protocolOp tag of the last PDU read. */
  int opTag() {
    int idLength = buf[1];
    return buf[2 + idLength] & 0xff;
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
