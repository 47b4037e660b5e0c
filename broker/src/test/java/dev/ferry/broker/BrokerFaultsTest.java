package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.mime.MimeLimits;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import java.io.ByteArrayInputStream;
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
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the broker answers when a request cannot be forwarded or a reply cannot be relayed, each
 * case once. Where the way a request is taken matters, it is tried with a small request (held
 * whole) and a large one (streamed); callers that are not Ferry are the JDK's client or a socket.
 */
class BrokerFaultsTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  /** Held whole by the broker with its envelope and MIME framing; the other, streamed. */
  private static final int SMALL = 5_000;
  private static final int LARGE = 200_000;
  private static final String S11 = "http://schemas.xmlsoap.org/soap/envelope/";
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"" + S11 + "\"><s:Body>"
      + "<ping xmlns=\"urn:t\"/></s:Body></s:Envelope>";
  private final SoapClient client = SoapClient.builder().timeout(Duration.ofSeconds(20)).build();
  private final HttpClient raw = HttpClient.newHttpClient();
  private SoapServer server;
  private Broker broker;

  @AfterEach
  void stop() throws IOException {
    client.close();
    raw.close();
    if (broker != null) {
      broker.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private Broker broker(String yaml, SoapCodec codec) throws IOException {
    broker = Broker.builder().routes(Routes.parse(yaml)).codec(codec).build().start();
    return broker;
  }

  private void echoBroker() throws IOException {
    server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher()).build().start();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/echo") + "\n", CODEC);
  }

  private static Payload echoRequest(SoapVersion version, int size) {
    return EchoService.request(CODEC, version, MtomPolicy.ALWAYS, "x",
        ByteString.of(Blobs.random(size, size)));
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {SMALL, LARGE})
  void noRouteIsASenderFault(int size) throws Exception {
    echoBroker();
    try (SoapResponse r = client.call(broker.uri("/elsewhere"),
        echoRequest(SoapVersion.SOAP_12, size), null)) {
      assertThat(r.status()).isEqualTo(400);
      Fault f = r.fault();
      assertThat(f.code()).isEqualTo(SoapVersion.SOAP_12.senderFaultCode());
      assertThat(f.reason()).contains("no route for /elsewhere");
    }
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {SMALL, LARGE})
  void aBackendThatIsDownIsAReceiverFaultThatKeepsTheBackendToItself(int size) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    broker("timeout: 5s\nroutes:\n  - path: /echo\n    to: http://127.0.0.1:" + port + "/x\n",
        CODEC);
    try (SoapResponse r = client.call(broker.uri("/echo"),
        echoRequest(SoapVersion.SOAP_12, size), null)) {
      assertThat(r.status()).isEqualTo(500);
      assertThat(r.fault().code()).isEqualTo(SoapVersion.SOAP_12.receiverFaultCode());
      assertThat(r.fault().reason()).isEqualTo("the service behind /echo is unavailable");
      assertThat(r.message().toByteString().utf8()).doesNotContain(Integer.toString(port))
          .doesNotContain("Exception");
    }
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {SMALL, LARGE})
  void aSlowBackendIsAFaultWithinTheTimeout(int size) throws Exception {
    server = SoapServer.builder().endpoint("/slow", Dispatcher.builder().fallback(req -> {
      Thread.sleep(10_000);
      return null;
    }).build()).build().start();
    broker("timeout: 500ms\nroutes:\n  - path: /echo\n    to: " + server.uri("/slow") + "\n",
        CODEC);
    long start = System.nanoTime();
    try (SoapResponse r = client.call(broker.uri("/echo"),
        echoRequest(SoapVersion.SOAP_11, size), null)) {
      assertThat(r.status()).isEqualTo(500);
      assertThat(r.fault().code()).isEqualTo(SoapVersion.SOAP_11.receiverFaultCode());
      assertThat(r.fault().reason()).isEqualTo("the service behind /echo timed out");
    }
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {SMALL, LARGE})
  void aLimitHitInTheBrokerIsAFaultNamingTheLimit(int size) throws Exception {
    server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher()).build().start();
    SoapCodec small = SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder()
        .mime(MimeLimits.builder().maxPartBytes(size / 2).build()).build()).build(),
        XopCodec.builder());
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/echo") + "\n", small);
    try (SoapResponse r = client.call(broker.uri("/echo"),
        echoRequest(SoapVersion.SOAP_11, size), null)) {
      assertThat(r.status()).isEqualTo(500);
      assertThat(r.fault().code()).isEqualTo(SoapVersion.SOAP_11.senderFaultCode());
      assertThat(r.fault().reason()).contains("MimeLimits.maxPartBytes");
    }
  }

  @Test
  void anUnreadableRequestIsASenderFaultAndAnUnknownEnvelopeAVersionMismatch() throws Exception {
    echoBroker();
    HttpResponse<byte[]> r = post("/echo", "text/xml",
        HttpRequest.BodyPublishers.ofString("<s:Envelope xmlns:s="));
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(fault(r).code()).isEqualTo(SoapVersion.SOAP_11.senderFaultCode());
    r = post("/echo", "text/xml", HttpRequest.BodyPublishers.ofString(
        "<s:Envelope xmlns:s=\"urn:not-soap\"><s:Body/></s:Envelope>"));
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(fault(r).code()).isEqualTo(SoapVersion.SOAP_11.versionMismatchFaultCode());
    r = post("/echo", "text/xml", HttpRequest.BodyPublishers.ofString(ENVELOPE.replace(
        "</s:Envelope>", "<s:Body><two/></s:Body></s:Envelope>")));
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(fault(r).reason()).contains("after the Body");
  }

  @Test
  void whatIsNotASoapPostIsRefusedByHttp() throws Exception {
    echoBroker();
    assertThat(post("/echo", "application/json", HttpRequest.BodyPublishers.ofString("{}"))
        .statusCode()).isEqualTo(415);
    HttpResponse<byte[]> gzip = raw.send(request("/echo").header("Content-Type", "text/xml")
        .header("Content-Encoding", "gzip").POST(HttpRequest.BodyPublishers.ofString(ENVELOPE))
        .build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(gzip.statusCode()).isEqualTo(415);
    assertThat(new String(gzip.body(), StandardCharsets.UTF_8)).contains("Content-Encoding gzip");
    // a transfer coding other than chunked is not read as if it were the message
    try (Socket s = new Socket("127.0.0.1", broker.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type:"
          + " text/xml\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
          + Integer.toHexString(ENVELOPE.length()) + "\r\n" + ENVELOPE + "\r\n0\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      String status = new java.io.BufferedReader(new java.io.InputStreamReader(
          s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
      assertThat(status).contains("501");
    }
    for (String method : new String[] {"TRACE", "PUT", "DELETE"}) {
      HttpResponse<byte[]> r = raw.send(request("/echo").method(method,
          HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
      assertThat(r.statusCode()).as(method).isEqualTo(405);
    }
    assertThat(raw.send(request("/health").GET().build(), HttpResponse.BodyHandlers.ofString())
        .body()).contains("UP");
  }

  @Test
  void aOneWayReplyGoesBackAs202() throws Exception {
    server = SoapServer.builder().endpoint("/oneway",
        Dispatcher.builder().fallback(req -> null).build()).build().start();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/oneway") + "\n", CODEC);
    try (SoapResponse r = client.call(broker.uri("/echo"),
        echoRequest(SoapVersion.SOAP_11, SMALL), null)) {
      assertThat(r.status()).isEqualTo(202);
    }
  }

  @Test
  void aReplyThatIsNotSoapIsAReceiverFault() throws Exception {
    server = SoapServer.builder().endpoint("/other", EchoService.dispatcher()).build().start();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/nothing-here") + "\n", CODEC);
    try (SoapResponse r = client.call(broker.uri("/echo"),
        echoRequest(SoapVersion.SOAP_11, SMALL), null)) {
      assertThat(r.status()).isEqualTo(500);
      assertThat(r.fault().reason()).contains("not SOAP");
    }
  }

  /** An MTOM request whose xop:Include points at {@code href}; the package has part a@x. */
  private static String includeOf(String href) {
    return "--b\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\n"
        + "Content-ID: <root@x>\r\n\r\n<s:Envelope xmlns:s=\"" + S11 + "\"><s:Body><t:testMtom"
        + " xmlns:t=\"" + EchoService.NAMESPACE + "\"><t:name>n</t:name><t:attachinfo>"
        + "<xop:Include xmlns:xop=\"http://www.w3.org/2004/08/xop/include\" href=\"" + href
        + "\"/></t:attachinfo></t:testMtom></s:Body></s:Envelope>\r\n--b\r\nContent-Type:"
        + " application/octet-stream\r\nContent-ID: <a@x>\r\n\r\n" + "z".repeat(100)
        + "\r\n--b--\r\n";
  }

  @Test
  void anIncludeOfAMissingPartTheRootOrAnotherSchemeIsRefusedAndNeverForwarded()
      throws Exception {
    AtomicInteger reached = new AtomicInteger();
    server = SoapServer.builder().endpoint("/echo", Dispatcher.builder().fallback(req -> {
      reached.incrementAndGet();
      return EchoService.echo(req);
    }).build()).build().start();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/echo") + "\n", CODEC);
    String type = "multipart/related; boundary=b; type=\"application/xop+xml\";"
        + " start=\"<root@x>\"; start-info=\"text/xml\"";
    assertThat(post("/echo", type, HttpRequest.BodyPublishers.ofString(includeOf("cid:a@x")))
        .statusCode()).isEqualTo(200);
    assertThat(reached).hasValue(1);
    String[][] cases = {{"cid:missing@x", "which no part of the package has"},
        {"cid:root@x", "the root part itself"}, {"file:///etc/passwd", "not a cid: URL"},
        {"http://127.0.0.1:9/x", "not a cid: URL"}};
    for (String[] c : cases) {
      for (boolean stream : new boolean[] {false, true}) {
        byte[] body = includeOf(c[0]).getBytes(StandardCharsets.US_ASCII);
        HttpResponse<byte[]> r = post("/echo", type, stream
            ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))
            : HttpRequest.BodyPublishers.ofByteArray(body));
        assertThat(r.statusCode()).as(c[0]).isEqualTo(500);
        assertThat(fault(r).reason()).as(c[0]).contains(c[1]);
      }
    }
    assertThat(reached).hasValue(1);
  }

  /**
   * A reply breaking before the broker sent any of it becomes a fault, whether it was held
   * (30,000) or streamed (100,000); one breaking after bytes went back resets the caller.
   */
  @ParameterizedTest(name = "Content-Length {0}")
  @ValueSource(ints = {30_000, 100_000})
  void aReplyBreakingBeforeAnyOfItWentBackIsAFault(int length) throws Exception {
    try (ServerSocket backend = new ServerSocket(0)) {
      brokerToBreakingBackend(backend, length, length < 64 * 1024 ? 2000 : 0, false);
      HttpResponse<byte[]> r = post("/echo", "text/xml", chunked(ENVELOPE));
      assertThat(r.statusCode()).isEqualTo(500);
      assertThat(fault(r).reason()).isEqualTo("the service behind /echo is unavailable");
    }
  }

  @Test
  void aReplyBreakingAfterBytesWentBackResetsTheCaller() throws Exception {
    try (ServerSocket backend = new ServerSocket(0)) {
      brokerToBreakingBackend(backend, 400_000, 200_000, false);
      assertThatThrownBy(() -> readReply(HttpRequest.BodyPublishers.ofString(ENVELOPE)))
          .isInstanceOf(IOException.class);
    }
  }

  /**
   * A chunked reply breaking mid-way reaches an HTTP/1.0 caller, or one that sent
   * {@code Connection: close}, whose replies end with the connection: the broker resets the
   * connection, so the caller never takes the end of a short reply for a clean one.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"HTTP/1.0", "HTTP/1.1 with Connection: close"})
  void aChunkedReplyBreakingNeverEndsCleanlyForACallerWhoseRepliesEndWithTheConnection(
      String caller) throws Exception {
    try (ServerSocket backend = new ServerSocket(0)) {
      brokerToBreakingBackend(backend, -1, 200_000, true);
      byte[] body = ENVELOPE.getBytes(StandardCharsets.UTF_8);
      String head = (caller.startsWith("HTTP/1.0") ? "POST /echo HTTP/1.0\r\n"
          : "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n")
          + "Content-Type: text/xml\r\nContent-Length: " + body.length + "\r\n\r\n";
      try (Socket s = new Socket("127.0.0.1", broker.port())) {
        s.setSoTimeout(10_000);
        s.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().write(body);
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        assertThatThrownBy(() -> in.transferTo(OutputStream.nullOutputStream()))
            .as("a clean end of a short reply").isInstanceOf(IOException.class);
      }
    }
  }

  /** Starts a broker whose /echo goes to {@code backend}, which breaks its reply. */
  private void brokerToBreakingBackend(ServerSocket backend, int length, int sent,
      boolean chunked) throws Exception {
    Thread.ofVirtual().start(() -> breakMidReply(backend, length, sent, chunked));
    broker("timeout: 5s\nroutes:\n  - path: /echo\n    to: http://127.0.0.1:"
        + backend.getLocalPort() + "/x\n", CODEC);
  }

  /** A body of unknown length: java.net.http sends it chunked. */
  private static HttpRequest.BodyPublisher chunked(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes));
  }

  /** Posts {@code body} as text/xml to the broker's /echo and reads the reply to its end. */
  private void readReply(HttpRequest.BodyPublisher body) throws Exception {
    HttpResponse<InputStream> r = raw.send(request("/echo").header("Content-Type", "text/xml")
        .POST(body).build(), HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = r.body()) {
      in.transferTo(OutputStream.nullOutputStream());
    }
  }

  /**
   * Reads a request to its end (sent whole, or chunked), then sends the start of a SOAP 1.1
   * reply, {@code sent} bytes of body in all (with a Content-Length of {@code length}, or in one
   * chunk of a chunked reply), and hangs up.
   */
  private static void breakMidReply(ServerSocket backend, int length, int sent,
      boolean chunked) {
    try (Socket s = backend.accept()) {
      InputStream in = s.getInputStream();
      StringBuilder request = new StringBuilder();
      byte[] buf = new byte[65536];
      while (!readToItsEnd(request)) {
        int n = in.read(buf);
        if (n < 0) {
          return;
        }
        request.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
      }
      String body = "<s:Envelope xmlns:s=\"" + S11 + "\"><s:Body>" + "z".repeat(sent);
      String start = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n" + (chunked
          ? "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(body.length()) + "\r\n"
          : "Content-Length: " + length + "\r\n\r\n") + body;
      s.getOutputStream().write(start.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
    } catch (IOException e) {
      // the test sees the outcome on the caller's side
    }
  }

  /** Whether {@code request} is whole: a chunked one ends with its last chunk. */
  private static boolean readToItsEnd(StringBuilder request) {
    String r = request.toString();
    return r.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")
        ? r.endsWith("\r\n0\r\n\r\n") : r.endsWith("</s:Envelope>");
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(broker.uri(path)).timeout(Duration.ofSeconds(20));
  }

  private HttpResponse<byte[]> post(String path, String contentType,
      HttpRequest.BodyPublisher body) throws Exception {
    return raw.send(request(path).header("Content-Type", contentType).POST(body).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static Fault fault(HttpResponse<byte[]> r) throws IOException {
    try (var buffer = CODEC.parse(ByteString.of(r.body()))) {
      return Fault.read(buffer.toMessage());
    }
  }
}
