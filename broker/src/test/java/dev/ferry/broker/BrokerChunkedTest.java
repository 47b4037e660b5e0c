package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MimeLimits;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import io.netty.util.ResourceLeakDetector;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Chunked requests on real loopback traffic: one whose body turns out to fit {@code holdBytes}
 * takes the held path (the backend gets it with a Content-Length, as it gets a sized one),
 * one that outgrows it streams (the backend gets it chunked) with nothing of what was held
 * lost, reordered or sent twice; slow chunks, a caller gone mid-request and the codec's limits
 * on both sides of the line.
 */
class BrokerChunkedTest {
  private static final int HOLD = 16 * 1024;
  private static final String BOUNDARY = "chunked-boundary-7";
  private static final String MTOM = "multipart/related; type=\"application/xop+xml\"; boundary="
      + BOUNDARY + "; start=\"<root>\"; start-info=\"text/xml\"";
  private static final SoapCodec CODEC = SoapCodec.create();
  @AutoClose
  final Closer open = new Closer();
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private Broker broker;

  /** What the backend got: the request's head and its body, unframed. */
  private record Received(String head, byte[] body) {
    boolean chunked() {
      return "chunked".equalsIgnoreCase(field(head, "transfer-encoding"));
    }

    String contentLength() {
      return field(head, "content-length");
    }

    Message message() throws IOException {
      return CODEC.read(new ByteArrayInputStream(body), field(head, "content-type")).toMessage();
    }
  }

  /** What the caller got back. */
  private record Answer(int status, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {300, 5_000, HOLD})
  void aChunkedRequestThatFitsIsHeldAndGoesOnWithItsLength(int size) throws Exception {
    start(SoapCodec.create(), Duration.ofSeconds(20));
    byte[] sent = envelope(size);
    Answer a = postChunked("text/xml; charset=utf-8", sent, 997, 0);
    assertThat(a.status()).isEqualTo(200);
    Received got = only();
    assertThat(got.chunked()).isFalse();
    assertThat(got.contentLength()).isEqualTo(Integer.toString(got.body().length));
    assertThat(a.body()).isEqualTo(got.body()); // the reply, byte for byte
    assertThat(body(got.body())).isEqualTo(body(sent)); // the Body, as the caller sent it
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {HOLD + 1, 200_000})
  void aChunkedRequestThatOutgrowsHoldBytesStreamsWhole(int size) throws Exception {
    start(SoapCodec.create(), Duration.ofSeconds(20));
    byte[] sent = envelope(size);
    Answer a = postChunked("text/xml; charset=utf-8", sent, 3001, 0);
    assertThat(a.status()).isEqualTo(200);
    Received got = only();
    assertThat(got.chunked()).isTrue();
    assertThat(a.body()).isEqualTo(got.body());
    assertThat(body(got.body())).isEqualTo(body(sent));
  }

  @Test
  void aChunkedMtomRequestThatOutgrowsHoldBytesStreamsWithItsAttachmentWhole() throws Exception {
    start(SoapCodec.create(), Duration.ofSeconds(20));
    ByteString blob = blob(100_000);
    Answer a = postChunked(MTOM, mtom("streamed", blob), 4096, 0);
    assertThat(a.status()).isEqualTo(200);
    Received got = only();
    assertThat(got.chunked()).isTrue();
    assertThat(a.body()).isEqualTo(got.body());
    Message m = got.message();
    assertThat(m.body().utf8()).contains("<note>streamed</note>");
    assertThat(m.attachments().attachment("att").bytes()).isEqualTo(blob);
  }

  @Test
  void aChunkedMtomRequestThatFitsIsHeld() throws Exception {
    start(SoapCodec.create(), Duration.ofSeconds(20));
    ByteString blob = blob(6_000);
    Answer a = postChunked(MTOM, mtom("held", blob), 1500, 0);
    assertThat(a.status()).isEqualTo(200);
    Received got = only();
    assertThat(got.chunked()).isFalse();
    assertThat(a.body()).isEqualTo(got.body());
    assertThat(got.message().attachments().attachment("att").bytes()).isEqualTo(blob);
  }

  /** Chunks that come slowly, each flushed alone: held below the line, streamed past it. */
  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {12_000, 24_000})
  void slowChunksArriveWhole(int size) throws Exception {
    start(SoapCodec.create(), Duration.ofSeconds(20));
    byte[] sent = envelope(size);
    Answer a = postChunked("text/xml; charset=utf-8", sent, 1000, 10);
    assertThat(a.status()).isEqualTo(200);
    Received got = only();
    assertThat(got.chunked()).isEqualTo(size > HOLD);
    assertThat(a.body()).isEqualTo(got.body());
    assertThat(body(got.body())).isEqualTo(body(sent));
  }

  /**
   * A limit the codec holds reads the same on either path: a Sender fault naming it, the
   * backend never reached.
   */
  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {10_000, 60_000})
  void theCodecsLimitsHoldForChunkedRequests(int size) throws Exception {
    start(SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder().maxRootBytes(4096)
        .mime(MimeLimits.builder().build()).build()).build(), XopCodec.builder()),
        Duration.ofSeconds(20));
    Answer a = postChunked("text/xml; charset=utf-8", envelope(size), 2000, 0);
    assertThat(a.status()).isEqualTo(500);
    assertThat(a.text()).contains("Client").contains("maxRootBytes");
    assertThat(received).isEmpty();
    Settled.await(broker);
  }

  /**
   * A caller that stops mid-request, and one that leaves: the held bytes are released (no
   * buffer leaks), nothing reaches the backend, and the broker serves the next caller.
   */
  @Test
  void aCallerGoneWhileItsRequestIsHeldLeavesNothingBehind() throws Exception {
    start(SoapCodec.create(), Duration.ofMillis(300));
    List<String> leaks = new CopyOnWriteArrayList<>();
    ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
    ResourceLeakDetector<?> detector = byteBufLeakDetector();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    detector.setLeakListener((type, records) -> leaks.add(records));
    try {
      byte[] sent = envelope(12_000);
      for (int i = 0; i < 20; i++) {
        try (Socket s = connect()) {
          writeHead(s.getOutputStream(), "text/xml; charset=utf-8");
          writeChunk(s.getOutputStream(), sent, 0, 5000);
          if (i % 2 == 0) {
            continue; // the caller leaves
          }
          assertThat(s.getInputStream().read()).isEqualTo(-1); // stalled: disconnected
        }
      }
      Settled.await(broker);
      long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
      while (System.nanoTime() < deadline && leaks.isEmpty()) {
        System.gc();
        Thread.sleep(50);
        assertThat(postChunked("text/xml; charset=utf-8", envelope(300), 100, 0).status())
            .isEqualTo(200); // new buffers tracked: the detector reports what was collected
      }
      assertThat(leaks).isEmpty();
      assertThat(received).allSatisfy(r -> assertThat(r.body().length).isLessThan(1000));
    } finally {
      detector.setLeakListener(null);
      ResourceLeakDetector.setLevel(level);
    }
  }

  // ---- the broker, its backend and its caller ----

  private void start(SoapCodec codec, Duration requestTimeout) throws IOException {
    ServerSocket backend = open.keep(new ServerSocket(0));
    Thread.ofVirtual().start(() -> echo(backend));
    broker = open.keep(Broker.builder().codec(codec)
        .options(BrokerOptions.builder().holdBytes(HOLD).requestTimeout(requestTimeout).build())
        .routes(Routes.parse("routes:\n  - path: /echo\n    to: http://127.0.0.1:"
            + backend.getLocalPort() + "/x\n")).build().start());
  }

  private Received only() {
    assertThat(received).hasSize(1);
    return received.get(0);
  }

  /** Answers every request on every connection with the body it came with. */
  private void echo(ServerSocket backend) {
    while (!backend.isClosed()) {
      try {
        Socket s = backend.accept();
        Thread.ofVirtual().start(() -> echoOn(s));
      } catch (IOException e) {
        return; // closed with the test
      }
    }
  }

  private void echoOn(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      String head;
      while ((head = head(in)) != null) {
        byte[] body = body(in, head);
        received.add(new Received(head, body));
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: " + field(head, "content-type")
            + "\r\nContent-Length: " + body.length + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
      }
    } catch (IOException e) {
      // the broker closed the connection
    }
  }

  private Socket connect() throws IOException {
    Socket s = new Socket("127.0.0.1", broker.uri("/").getPort());
    s.setTcpNoDelay(true);
    s.setSoTimeout(20_000);
    return s;
  }

  /** Posts {@code body} chunked, {@code chunk} bytes a chunk, each after {@code pauseMs}. */
  private Answer postChunked(String type, byte[] body, int chunk, int pauseMs)
      throws Exception {
    try (Socket s = connect()) {
      OutputStream out = s.getOutputStream();
      writeHead(out, type);
      for (int at = 0; at < body.length; at += chunk) {
        if (pauseMs > 0) {
          Thread.sleep(pauseMs);
        }
        writeChunk(out, body, at, Math.min(chunk, body.length - at));
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String head = head(in);
      assertThat(head).isNotNull();
      return new Answer(Integer.parseInt(head.substring(9, 12)), body(in, head));
    }
  }

  private static void writeHead(OutputStream out, String type) throws IOException {
    out.write(("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + type
        + "\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static void writeChunk(OutputStream out, byte[] b, int off, int len)
      throws IOException {
    out.write((Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(b, off, len);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** A message's head, or null at the connection's end. */
  private static String head(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    while (b.length() < 4 || !b.substring(b.length() - 4).equals("\r\n\r\n")) {
      int c;
      try {
        c = in.read();
      } catch (SocketException e) {
        c = -1;
      }
      if (c < 0) {
        return null;
      }
      b.append((char) c);
    }
    return b.toString();
  }

  /** A message's body, by its length or its chunks. */
  private static byte[] body(InputStream in, String head) throws IOException {
    if ("chunked".equalsIgnoreCase(field(head, "transfer-encoding"))) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (int n; (n = Integer.parseInt(line(in).split(";")[0].strip(), 16)) > 0; ) {
        all.write(in.readNBytes(n));
        line(in);
      }
      line(in); // no trailers
      return all.toByteArray();
    }
    String length = field(head, "content-length");
    return length == null ? in.readAllBytes() : in.readNBytes(Integer.parseInt(length));
  }

  private static String line(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c; (c = in.read()) != '\n'; ) {
      if (c < 0) {
        throw new IOException("the message ended inside its chunks");
      }
      b.append((char) c);
    }
    return b.toString().strip();
  }

  private static String field(String head, String name) {
    return Arrays.stream(head.split("\r\n"))
        .filter(l -> l.toLowerCase(Locale.ROOT).startsWith(name + ":"))
        .map(l -> l.substring(name.length() + 1).trim()).findFirst().orElse(null);
  }

  // ---- the messages ----

  /** A SOAP 1.1 envelope of exactly {@code size} bytes. */
  private static byte[] envelope(int size) {
    String open = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
        + "<r xmlns=\"urn:t\">";
    String close = "</r></s:Body></s:Envelope>";
    StringBuilder text = new StringBuilder(size);
    for (int i = 0; text.length() < size - open.length() - close.length(); i++) {
      text.append((char) ('a' + i % 26));
    }
    return (open + text + close).getBytes(StandardCharsets.UTF_8);
  }

  /** The Body element as the bytes carry it. */
  private static String body(byte[] message) {
    String s = new String(message, StandardCharsets.UTF_8);
    return s.substring(s.indexOf("<s:Body>"), s.indexOf("</s:Body>") + 9);
  }

  private static ByteString blob(int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return ByteString.of(b);
  }

  private static byte[] mtom(String note, ByteString blob) throws IOException {
    String root = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
        + "<s:Body><ping xmlns=\"urn:t\"><data><xop:Include"
        + " xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" href=\"cid:att\"/></data>"
        + "<note>" + note + "</note></ping></s:Body></s:Envelope>";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(("--" + BOUNDARY + "\r\nContent-Type: application/xop+xml; type=\"text/xml\""
        + "\r\nContent-ID: <root>\r\n\r\n" + root + "\r\n--" + BOUNDARY
        + "\r\nContent-Type: application/octet-stream\r\nContent-ID: <att>\r\n\r\n")
        .getBytes(StandardCharsets.UTF_8));
    blob.writeTo(out);
    out.write(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /** The detector every ByteBuf is tracked by (Netty keeps it in a package-private field). */
  private static ResourceLeakDetector<?> byteBufLeakDetector() throws Exception {
    Field f = Class.forName("io.netty.buffer.AbstractByteBuf").getDeclaredField("leakDetector");
    f.setAccessible(true);
    return (ResourceLeakDetector<?>) f.get(null);
  }
}
