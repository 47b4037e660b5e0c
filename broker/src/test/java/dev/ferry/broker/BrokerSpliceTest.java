package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.Attachment;
import java.io.ByteArrayInputStream;
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
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the backend gets from the fast path for a small multipart request: the caller's bytes
 * as they came around the changed envelope (same boundary, same attachment bytes and headers),
 * or, where the changed envelope holds the boundary, the package written anew; a broken part
 * after the root is a fault, as when the package was written anew.
 */
class BrokerSpliceTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final String BOUNDARY = "caller-boundary-42";
  private static final String TYPE = "multipart/related; type=\"application/xop+xml\"; boundary="
      + BOUNDARY + "; start=\"<root>\"; start-info=\"text/xml\"";
  private static final String REPLY = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><pong xmlns=\"urn:t\"/></s:Body></s:Envelope>";
  private final HttpClient raw = HttpClient.newHttpClient();
  private Broker broker;

  @AfterEach
  void stop() throws IOException {
    raw.close();
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void theCallersBytesGoOnAroundTheChangedEnvelope() throws Exception {
    byte[] sent = request("plain text");
    Received got = forward(sent);
    assertThat(got.contentType()).isEqualTo(TYPE);
    Message m = got.message();
    assertThat(m.addressing().to()).isEqualTo(got.backend());
    assertThat(m.header(Forwarding.TRACE)).isNotNull();
    assertThat(note(m)).isEqualTo("plain text");
    // everything after the root part's body, byte for byte: the attachment with its own header
    assertThat(afterEnvelope(got.body())).isEqualTo(tail(sent));
    assertThat(attachment(m)).isEqualTo(blob());
  }

  /**
   * A request that came in many small reads: the envelope ends inside one of the caller's later
   * buffers, and what follows it goes on from those buffers, cut where the envelope ended.
   */
  @Test
  void theCallersBytesGoOnWhenTheyCameInManyPieces() throws Exception {
    byte[] sent = request("in pieces");
    Received got = forward(sent, "", 61);
    Message m = got.message();
    assertThat(m.addressing().to()).isEqualTo(got.backend());
    assertThat(note(m)).isEqualTo("in pieces");
    assertThat(afterEnvelope(got.body())).isEqualTo(tail(sent));
    assertThat(attachment(m)).isEqualTo(blob());
  }

  /** A shorter envelope (a long wsa:To made short): what comes before it moves the other way. */
  @Test
  void aShorterEnvelopeGoesOnAsWell() throws Exception {
    byte[] sent = request("short", "http://caller.example/" + "x".repeat(600));
    Received got = forward(sent, "");
    assertThat(got.contentType()).isEqualTo(TYPE);
    assertThat(got.body().length).isLessThan(sent.length);
    assertThat(got.message().addressing().to()).isEqualTo(got.backend());
    assertThat(afterEnvelope(got.body())).isEqualTo(tail(sent));
    assertThat(attachment(got.message())).isEqualTo(blob());
  }

  /** An envelope that grows by more than the room before the request is written anew. */
  @Test
  void anEnvelopeOutgrowingTheRoomIsWrittenAnew() throws Exception {
    String query = "?" + "q".repeat(Exchange.HEADROOM + 100);
    Received got = forward(request("long"), query);
    assertThat(got.contentType()).doesNotContain(BOUNDARY);
    assertThat(got.message().addressing().to()).isEqualTo(got.backend()).endsWith(query);
    assertThat(note(got.message())).isEqualTo("long");
    assertThat(attachment(got.message())).isEqualTo(blob());
  }

  @Test
  void anEnvelopeHoldingTheBoundaryIsWrittenAnew() throws Exception {
    Received got = forward(request("see --" + BOUNDARY + " here"));
    assertThat(got.contentType()).doesNotContain(BOUNDARY);
    Message m = got.message();
    assertThat(m.addressing().to()).isEqualTo(got.backend());
    assertThat(note(m)).isEqualTo("see --" + BOUNDARY + " here");
    assertThat(attachment(m)).isEqualTo(blob());
  }

  /** A root part that states its length would state a wrong one if spliced. */
  @Test
  void aRootWithItsOwnContentLengthIsWrittenAnew() throws Exception {
    String sent = new String(request("sized"), StandardCharsets.ISO_8859_1);
    int rootStart = sent.indexOf("<s:Envelope");
    int rootLength = sent.indexOf("\r\n--" + BOUNDARY, rootStart) - rootStart;
    String sized = sent.replace("Content-ID: <root>\r\n",
        "Content-ID: <root>\r\nContent-Length: " + rootLength + "\r\n");
    Received got = forward(sized.getBytes(StandardCharsets.ISO_8859_1));
    assertThat(got.contentType()).doesNotContain(BOUNDARY);
    assertThat(got.message().addressing().to()).isEqualTo(got.backend());
    assertThat(note(got.message())).isEqualTo("sized");
    assertThat(attachment(got.message())).isEqualTo(blob());
  }

  @Test
  void aBrokenPartAfterTheRootIsASenderFaultAndNotSent() throws Exception {
    byte[] whole = request("cut");
    byte[] cut = Arrays.copyOf(whole, whole.length - 20); // no closing delimiter
    try (ServerSocket backend = new ServerSocket(0)) {
      broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n    to: "
          + "http://127.0.0.1:" + backend.getLocalPort() + "/x\n")).build().start();
      HttpResponse<byte[]> r = raw.send(HttpRequest.newBuilder(broker.uri("/echo"))
          .timeout(Duration.ofSeconds(20)).header("Content-Type", TYPE)
          .POST(HttpRequest.BodyPublishers.ofByteArray(cut)).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertThat(r.statusCode()).isEqualTo(500);
      Fault f = Fault.read(CODEC.read(new ByteArrayInputStream(r.body()),
          r.headers().firstValue("Content-Type").orElseThrow()).toMessage());
      assertThat(f.code()).isEqualTo(SoapVersion.SOAP_11.senderFaultCode());
      Settled.await(broker); // nothing is left in flight after the fault
    }
  }

  private static String note(Message m) {
    String body = m.body().utf8();
    return body.substring(body.indexOf("<note>") + 6, body.indexOf("</note>"));
  }

  private static ByteString attachment(Message m) throws IOException {
    Attachment a = m.attachments().attachment("att");
    return a.bytes();
  }

  /** The bytes right after the first envelope's end tag: the rest of the package. */
  private static String afterEnvelope(byte[] body) {
    String s = new String(body, StandardCharsets.ISO_8859_1);
    return s.substring(s.indexOf("</s:Envelope>") + "</s:Envelope>".length());
  }

  /** The request's bytes from the delimiter after the root part's body on. */
  private static String tail(byte[] body) {
    String s = new String(body, StandardCharsets.ISO_8859_1);
    return s.substring(s.indexOf("\r\n--" + BOUNDARY, s.indexOf("</s:Envelope>")));
  }

  private static ByteString blob() {
    byte[] b = new byte[3000];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return ByteString.of(b);
  }

  /** A small MTOM request, its wsa:To the caller's, {@code note} in its body. */
  private static byte[] request(String note) throws IOException {
    return request(note, "http://caller.example/echo");
  }

  private static byte[] request(String note, String to) throws IOException {
    String root = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\""
        + " xmlns:a=\"http://www.w3.org/2005/08/addressing\"><s:Header>"
        + "<a:To>" + to + "</a:To><a:Action>urn:ping</a:Action></s:Header>"
        + "<s:Body><ping xmlns=\"urn:t\"><data><xop:Include"
        + " xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" href=\"cid:att\"/></data>"
        + "<note>" + note + "</note></ping></s:Body></s:Envelope>";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(("--" + BOUNDARY + "\r\nContent-Type: application/xop+xml; type=\"text/xml\""
        + "\r\nContent-ID: <root>\r\n\r\n" + root + "\r\n--" + BOUNDARY
        + "\r\nContent-Type: application/octet-stream\r\nContent-ID: <att>"
        + "\r\nX-Kept: as it came\r\n\r\n").getBytes(StandardCharsets.UTF_8));
    blob().writeTo(out);
    out.write(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /** What the backend received. */
  private record Received(String backend, String contentType, byte[] body) {
    Message message() throws IOException {
      return CODEC.read(new ByteArrayInputStream(body), contentType).toMessage();
    }
  }

  private Received forward(byte[] body) throws Exception {
    return forward(body, "");
  }

  /**
   * Posts {@code body} through a broker (by its fast path) to a backend that records it; the
   * route's URL ends with {@code query}.
   */
  private Received forward(byte[] body, String query) throws Exception {
    return forward(body, query, 0);
  }

  /**
   * As {@link #forward(byte[], String)}; {@code piece} > 0 sends the body from a socket in pieces
   * of that many bytes, each flushed after a pause, so that the broker reads it in many buffers.
   */
  private Received forward(byte[] body, String query, int piece) throws Exception {
    try (ServerSocket backend = new ServerSocket(0)) {
      CompletableFuture<Received> got = new CompletableFuture<>();
      String to = "http://127.0.0.1:" + backend.getLocalPort() + "/x" + query;
      Thread.ofVirtual().start(() -> record(backend, to, got));
      broker = Broker.builder().routes(Routes.parse("routes:\n  - path: /echo\n    to: " + to
          + "\n")).build().start();
      if (piece > 0) {
        assertThat(postInPieces(body, piece)).startsWith("HTTP/1.1 200");
        return got.get(20, TimeUnit.SECONDS);
      }
      HttpResponse<String> r = raw.send(HttpRequest.newBuilder(broker.uri("/echo"))
          .timeout(Duration.ofSeconds(20)).header("Content-Type", TYPE)
          .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      return got.get(20, TimeUnit.SECONDS);
    }
  }

  /** Posts {@code body} to the broker in flushed pieces; returns the answer's head. */
  private String postInPieces(byte[] body, int piece) throws Exception {
    try (Socket s = new Socket("127.0.0.1", broker.uri("/").getPort())) {
      s.setTcpNoDelay(true);
      s.setSoTimeout(20_000);
      OutputStream out = s.getOutputStream();
      out.write(("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + TYPE
          + "\r\nContent-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      for (int at = 0; at < body.length; at += piece) {
        Thread.sleep(2);
        out.write(body, at, Math.min(piece, body.length - at));
        out.flush();
      }
      return head(s.getInputStream());
    }
  }

  /** Reads one request with a Content-Length, records it and answers with {@link #REPLY}. */
  private static void record(ServerSocket backend, String to, CompletableFuture<Received> got) {
    try (Socket s = backend.accept()) {
      InputStream in = s.getInputStream();
      String head = head(in);
      byte[] body = in.readNBytes(Integer.parseInt(field(head, "content-length")));
      got.complete(new Received(to, field(head, "content-type"), body));
      byte[] reply = REPLY.getBytes(StandardCharsets.UTF_8);
      OutputStream out = s.getOutputStream();
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: "
          + reply.length + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(reply);
      out.flush();
    } catch (IOException | RuntimeException e) {
      got.completeExceptionally(e);
    }
  }

  private static String head(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    while (!b.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("the request ended in its headers");
      }
      b.append((char) c);
    }
    return b.toString();
  }

  private static String field(String head, String name) {
    return Arrays.stream(head.split("\r\n"))
        .filter(l -> l.toLowerCase(Locale.ROOT).startsWith(name + ":"))
        .map(l -> l.substring(name.length() + 1).trim()).findFirst().orElseThrow();
  }
}
