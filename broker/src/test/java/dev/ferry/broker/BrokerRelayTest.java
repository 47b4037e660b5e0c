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
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the broker does with the HTTP around a reply: a chunked backend reply it held whole goes
 * to the caller with its length, a streamed one reaches the caller as it comes, and a
 * backend's cookies are never sent on later requests.
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

  /**
   * A reply past holdBytes streams: what the backend sent reaches the caller while the backend
   * waits, not only at the reply's end (the pieces of each read go out in one flush).
   */
  @Test
  void aStreamedReplyReachesTheCallerBeforeItsEnd() throws Exception {
    byte[] reply = new byte[300 * 1024];
    new Random(7).nextBytes(reply);
    int first = 200 * 1024; // past holdBytes (64 KiB): the reply streams
    CountDownLatch callerHasFirst = new CountDownLatch(1);
    AtomicBoolean firstCameBeforeTheEnd = new AtomicBoolean();
    try (ServerSocket backend = new ServerSocket(0)) {
      Thread.ofVirtual().start(() -> {
        try (Socket s = backend.accept()) {
          readRequest(s.getInputStream());
          OutputStream out = s.getOutputStream();
          out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
          for (int at = 0; at < first; at += 4096) {
            writeChunk(out, reply, at, 4096);
          }
          out.flush();
          firstCameBeforeTheEnd.set(callerHasFirst.await(10, TimeUnit.SECONDS));
          writeChunk(out, reply, first, reply.length - first);
          out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
        } catch (IOException | InterruptedException e) {
          // the caller's side sees the outcome
        }
      });
      broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n    to: "
          + "http://127.0.0.1:" + backend.getLocalPort() + "/x\n")).build().start();
      HttpResponse<InputStream> r = caller.send(HttpRequest.newBuilder(broker.uri("/echo"))
          .header("Content-Type", "text/xml; charset=utf-8")
          .POST(HttpRequest.BodyPublishers.ofString(ENVELOPE)).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      try (InputStream body = r.body()) {
        got.write(body.readNBytes(first));
        callerHasFirst.countDown();
        body.transferTo(got);
      }
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(firstCameBeforeTheEnd).as("the first 200 KiB reached the caller while the"
          + " backend held back the rest").isTrue();
      assertThat(got.toByteArray()).isEqualTo(reply);
    }
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
