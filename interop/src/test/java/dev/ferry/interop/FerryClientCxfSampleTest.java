package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ferry's plain client, as {@code ferry send} uses it, against CXF's own MTOM sample service as
 * CXF ships it (its WSDL says {@code soapAction=""}, its operations are testDataHandler and
 * testByteArray): the SOAPAction is the WSDL's, and every echo comes back whole.
 */
class FerryClientCxfSampleTest {
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"testDataHandler", "testByteArray"})
  void echoesWithTheSoapActionTheSampleShips(String operation) throws Exception {
    MtomEchoImpls.CxfWithWsdl impl = new MtomEchoImpls.CxfWithWsdl();
    try (JaxWsStack.Served s = JaxWsStack.CXF.serve(impl, "/mime-test", false, true);
        SoapClient client = SoapClient.create();
        HttpClient http = HttpClient.newHttpClient()) {
      String wsdl = http.send(HttpRequest.newBuilder(URI.create(s.uri() + "?wsdl")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertThat(wsdl).contains("soapAction=\"\"");
      ByteString blob = ByteString.of(Blobs.of(100 * Blobs.KIB));
      try (SoapResponse r = client.call(s.uri(), EchoService.request(SoapCodec.create(),
          SoapVersion.SOAP_11, MtomPolicy.ALWAYS, operation, "n", blob),
          EchoService.SOAP_ACTION)) {
        assertThat(r.isFault()).as("%s", r.isFault() ? r.fault().reason() : "").isFalse();
        EchoService.Echo echo = EchoService.readEcho(r.message());
        assertThat(echo.name()).isEqualTo("n");
        assertThat(echo.attachinfo()).isEqualTo(blob);
      }
    }
  }
}
