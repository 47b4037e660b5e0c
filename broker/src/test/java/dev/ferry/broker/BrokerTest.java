package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Addressing;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The broker between Ferry's client and Ferry's server: forwarding, changes, failures. */
class BrokerTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private final SoapClient client = SoapClient.builder().timeout(Duration.ofSeconds(20)).build();
  private SoapServer server;
  private Broker broker;

  @AfterEach
  void stop() throws IOException {
    client.close();
    if (broker != null) {
      broker.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private Broker broker(String yaml) throws IOException {
    return broker(yaml, CODEC);
  }

  private Broker broker(String yaml, SoapCodec codec) throws IOException {
    broker = Broker.builder().routes(Routes.parse(yaml)).codec(codec).build().start();
    return broker;
  }

  private SoapServer echoServer() throws IOException {
    server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher()).build().start();
    return server;
  }

  @ParameterizedTest(name = "{0} bytes, mtom={1}")
  @CsvSource({"0, true", "5000, false", "5000, true", "3000000, true", "3000000, false"})
  void forwardsEchoesWhole(int size, boolean mtom) throws Exception {
    echoServer();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/echo") + "\n");
    ByteString blob = ByteString.of(Blobs.random(size, 7));
    try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
        SoapVersion.SOAP_11, mtom ? MtomPolicy.ALWAYS : MtomPolicy.NEVER, "via broker", blob),
        EchoService.SOAP_ACTION)) {
      assertThat(r.status()).isEqualTo(200);
      EchoService.Echo echo = EchoService.readEcho(r.message());
      assertThat(echo.name()).isEqualTo("via broker");
      assertThat(echo.attachinfo()).isEqualTo(blob);
    }
    Settled.await(broker);
    assertThat(broker.scrape()).contains("ferry_broker_requests_total");
  }

  @Test
  void rewritesToAndAddsATraceHeader() throws IOException {
    AtomicReference<String> seen = new AtomicReference<>();
    server = SoapServer.builder().endpoint("/svc", Dispatcher.builder().fallback(req -> {
      seen.set(req.addressing().to() + " | " + req.header(Forwarding.TRACE).text());
      return EchoService.echo(req);
    }).build()).build().start();
    broker("routes:\n  - path: /front\n    action: urn:testMtom\n    to: "
        + server.uri("/svc") + "\n");
    HeaderBlock to = HeaderBlock.text(Addressing.TO, "http://public.example/front");
    HeaderBlock action = HeaderBlock.text(Addressing.ACTION, "urn:testMtom");
    try (SoapResponse r = client.call(broker.uri("/front"), CODEC.payload(SoapVersion.SOAP_12,
        MtomPolicy.ALWAYS, List.of(to, action), body -> {
          body.writeStartElement("t", "testMtom", EchoService.NAMESPACE);
          body.writeNamespace("t", EchoService.NAMESPACE);
          body.writeStartElement("t", "name", EchoService.NAMESPACE);
          body.writeCharacters("x");
          body.writeEndElement();
          body.writeStartElement("t", "attachinfo", EchoService.NAMESPACE);
          body.writeBinary(new byte[10_000], 0, 10_000, "application/octet-stream");
          body.writeEndElement();
          body.writeEndElement();
        }), null)) {
      assertThat(r.status()).isEqualTo(200);
      assertThat(EchoService.readEcho(r.message()).length()).isEqualTo(10_000);
    }
    assertThat(seen.get()).startsWith(server.uri("/svc") + " | ferry-broker ");
  }

  @Test
  void writesAnAuditCopyThatParses(@TempDir Path audit) throws IOException {
    echoServer();
    broker("routes:\n  - path: /echo\n    to: " + server.uri("/echo") + "\n    audit: "
        + audit + "\n");
    ByteString blob = ByteString.of(Blobs.random(50_000, 3));
    try (SoapResponse r = client.call(broker.uri("/echo"), EchoService.request(CODEC,
        SoapVersion.SOAP_11, MtomPolicy.ALWAYS, "audited", blob), null)) {
      assertThat(r.status()).isEqualTo(200);
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(audit)) {
      files = s.toList();
    }
    assertThat(files).hasSize(1);
    byte[] all = Files.readAllBytes(files.get(0));
    String text = new String(all, StandardCharsets.ISO_8859_1);
    int split = text.indexOf("\r\n\r\n");
    String contentType = text.substring("Content-Type: ".length(), split);
    try (InputStream in = Files.newInputStream(files.get(0))) {
      in.skipNBytes(split + 4);
      Message copy = CODEC.read(in, contentType).toMessage();
      EchoService.Echo e = EchoService.readEcho(copy);
      assertThat(e.name()).isEqualTo("audited");
      assertThat(e.attachinfo()).isEqualTo(blob);
      assertThat(copy.header(Forwarding.TRACE)).isNotNull();
    }
  }
}
