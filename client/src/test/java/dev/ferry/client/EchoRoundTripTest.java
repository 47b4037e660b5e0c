package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.mime.MimeLimits;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Ferry's client against Ferry's server hosting the echo service, over loopback. */
class EchoRoundTripTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static SoapServer server;
  private static SoapClient client;

  @BeforeAll
  static void start() throws IOException {
    server = SoapServer.builder().endpoint("/echo", EchoService.dispatcher()).build().start();
    client = SoapClient.create();
  }

  @AfterAll
  static void stop() throws IOException {
    client.close();
    server.close();
  }

  @ParameterizedTest(name = "{0} bytes, {1}, mtom={2}")
  @CsvSource({
      "0, SOAP_11, true", "0, SOAP_11, false", "1, SOAP_12, true", "3000, SOAP_11, true",
      "3000, SOAP_12, false", "70000, SOAP_11, true", "70000, SOAP_11, false",
      "2000000, SOAP_11, true", "2000000, SOAP_12, false", "2000000, SOAP_12, true"})
  void echoesNameAndBlob(int size, SoapVersion version, boolean mtom) throws IOException {
    ByteString blob = ByteString.of(Blobs.random(size, size));
    MtomPolicy policy = mtom ? MtomPolicy.ALWAYS : MtomPolicy.NEVER;
    try (SoapResponse r = client.call(server.uri("/echo"),
        EchoService.request(CODEC, version, policy, "n\u00e4me <" + size + ">", blob),
        EchoService.SOAP_ACTION)) {
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.isFault()).isFalse();
      assertThat(r.message().version()).isEqualTo(version);
      assertThat(r.contentType()).startsWith(mtom ? "multipart/related" : version.mediaType());
      assertThat(r.buffer().bodyElement()).isEqualTo(EchoService.RESPONSE);
      EchoService.Echo echo = EchoService.readEcho(r.message());
      assertThat(echo.name()).isEqualTo("n\u00e4me <" + size + ">");
      assertThat(echo.attachinfo()).isEqualTo(blob);
    }
  }

  @Test
  void aLimitTheServerHitsIsAFaultNamingIt() throws IOException {
    SoapCodec small = SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder()
        .mime(MimeLimits.builder().maxPartBytes(50_000).build()).build()).build(),
        XopCodec.builder());
    try (SoapServer strict = SoapServer.builder().codec(small)
            .endpoint("/echo", EchoService.dispatcher()).build().start();
        SoapResponse r = client.call(strict.uri("/echo"), EchoService.request(CODEC,
            SoapVersion.SOAP_12, MtomPolicy.ALWAYS, "x", ByteString.of(new byte[80_000])),
            null)) {
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.fault().reason()).contains("MimeLimits.maxPartBytes").contains("> 50000");
      assertThat(r.fault().subcodes()).extracting(q -> q.getLocalPart())
          .containsExactly("LimitExceeded");
    }
  }

  @Test
  void aNonSoapReplyIsAClearClientError() {
    assertThatThrownBy(() -> client.call(server.uri("/nothing-here"), EchoService.request(CODEC,
        SoapVersion.SOAP_11, MtomPolicy.NEVER, "x", ByteString.of()), null))
        .isInstanceOf(SoapHttpException.class).hasMessageContaining("HTTP 404");
  }
}
