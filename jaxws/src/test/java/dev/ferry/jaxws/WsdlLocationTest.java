package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.jaxws.internal.BytesSource;
import dev.ferry.jaxws.internal.MtomEchoPort;
import jakarta.activation.DataHandler;
import jakarta.jws.WebService;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

/**
 * {@code @WebService(wsdlLocation = "classpath:...")}, the form CXF's users write: the contract
 * and the schema it imports are read from the class path and served at ?wsdl and ?xsd=...; a
 * location that names nothing, or a contract whose schema is missing, is refused at publish
 * with what and where, and leaves nothing published.
 */
class WsdlLocationTest {
  private static final QName SERVICE = new QName("http://cxf.apache.org/mime", "TestMtomService");

  @WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
      targetNamespace = "http://cxf.apache.org/mime",
      endpointInterface = "dev.ferry.jaxws.internal.MtomEchoPort",
      wsdlLocation = "classpath:wsdl/split/echo.wsdl")
  public static class FromClassPath extends EchoImpl {}

  @WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
      targetNamespace = "http://cxf.apache.org/mime",
      endpointInterface = "dev.ferry.jaxws.internal.MtomEchoPort",
      wsdlLocation = "classpath:/wsdl/nowhere.wsdl")
  public static class Nowhere extends EchoImpl {}

  @WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
      targetNamespace = "http://cxf.apache.org/mime",
      endpointInterface = "dev.ferry.jaxws.internal.MtomEchoPort",
      wsdlLocation = "classpath:wsdl/broken/echo.wsdl")
  public static class SchemaMissing extends EchoImpl {}

  @Test
  void aClassPathContractIsServedWithItsSchemaAndAPortBuiltFromItCalls() throws Exception {
    String address = Ports.url("/split");
    Endpoint endpoint = Endpoint.publish(address, new FromClassPath());
    try (HttpClient http = HttpClient.newHttpClient()) {
      String wsdl = get(http, address + "?wsdl");
      assertThat(wsdl).contains("schemaLocation=\"" + address + "?xsd=types/echo.xsd\"")
          .contains("location=\"" + address + "\"");
      assertThat(get(http, address + "?xsd=types/echo.xsd")).contains("name=\"testMtomResponse\"");

      MtomEchoPort port = Service.create(URI.create(address + "?wsdl").toURL(), SERVICE)
          .getPort(MtomEchoPort.class);
      Holder<String> name = new Holder<>("split");
      Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesSource(new byte[] {1, 2})));
      port.testMtom(name, data);
      assertThat(name.value).isEqualTo("split");
      assertThat(data.value.getInputStream().readAllBytes()).containsExactly(1, 2);
    } finally {
      endpoint.stop();
    }
  }

  @Test
  void aClassPathLocationThatNamesNothingIsRefusedAndLeavesNothingPublished() throws Exception {
    String address = Ports.url("/nowhere");
    assertThatThrownBy(() -> Endpoint.publish(address, new Nowhere()))
        .isInstanceOf(WebServiceException.class)
        .hasMessageContaining("classpath:/wsdl/nowhere.wsdl")
        .hasMessageContaining("no resource /wsdl/nowhere.wsdl on the class path");
    Endpoint.publish(address, new EchoImpl()).stop(); // the address is free
  }

  @Test
  void aMissingSchemaIsNamedWithTheContractImportingIt() {
    assertThatThrownBy(() -> Endpoint.publish(Ports.url("/broken"), new SchemaMissing()))
        .isInstanceOf(WebServiceException.class)
        .hasMessageContaining("types/missing.xsd")
        .hasMessageContaining("imported by")
        .hasMessageContaining("wsdl/broken/echo.wsdl");
  }

  private static String get(HttpClient http, String uri) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(uri)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(uri).isEqualTo(200);
    return r.body();
  }
}
