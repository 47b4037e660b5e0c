package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.junit.jupiter.api.Test;

/**
 * How {@link BackendClient#send} hands over a reply taken whole: one that came in one chunk in
 * the client's own buffer (not copied), kept until it is released; one that came in more, copied
 * out, with nothing kept. The client's buffers come from a pool that tracks them.
 */
class BackendClientTest {
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><r xmlns=\"urn:t\">" + "y".repeat(20_000) + "</r></s:Body>"
      + "</s:Envelope>";
  private static final byte[] BODY = ENVELOPE.getBytes(StandardCharsets.UTF_8);

  @Test
  void aReplyInOneChunkIsPassedThroughInTheClientsBufferUntilReleased() throws Exception {
    ArrayByteBufferPool.Tracking pool = new ArrayByteBufferPool.Tracking();
    try (ServerSocket backend = new ServerSocket(0);
        BackendClient client = new BackendClient(Duration.ofSeconds(5), Duration.ofSeconds(5),
            64 * 1024, pool)) {
      Thread.ofVirtual().start(() -> answer(backend, false));
      BackendReply reply = send(client, backend);
      ByteBuffer whole = reply.whole();
      assertThat(whole.isDirect()).as("the client's own buffer").isTrue();
      assertThat(bytes(whole)).isEqualTo(BODY);
      assertThat(pool.getLeaks()).as("the chunk, kept until released").isNotEmpty();
      reply.release();
      reply.release(); // again: nothing more happens
      awaitNoneHeld(pool);
    }
  }

  @Test
  void aReplyInTwoChunksIsCopiedOutAndNothingIsKept() throws Exception {
    ArrayByteBufferPool.Tracking pool = new ArrayByteBufferPool.Tracking();
    try (ServerSocket backend = new ServerSocket(0);
        BackendClient client = new BackendClient(Duration.ofSeconds(5), Duration.ofSeconds(5),
            64 * 1024, pool)) {
      Thread.ofVirtual().start(() -> answer(backend, true));
      BackendReply reply = send(client, backend);
      assertThat(bytes(reply.whole())).isEqualTo(BODY);
      assertThat(reply.length()).isEqualTo(BODY.length);
      awaitNoneHeld(pool);
      reply.close();
    }
  }

  /** The client's own buffers go back to the pool on its thread, just after the hand-over. */
  private static void awaitNoneHeld(ArrayByteBufferPool.Tracking pool)
      throws InterruptedException {
    for (int i = 0; i < 200 && !pool.getLeaks().isEmpty(); i++) {
      Thread.sleep(10);
    }
    assertThat(pool.getLeaks()).isEmpty();
  }

  private static BackendReply send(BackendClient client, ServerSocket backend)
      throws Exception {
    CompletableFuture<BackendReply> replied = new CompletableFuture<>();
    client.send(URI.create("http://127.0.0.1:" + backend.getLocalPort() + "/x"),
        "text/xml; charset=utf-8", ByteBuffer.wrap(BODY), null,
        new BackendClient.ReplyHandler() {
          @Override
          public void replied(BackendReply reply) {
            replied.complete(reply);
          }

          @Override
          public void failed(IOException failure) {
            replied.completeExceptionally(failure);
          }
        });
    return replied.get(10, TimeUnit.SECONDS);
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return a;
  }

  /** Answers one request with {@link #BODY}, written at once or in two writes 100 ms apart. */
  private static void answer(ServerSocket backend, boolean twoWrites) {
    try (Socket s = backend.accept()) {
      s.setTcpNoDelay(true);
      readRequest(s.getInputStream());
      OutputStream out = s.getOutputStream();
      byte[] head = ("HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\n"
          + "Content-Length: " + BODY.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
      if (twoWrites) {
        out.write(head);
        out.write(BODY, 0, 1000);
        out.flush();
        Thread.sleep(100);
        out.write(BODY, 1000, BODY.length - 1000);
      } else {
        byte[] all = new byte[head.length + BODY.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(BODY, 0, all, head.length, BODY.length);
        out.write(all);
      }
      out.flush();
      s.getInputStream().read(); // until the client closes the connection
    } catch (IOException | InterruptedException e) {
      // the test fails on what the client saw
    }
  }

  /** Reads a request's head and its Content-Length body. */
  private static void readRequest(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("closed");
      }
      head.append((char) c);
    }
    int at = head.toString().toLowerCase(java.util.Locale.ROOT).indexOf("content-length:");
    int end = head.indexOf("\r\n", at);
    in.readNBytes(Integer.parseInt(head.substring(at + 15, end).strip()));
  }
}
