package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.logging.MessageLog;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Allocations;
import dev.ferry.testkit.Blobs;
import dev.ferry.testkit.LogCapture;
import dev.ferry.testkit.SecretCorpus;
import dev.ferry.xop.Attachment;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ferry's client calling Ferry's server, both with a message log: every request and reply of
 * the secret corpus is logged at both ends with none of its secrets, the endpoint and the caller
 * get the bytes they would get without the log, and a 100 MiB MTOM upload is logged by its
 * attachment's Content-ID, type and size without either end holding it for the log.
 */
class MessageLogTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final MessageLog LOG = MessageLog.builder().maxBytes(4096)
      .maskNames(SecretCorpus.NAMES.toArray(String[]::new)).maskHeaders(SecretCorpus.HEADER)
      .build();
  private static SoapServer server;
  private static SoapClient client;

  @BeforeAll
  static void start() throws IOException {
    Dispatcher echo = Dispatcher.builder().fallback(m -> m.toPayload()).build();
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
    server = SoapServer.builder().options(ServerOptions.builder().messageLog(LOG).build())
        .endpoint("/echo", echo).endpoint("/upload", upload).build().start();
    client = SoapClient.builder().messageLog(LOG).build();
  }

  @AfterAll
  static void stop() throws IOException {
    client.close();
    server.close();
  }

  static List<String> envelopes() {
    return SecretCorpus.envelopes();
  }

  @ParameterizedTest
  @MethodSource("envelopes")
  void noSecretIsLoggedAtEitherEndAndTheEnvelopeComesBackUnchanged(String envelope)
      throws IOException {
    ByteString sent = ByteString.encodeUtf8(envelope);
    SoapRequest.Builder request = SoapRequest.builder(server.uri("/echo"),
        CODEC.read(sent, "text/xml").toMessage().toPayload());
    for (Map.Entry<String, String> h : SecretCorpus.headers()) {
      if (h.getKey().equals("SOAPAction")) {
        request.soapAction("urn:login");
      } else {
        request.header(h.getKey(), h.getValue());
      }
    }
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      try (SoapResponse r = client.call(request.build())) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.buffer().envelope()).isEqualTo(sent);
      }
      List<String> records = awaitRecords(logs, 4);
      assertThat(records).extracting(s -> s.split(" \\d+ ")[0])
          .containsExactlyInAnyOrder("client request", "request", "reply", "client reply");
      for (String record : records) {
        assertThat(SecretCorpus.leaked(record)).as(record).isNull();
        assertThat(record).contains("alice").contains("<s:Envelope");
      }
      assertThat(records).filteredOn(s -> s.contains("request"))
          .allMatch(s -> s.contains("Authorization: ***") && s.contains("X-Session: ***")
              && s.contains("SOAPAction: \"urn:login\""));
    }
  }

  @Test
  void a100MiBUploadIsLoggedByItsAttachmentNotHeld() throws IOException {
    long size = 100L * 1024 * 1024;
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER)) {
      long before = Allocations.currentThread();
      try (SoapResponse r = client.call(server.uri("/upload"), EchoService.request(CODEC,
          SoapVersion.SOAP_12, MtomPolicy.ALWAYS, "upload", Blobs.filler(size), size), null)) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.buffer().body().utf8()).contains(">" + size + "</counted>");
      }
      long allocated = Allocations.currentThread() - before;
      List<String> records = awaitRecords(logs, 5); // the server's request comes in two
      String attachment = " application/octet-stream " + size + " bytes";
      assertThat(records).filteredOn(s -> s.startsWith("client request "))
          .singleElement().asString().contains(attachment).contains("<t:name>upload</t:name>");
      assertThat(records).filteredOn(s -> s.startsWith("request ") && s.contains("(continued)"))
          .singleElement().asString().contains(attachment);
      assertThat(records).filteredOn(s -> s.startsWith("reply "))
          .singleElement().asString().contains(">" + size + "</counted>");
      // the client's thread wrote 100 MiB through its tap: neither held it
      assertThat(allocated).as("bytes the calling thread allocated").isLessThan(32L << 20);
    }
  }

  @Test
  void theCapHoldsOnTheWire() throws IOException {
    StringBuilder b = new StringBuilder("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/"
        + "soap/envelope/\"><s:Body><list>");
    while (b.length() < 200_000) {
      b.append("<item>alice</item>");
    }
    ByteString sent = ByteString.encodeUtf8(b.append("</list></s:Body></s:Envelope>")
        .toString());
    try (LogCapture logs = LogCapture.of(MessageLog.LOGGER);
        SoapResponse r = client.call(server.uri("/echo"),
            CODEC.read(sent, "text/xml").toMessage().toPayload(), null)) {
      assertThat(r.buffer().envelope()).isEqualTo(sent);
      r.close();
      for (String record : awaitRecords(logs, 4)) {
        assertThat(record.length()).isLessThan(4096 + 1024);
        assertThat(record).contains("[... " + (sent.size() - 4096) + " more envelope bytes");
      }
    }
  }

  /** The records once {@code n} were written (the server's reply record follows its reply). */
  private static List<String> awaitRecords(LogCapture logs, int n) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (logs.messages().size() < n && System.nanoTime() < deadline) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
    return logs.messages();
  }
}
