package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the broker does with the HTTP around a reply: a chunked backend reply it held whole goes
 * to the caller with its length, and a backend's cookies are never sent on later requests.
 */
class BrokerRelayTest {
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><r xmlns=\"urn:t\">" + "y".repeat(3000) + "</r></s:Body>"
      + "</s:Envelope>";
  private final List<String> requestHeads = new CopyOnWriteArrayList<>();
  private final HttpClient caller = HttpClient.newHttpClient();
  private Broker broker;

  @AfterEach
  void stop() throws IOException {
    caller.close();
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void aChunkedReplyHeldWholeGoesOnWithItsLengthAndNoCookieGoesBack() throws Exception {
    try (ServerSocket backend = new ServerSocket(0)) {
      Thread.ofVirtual().start(() -> answerChunkedWithACookie(backend, 2));
      broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n    to: "
          + "http://127.0.0.1:" + backend.getLocalPort() + "/x\n")).build().start();
      for (int i = 0; i < 2; i++) {
        HttpResponse<byte[]> r = caller.send(HttpRequest.newBuilder(broker.uri("/echo"))
            .header("Content-Type", "text/xml; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofString(ENVELOPE)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(ENVELOPE);
        assertThat(r.headers().firstValue("Content-Length"))
            .hasValue(Integer.toString(r.body().length));
        assertThat(r.headers().firstValue("Transfer-Encoding")).isEmpty();
      }
    }
    assertThat(requestHeads).hasSize(2);
    assertThat(requestHeads.get(1).toLowerCase(Locale.ROOT)).doesNotContain("\ncookie:");
  }

  /** Answers {@code count} requests on one kept-alive connection, each in two chunks. */
  private void answerChunkedWithACookie(ServerSocket backend, int count) {
    try (Socket s = backend.accept()) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      byte[] body = ENVELOPE.getBytes(StandardCharsets.UTF_8);
      int half = body.length / 2;
      for (int i = 0; i < count; i++) {
        readRequest(in);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\n"
            + "Set-Cookie: session=backend-" + i + "\r\nTransfer-Encoding: chunked\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        writeChunk(out, body, 0, half);
        writeChunk(out, body, half, body.length - half);
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
    } catch (IOException e) {
      // the test sees the outcome on the caller's side
    }
  }

  /** Reads one request with a Content-Length, keeping its head. */
  private void readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the request ended in its head");
      }
      head.write(b);
    }
    String text = head.toString(StandardCharsets.US_ASCII);
    requestHeads.add(text);
    int at = text.toLowerCase(Locale.ROOT).indexOf("\ncontent-length:");
    int end = text.indexOf("\r\n", at + 1);
    in.readNBytes(Integer.parseInt(text.substring(at + 16, end).trim()));
  }

  private static void writeChunk(OutputStream out, byte[] b, int off, int len)
      throws IOException {
    out.write((Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(b, off, len);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
  }
}
