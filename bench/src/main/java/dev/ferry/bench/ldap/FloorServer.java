package dev.ferry.bench.ldap;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.LdapCodec;
import dev.ferry.ldap.LdapMessage;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.ProtocolOp;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The floor the LDAP servers are measured against: a loopback server that answers every search
 * with one stored entry and a stored success, and does nothing else. It reads a request's
 * header and message ID, never decodes the rest, finds nothing, checks nothing; the entry's
 * operation was encoded once at start, and each answer is a message header written before it
 * into a direct buffer, as Ferry's server writes a whole entry, and one socket write. Binds are
 * answered with success; an unbind, or anything it cannot frame, ends the connection. Each
 * connection is read by a platform thread, as in Ferry's server.
 */
final class FloorServer implements AutoCloseable {
  private static final byte[] DONE = {0x65, 0x07, 0x0a, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00};
  private static final byte[] BOUND = {0x61, 0x07, 0x0a, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00};

  private final ServerSocketChannel listener;
  private final byte[] entryOp;

  FloorServer(LdifRecord.Entry entry) throws IOException {
    ByteString pdu = LdapCodec.encode(LdapMessage.of(1, new ProtocolOp.SearchResultEntry(
        entry.dn(), entry.attributes())));
    // 30 len 02 01 01 | 64 ...: keep the operation, the header is written per answer
    int header = 2 + ((pdu.byteAt(1) & 0x80) == 0 ? 0 : pdu.byteAt(1) & 0x7f);
    this.entryOp = pdu.subSequence(header + 3).toByteArray();
    this.listener = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
    Thread.ofVirtual().start(this::accept);
  }

  int port() throws IOException {
    return ((InetSocketAddress) listener.getLocalAddress()).getPort();
  }

  private void accept() {
    while (listener.isOpen()) {
      try {
        SocketChannel c = listener.accept();
        c.setOption(StandardSocketOptions.TCP_NODELAY, true);
        Thread.ofPlatform().start(() -> serve(c));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(SocketChannel c) {
    ByteBuffer in = ByteBuffer.allocate(64 * 1024).flip();
    ByteBuffer out = ByteBuffer.allocateDirect(entryOp.length + 64);
    try (c) {
      while (true) {
        long request = request(c, in);
        int id = (int) (request >>> 8);
        int op = (int) (request & 0xff);
        if (op == 0x42) {
          return; // unbind
        }
        out.clear();
        if (op == 0x63) {
          message(out, id, entryOp);
        }
        message(out, id, op == 0x60 ? BOUND : DONE);
        out.flip();
        while (out.hasRemaining()) {
          c.write(out);
        }
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  /** Reads one request; returns its message ID and operation tag as {@code id << 8 | tag}. */
  private static long request(SocketChannel c, ByteBuffer in) throws IOException {
    int tag = next(c, in);
    int length = length(c, in);
    if (tag != 0x30 || length > in.capacity()) {
      throw new EOFException("not an LDAPMessage this server reads");
    }
    require(c, in, length);
    int end = in.position() + length;
    in.get(); // the INTEGER tag of the message ID
    int idLength = in.get();
    int id = 0;
    for (int i = 0; i < idLength; i++) {
      id = id << 8 | (in.get() & 0xff);
    }
    int op = in.get() & 0xff;
    in.position(end);
    return (long) id << 8 | op;
  }

  private static int length(SocketChannel c, ByteBuffer in) throws IOException {
    int first = next(c, in);
    if (first < 0x80) {
      return first;
    }
    int length = 0;
    for (int i = 0; i < (first & 0x7f); i++) {
      length = length << 8 | next(c, in);
    }
    return length;
  }

  private static int next(SocketChannel c, ByteBuffer in) throws IOException {
    require(c, in, 1);
    return in.get() & 0xff;
  }

  private static void require(SocketChannel c, ByteBuffer in, int n) throws IOException {
    if (in.remaining() >= n) {
      return;
    }
    in.compact();
    while (in.position() < n) {
      if (c.read(in) < 0) {
        throw new EOFException();
      }
    }
    in.flip();
  }

  private static void message(ByteBuffer out, int id, byte[] op) {
    int idLength = (33 - Integer.numberOfLeadingZeros(id) + 7) / 8;
    int content = 2 + idLength + op.length;
    out.put((byte) 0x30);
    if (content < 0x80) {
      out.put((byte) content);
    } else {
      int octets = (32 - Integer.numberOfLeadingZeros(content) + 7) / 8;
      out.put((byte) (0x80 | octets));
      for (int shift = 8 * (octets - 1); shift >= 0; shift -= 8) {
        out.put((byte) (content >>> shift));
      }
    }
    out.put((byte) 0x02).put((byte) idLength);
    for (int shift = 8 * (idLength - 1); shift >= 0; shift -= 8) {
      out.put((byte) (id >>> shift));
    }
    out.put(op);
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
