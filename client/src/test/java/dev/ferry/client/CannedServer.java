package dev.ferry.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;

/**
 * A bare HTTP/1.1 server on loopback for client tests: it answers every request on a kept-alive
 * connection with one canned response, and keeps the heads of the requests it got. With an
 * {@link SSLContext} it speaks TLS, asking for a client certificate if told to.
 */
final class CannedServer implements AutoCloseable {
  private final ServerSocket socket;
  private final byte[] response;
  final List<String> heads = new CopyOnWriteArrayList<>();
  final List<Socket> accepted = new CopyOnWriteArrayList<>();

  CannedServer(String response) throws IOException {
    this(response, null, false);
  }

  CannedServer(String response, SSLContext tls, boolean needClientAuth) throws IOException {
    this.response = response.getBytes(StandardCharsets.UTF_8);
    if (tls == null) {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } else {
      SSLServerSocket s = (SSLServerSocket) tls.getServerSocketFactory().createServerSocket(0, 50,
          InetAddress.getLoopbackAddress());
      s.setNeedClientAuth(needClientAuth);
      socket = s;
    }
    Thread.ofVirtual().start(this::acceptAll);
  }

  /** A SOAP 1.1 reply holding {@code <ok/>}, with {@code extraHeaders} (CRLF-separated). */
  static String soapReply(String extraHeaders) {
    String body = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
        + "<ok/></s:Body></s:Envelope>";
    return "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=UTF-8\r\n" + extraHeaders
        + "Content-Length: " + body.length() + "\r\n\r\n" + body;
  }

  int port() {
    return socket.getLocalPort();
  }

  private void acceptAll() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        accepted.add(s);
        Thread.ofVirtual().start(() -> serve(s));
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
      while (true) {
        String head = readHead(in);
        if (head == null) {
          return;
        }
        heads.add(head);
        in.readNBytes(contentLength(head));
        out.write(response);
        out.flush();
      }
    } catch (IOException e) {
      // the client went away, or the handshake failed
    }
  }

  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int matched = 0;
    for (int c; (c = in.read()) >= 0; ) {
      b.write(c);
      matched = c == "\r\n\r\n".charAt(matched) ? matched + 1 : c == '\r' ? 1 : 0;
      if (matched == 4) {
        return b.toString(StandardCharsets.ISO_8859_1);
      }
    }
    return null;
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring(15).strip());
      }
    }
    return 0; // the client sends chunked bodies only beyond its buffer; tests stay below
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : accepted) {
      s.close();
    }
  }
}
