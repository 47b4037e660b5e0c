package dev.ferry.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.server.ServerOptions;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bodies gathered before the servlet runs reach it whole and in order, whether they fit the
 * bounds or not, and what was gathered is given back when the request ends, however it ends.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EagerBodiesTest {

  /** Answers the SHA-256 of the body it read and its length. */
  private static final class Digest extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
      try {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        long n = 0;
        byte[] buf = new byte[8192];
        InputStream in = req.getInputStream();
        for (int k; (k = in.read(buf)) >= 0; ) {
          md.update(buf, 0, k);
          n += k;
        }
        byte[] body = (n + " " + HexFormat.of().formatHex(md.digest()))
            .getBytes(StandardCharsets.US_ASCII);
        resp.setContentLength(body.length);
        resp.getOutputStream().write(body);
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IOException(e);
      }
    }
  }

  @Test
  void chunkedBodiesInSmallPiecesBelowAndAboveTheBoundsArriveWholeAndAreGivenBack()
      throws Exception {
    try (JettyHost host = new JettyHost("127.0.0.1", 0, Map.of("/d", new Digest()), () -> "",
        ServerOptions.DEFAULTS)) {
      host.start();
      for (int size : new int[] {0, 1, 4_000, 1 << 20,
          (int) EagerBodies.MAX_REQUEST_BYTES + 300_000}) {
        byte[] body = new byte[size];
        new Random(size).nextBytes(body);
        String answer = postChunked(host.port(), body, 4096);
        assertThat(answer).isEqualTo(size + " "
            + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)));
        awaitNothingHeld(host);
      }
    }
  }

  @Test
  void aSenderThatLeavesMidBodyGivesBackWhatWasGathered() throws Exception {
    try (JettyHost host = new JettyHost("127.0.0.1", 0, Map.of("/d", new Digest()), () -> "",
        ServerOptions.DEFAULTS)) {
      host.start();
      for (int i = 0; i < 20; i++) {
        try (Socket s = new Socket("127.0.0.1", host.port())) {
          OutputStream out = s.getOutputStream();
          out.write(head().getBytes(StandardCharsets.US_ASCII));
          byte[] piece = new byte[100_000];
          out.write(chunk(piece, 0, piece.length));
          out.flush();
          // gone before the last chunk
        }
      }
      awaitNothingHeld(host);
    }
  }

  @Test
  void sendersHoldingEveryGatheredByteLeaveOthersServedAndGiveItBack() throws Exception {
    try (JettyHost host = new JettyHost("127.0.0.1", 0, Map.of("/d", new Digest()), () -> "",
        ServerOptions.DEFAULTS)) {
      host.start();
      int senders = (int) (EagerBodies.MAX_TOTAL_BYTES / (14L << 20)) + 1; // 14 MiB each
      java.util.List<Socket> stalled = new java.util.ArrayList<>();
      try {
        byte[] piece = new byte[1 << 20];
        for (int i = 0; i < senders; i++) {
          Socket s = new Socket("127.0.0.1", host.port());
          stalled.add(s);
          OutputStream out = s.getOutputStream();
          out.write(head().getBytes(StandardCharsets.US_ASCII));
          for (int k = 0; k < 14; k++) {
            out.write(chunk(piece, 0, piece.length));
          }
          out.flush(); // and then nothing more
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (host.gatheredBodyBytes() < EagerBodies.MAX_TOTAL_BYTES - (14L << 20)
            && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertThat(host.gatheredBodyBytes()).isBetween(
            EagerBodies.MAX_TOTAL_BYTES - (14L << 20), EagerBodies.MAX_TOTAL_BYTES);
        byte[] body = new byte[200_000]; // past the bound: read as it comes, and answered
        new Random(3).nextBytes(body);
        assertThat(postChunked(host.port(), body, 4096)).isEqualTo(body.length + " "
            + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)));
      } finally {
        for (Socket s : stalled) {
          s.close();
        }
      }
      awaitNothingHeld(host);
    }
  }

  private static void awaitNothingHeld(JettyHost host) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (host.gatheredBodyBytes() != 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(host.gatheredBodyBytes()).isZero();
  }

  private static String head() {
    return "POST /d HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
  }

  private static byte[] chunk(byte[] b, int off, int len) {
    ByteArrayOutputStream c = new ByteArrayOutputStream(len + 16);
    c.writeBytes((Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    c.write(b, off, len);
    c.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    return c.toByteArray();
  }

  /** Sends {@code body} chunked in pieces of {@code piece} bytes, each written and flushed. */
  private static String postChunked(int port, byte[] body, int piece) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      OutputStream out = s.getOutputStream();
      out.write(head().getBytes(StandardCharsets.US_ASCII));
      for (int off = 0; off < body.length; off += piece) {
        out.write(chunk(body, off, Math.min(piece, body.length - off)));
        out.flush();
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String reply = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      assertThat(reply).startsWith("HTTP/1.1 200");
      return reply.substring(reply.indexOf("\r\n\r\n") + 4);
    }
  }
}
