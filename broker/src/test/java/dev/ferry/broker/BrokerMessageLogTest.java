package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.logging.MessageLog;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.testkit.LogCapture;
import dev.ferry.testkit.SecretCorpus;
import dev.ferry.xop.Attachment;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A broker with a message log, between a client and a server without one: each envelope of the
 * secret corpus (held by the broker) is logged as the caller sent it and as the reply went back
 * with none of its secrets, while the backend gets the bytes a broker without the log sends it
 * (the caller's envelope with the broker's trace header, whose time alone differs); an MTOM
 * upload over {@code holdBytes} (streamed) is logged by its attachment's Content-ID, type and
 * size, which reaches the backend whole; and the cap holds.
 */
class BrokerMessageLogTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final int CAP = 4096;
  private static final MessageLog LOG = MessageLog.builder().maxBytes(CAP)
      .maskNames(SecretCorpus.NAMES.toArray(String[]::new)).maskHeaders(SecretCorpus.HEADER)
      .build();
  private static final AtomicReference<ByteString> received = new AtomicReference<>();
  private static SoapServer server;
  private static Broker broker;
  private static Broker unlogged;
  private static SoapClient client;

  @BeforeAll
  static void start() throws IOException {
    Dispatcher echo = Dispatcher.builder().fallback(m -> {
      received.set(m.buffer().envelope());
      return m.toPayload();
    }).build();
    Dispatcher upload = Dispatcher.builder().fallback(m -> {
      long xs = 0;
      for (Attachment a : m.attachments().attachments()) {
        try (InputStream in = a.openStream()) {
          xs += Blobs.count(in, (byte) 'x');
        }
      }
      String counted = "<counted xmlns=\"urn:test\">" + xs + "</counted>";
      return CODEC.payload(m.version(), MtomPolicy.NEVER, List.of(),
          body -> body.writeRaw(counted));
    }).build();
    server = SoapServer.builder().endpoint("/echo", echo).endpoint("/upload", upload).build()
        .start();
    Routes routes = Routes.parse("routes:\n"
        + "  - path: /echo\n    to: " + server.uri("/echo") + "\n"
        + "  - path: /upload\n    to: " + server.uri("/upload") + "\n");
    broker = Broker.builder().messageLog(LOG).routes(routes).build().start();
    unlogged = Broker.builder().routes(routes).build().start();
    client = SoapClient.builder().build();
  }

  @AfterAll
  static void stop() throws IOException {
    client.close();
    broker.close();
    unlogged.close();
    server.close();
  }

  static List<String> envelopes() {
    return SecretCorpus.envelopes();
  }

  @ParameterizedTest
  @MethodSource("envelopes")
  void noSecretIsLoggedAndTheBackendGetsTheCallersEnvelope(String envelope) throws IOException {
    ByteString sent = ByteString.encodeUtf8(envelope);
    SoapRequest request = withSecretHeaders(SoapRequest.builder(broker.uri("/echo"),
        CODEC.read(sent, "text/xml").toMessage().toPayload()));
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      try (SoapResponse r = client.call(request)) {
        assertThat(r.status()).isEqualTo(200);
        // the echo's reply is the envelope the backend got, which comes back unchanged
        assertThat(r.buffer().envelope()).isEqualTo(received.get());
      }
      assertThat(forwarded()).as("what the backend got").isEqualTo(forwardedUnlogged(sent));
      List<String> records = awaitReply(logs);
      assertThat(records).extracting(s -> s.split(" \\d+ ")[0])
          .containsExactly("broker request", "broker reply");
      for (String record : records) {
        assertThat(SecretCorpus.leaked(record)).as(record).isNull();
        assertThat(record).contains("alice").contains("<s:Envelope");
      }
      assertThat(records.get(0)).startsWith("broker request ").contains(" POST /echo from ")
          .contains("Authorization: ***").contains("X-Session: ***")
          .contains("SOAPAction: \"urn:login\"");
      assertThat(records.get(1)).startsWith("broker reply ").contains(" 200\n");
    }
  }

  @Test
  void aStreamedUploadIsLoggedByItsAttachmentWhichReachesTheBackendWhole() throws IOException {
    long size = 8L * 1024 * 1024; // far past holdBytes (64 KiB): the request streams
    SoapRequest request = withSecretHeaders(SoapRequest.builder(broker.uri("/upload"),
        EchoService.request(CODEC, SoapVersion.SOAP_12, MtomPolicy.ALWAYS, "upload",
            Blobs.filler(size), size)));
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      try (SoapResponse r = client.call(request)) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.buffer().body().utf8()).contains(">" + size + "</counted>");
      }
      List<String> records = awaitReply(logs);
      for (String record : records) {
        assertThat(SecretCorpus.leaked(record)).as(record).isNull();
      }
      // the envelope's record once it was read, the attachment's with it or after it
      String requests = String.join("\n", records.stream()
          .filter(s -> s.startsWith("broker request ")).toList());
      assertThat(requests).contains("<t:name>upload</t:name>")
          .contains("Authorization: ***").contains("X-Session: ***")
          .containsPattern("\nattachment <[^>]+> application/octet-stream " + size + " bytes");
      assertThat(requests.length()).isLessThan(CAP + 4096);
      assertThat(records).filteredOn(s -> s.startsWith("broker reply "))
          .singleElement().asString().contains(">" + size + "</counted>");
    }
  }

  @Test
  void theCapHoldsBothWays() throws IOException {
    StringBuilder b = new StringBuilder("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/"
        + "soap/envelope/\"><s:Body><list>");
    while (b.length() < 200_000) {
      b.append("<item>alice</item>");
    }
    ByteString sent = ByteString.encodeUtf8(b.append("</list></s:Body></s:Envelope>")
        .toString());
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER);
        SoapResponse r = client.call(broker.uri("/echo"),
            CODEC.read(sent, "text/xml").toMessage().toPayload(), null)) {
      long replied = r.buffer().envelope().size(); // with the broker's trace header
      assertThat(r.buffer().envelope()).isEqualTo(received.get());
      assertThat(forwarded()).as("what the backend got").isEqualTo(forwardedUnlogged(sent));
      r.close();
      List<String> records = awaitReply(logs);
      assertThat(records).hasSize(2);
      for (String record : records) {
        assertThat(record.length()).isLessThan(CAP + 1024);
      }
      assertThat(records.get(0)).startsWith("broker request ")
          .contains("[... " + (sent.size() - CAP) + " more envelope bytes");
      assertThat(records.get(1)).startsWith("broker reply ")
          .contains("[... " + (replied - CAP) + " more envelope bytes");
    }
  }

  /** What the backend got last, the time in the broker's trace header left out. */
  private static String forwarded() {
    return received.get().utf8().replaceFirst("(ferry-broker )[0-9a-f]+<", "$1<");
  }

  /** What the backend gets of {@code sent} through a broker without a message log. */
  private static String forwardedUnlogged(ByteString sent) throws IOException {
    try (SoapResponse r = client.call(unlogged.uri("/echo"),
        CODEC.read(sent, "text/xml").toMessage().toPayload(), null)) {
      assertThat(r.status()).isEqualTo(200);
    }
    String got = forwarded();
    assertThat(got).as("a broker adds its trace header").contains("ferry-broker <")
        .hasSizeGreaterThan(sent.size());
    return got;
  }

  private static SoapRequest withSecretHeaders(SoapRequest.Builder request) {
    for (Map.Entry<String, String> h : SecretCorpus.headers()) {
      if (h.getKey().equals("SOAPAction")) {
        request.soapAction("urn:login");
      } else {
        request.header(h.getKey(), h.getValue());
      }
    }
    return request.build();
  }

  /**
   * The records once the reply's was written (it follows the write of the reply's last byte,
   * which the request's records precede).
   */
  private static List<String> awaitReply(LogCapture logs) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (logs.messages().stream().noneMatch(s -> s.startsWith("broker reply "))
        && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
    return logs.messages();
  }
}
