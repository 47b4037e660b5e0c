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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which requests the broker's fast path takes, and that what it answers is what the servlet
 * path answers: each fault is tested with a small request (fast path) and a large one
 * (servlet), and which path took it is checked by the fast path's count.
 */
class BrokerFastPathTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  /** Small enough for the fast path with its envelope and MIME framing; the other, not. */
  private static final int SMALL = 5_000;
  private static final int LARGE = 200_000;
  private static final String ENVELOPE = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/"
      + "envelope/\"><s:Body><ping xmlns=\"urn:t\"/></s:Body></s:Envelope>";
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

  /** Runs {@code call} and checks that it went by the fast path if {@code fast}, else not. */
  private void expectPath(boolean fast, ThrowingRunnable call) throws Exception {
    long before = broker.fastPathExchanges();
    call.run();
    assertThat(broker.fastPathExchanges() - before).isEqualTo(fast ? 1 : 0);
  }

  @FunctionalInterface
  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {0, SMALL, 60_000, LARGE})
  void smallRequestsTakeTheFastPathAndEchoWhole(int size) throws Exception {
    echoBroker();
    ByteString blob = ByteString.of(Blobs.random(size, 5));
    expectPath(size < 64 * 1024, () -> {
      try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
          SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "fast", blob), EchoService.SOAP_ACTION)) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(EchoService.readEcho(r.message()).attachinfo()).isEqualTo(blob);
      }
    });
  }

  @Test
  void whatIsNotASmallSoapPostGoesToTheServlets() throws Exception {
    echoBroker();
    expectPath(false, () -> assertThat(get("/health").statusCode()).isEqualTo(200));
    expectPath(false, () -> assertThat(get("/echo?wsdl").statusCode()).isEqualTo(405));
    expectPath(false, () -> assertThat(post("/echo", "text/plain",
        HttpRequest.BodyPublishers.ofString("hello")).statusCode()).isEqualTo(415));
    byte[] envelope = ENVELOPE.getBytes(StandardCharsets.UTF_8);
    // no Content-Length: chunked
    expectPath(false, () -> post("/echo", "text/xml", HttpRequest.BodyPublishers.ofInputStream(
        () -> new ByteArrayInputStream(envelope))));
  }

  @Test
  void theMetricsAndTheAccessLogCountFastPathExchanges() throws Exception {
    // the backend at another path, so that its own access log line is told apart
    server = SoapServer.builder().endpoint("/svc", EchoService.dispatcher()).build().start();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/svc") + "\n", CODEC);
    Logger access = Logger.getLogger("dev.ferry.http.access");
    List<String> lines = new CopyOnWriteArrayList<>();
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        lines.add(record.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    Level level = access.getLevel();
    access.setLevel(Level.INFO);
    access.addHandler(capture);
    try {
      expectPath(true, () -> {
        try (SoapResponse r = client.call(broker.uri("/echo"),
            echoRequest(SoapVersion.SOAP_11, SMALL), EchoService.SOAP_ACTION)) {
          assertThat(r.status()).isEqualTo(200);
        }
      });
    } finally {
      access.removeHandler(capture);
      access.setLevel(level);
    }
    List<String> brokers = lines.stream().filter(l -> l.contains("/echo")).toList();
    assertThat(brokers).hasSize(1);
    assertThat(brokers.get(0)).contains("\"POST /echo\" 200 in=").doesNotContain("in=0 ")
        .doesNotContain("out=0 ");
    assertThat(broker.metrics().inFlight()).isZero();
    assertThat(broker.metrics().scrape())
        .contains("ferry_broker_requests_total{endpoint=\"/echo\",status=\"200\"} 1.0")
        .contains("ferry_broker_latency_seconds_count{endpoint=\"/echo\"} 1")
        .contains("ferry_broker_in_flight_request_bytes 0.0");
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {SMALL, LARGE})
  void noRouteIsASenderFault(int size) throws Exception {
    echoBroker();
    expectPath(size == SMALL, () -> {
      try (SoapResponse r = client.call(broker.uri("/elsewhere"),
          echoRequest(SoapVersion.SOAP_12, size), null)) {
        assertThat(r.status()).isEqualTo(400);
        Fault f = r.fault();
        assertThat(f.code()).isEqualTo(SoapVersion.SOAP_12.senderFaultCode());
        assertThat(f.reason()).contains("no route for /elsewhere");
      }
    });
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {SMALL, LARGE})
  void aBackendThatIsDownIsAReceiverFault(int size) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    broker("timeout: 5s\nroutes:\n  - path: /echo\n    to: http://127.0.0.1:" + port + "/x\n",
        CODEC);
    expectPath(size == SMALL, () -> {
      try (SoapResponse r = client.call(broker.uri("/echo"),
          echoRequest(SoapVersion.SOAP_12, size), null)) {
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.fault().code()).isEqualTo(SoapVersion.SOAP_12.receiverFaultCode());
        assertThat(r.fault().reason()).contains("the backend http://127.0.0.1:" + port)
            .contains("failed");
      }
    });
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
    expectPath(size == SMALL, () -> {
      try (SoapResponse r = client.call(broker.uri("/echo"),
          echoRequest(SoapVersion.SOAP_11, size), null)) {
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.fault().code()).isEqualTo(SoapVersion.SOAP_11.receiverFaultCode());
        assertThat(r.fault().reason()).contains("timed out");
      }
    });
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
    expectPath(size == SMALL, () -> {
      try (SoapResponse r = client.call(broker.uri("/echo"),
          echoRequest(SoapVersion.SOAP_11, size), null)) {
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.fault().code()).isEqualTo(SoapVersion.SOAP_11.senderFaultCode());
        assertThat(r.fault().reason()).contains("MimeLimits.maxPartBytes");
      }
    });
  }

  @Test
  void anUnreadableRequestIsASenderFaultAndAnUnknownEnvelopeAVersionMismatch() throws Exception {
    echoBroker();
    expectPath(true, () -> {
      HttpResponse<byte[]> r = post("/echo", "text/xml",
          HttpRequest.BodyPublishers.ofString("<s:Envelope xmlns:s="));
      assertThat(r.statusCode()).isEqualTo(500);
      assertThat(fault(r).code()).isEqualTo(SoapVersion.SOAP_11.senderFaultCode());
    });
    expectPath(true, () -> {
      HttpResponse<byte[]> r = post("/echo", "text/xml", HttpRequest.BodyPublishers.ofString(
          "<s:Envelope xmlns:s=\"urn:not-soap\"><s:Body/></s:Envelope>"));
      assertThat(r.statusCode()).isEqualTo(500);
      assertThat(fault(r).code()).isEqualTo(SoapVersion.SOAP_11.versionMismatchFaultCode());
    });
  }

  @Test
  void aOneWayReplyGoesBackAs202() throws Exception {
    server = SoapServer.builder().endpoint("/oneway",
        Dispatcher.builder().fallback(req -> null).build()).build().start();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/oneway") + "\n", CODEC);
    expectPath(true, () -> {
      try (SoapResponse r = client.call(broker.uri("/echo"),
          echoRequest(SoapVersion.SOAP_11, SMALL), null)) {
        assertThat(r.status()).isEqualTo(202);
      }
    });
  }

  /** A reply too long to be held streams back from the backend as it comes. */
  @Test
  void aLongReplyToASmallRequestStreamsBackWhole() throws Exception {
    ByteString blob = ByteString.of(Blobs.random(LARGE, 9));
    server = SoapServer.builder().endpoint("/big", Dispatcher.builder().fallback(req ->
        EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "big", blob))
        .build()).build().start();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/big") + "\n", CODEC);
    expectPath(true, () -> {
      try (SoapResponse r = client.call(broker.uri("/echo"),
          echoRequest(SoapVersion.SOAP_11, SMALL), null)) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(EchoService.readEcho(r.message()).attachinfo()).isEqualTo(blob);
      }
    });
  }

  /**
   * Through the servlet (a chunked request), a reply breaking before any of it left the
   * response's 64 KiB buffer, whether held whole (30,000) or streamed (100,000), becomes a fault
   * naming the backend; one breaking after 200 KB went out aborts the caller's connection.
   */
  @ParameterizedTest(name = "Content-Length {0}")
  @ValueSource(ints = {100_000, 30_000})
  void onTheServletPathABreakBeforeAnyByteLeftIsAFault(int length) throws Exception {
    try (ServerSocket backend = new ServerSocket(0)) {
      brokerToBreakingBackend(backend, length, 2000);
      expectPath(false, () -> {
        HttpResponse<byte[]> r = post("/echo", "text/xml", chunked(ENVELOPE));
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(fault(r).reason()).contains("the backend http://127.0.0.1:"
            + backend.getLocalPort() + "/x failed");
      });
    }
  }

  @Test
  void onTheServletPathABreakAfterBytesLeftAbortsTheCaller() throws Exception {
    try (ServerSocket backend = new ServerSocket(0)) {
      brokerToBreakingBackend(backend, 400_000, 200_000);
      expectPath(false, () -> assertThatThrownBy(() -> readReply(chunked(ENVELOPE)))
          .isInstanceOf(IOException.class));
    }
  }

  /**
   * A reply held up to 64 KiB and failing after its headers, or streaming from its headers on,
   * on the fast path, whose reply bytes are written through: the caller's connection is aborted.
   */
  @ParameterizedTest(name = "Content-Length {0}")
  @ValueSource(ints = {100_000, 30_000})
  void aBackendBreakingMidReplyAbortsTheCaller(int length) throws Exception {
    try (ServerSocket backend = new ServerSocket(0)) {
      brokerToBreakingBackend(backend, length, 2000);
      expectPath(true, () -> assertThatThrownBy(() -> readReply(
          HttpRequest.BodyPublishers.ofString(ENVELOPE))).isInstanceOf(IOException.class));
    }
  }

  /** Starts a broker whose /echo goes to {@code backend}, which breaks its reply. */
  private void brokerToBreakingBackend(ServerSocket backend, int length, int sent)
      throws Exception {
    Thread.ofVirtual().start(() -> breakMidReply(backend, length, sent));
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
   * reply of {@code length} bytes, {@code sent} bytes of body in all, and hangs up.
   */
  private static void breakMidReply(ServerSocket backend, int length, int sent) {
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
      String start = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: " + length
          + "\r\n\r\n<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
          + "z".repeat(sent);
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

  private HttpResponse<byte[]> get(String path) throws Exception {
    return raw.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> post(String path, String contentType,
      HttpRequest.BodyPublisher body) throws Exception {
    return raw.send(request(path).header("Content-Type", contentType).POST(body).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static Fault fault(HttpResponse<byte[]> r) throws IOException {
    return Fault.read(CODEC.read(new ByteArrayInputStream(r.body()),
        r.headers().firstValue("Content-Type").orElseThrow()).toMessage());
  }
}
