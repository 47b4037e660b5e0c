package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.xml.ws.spi.ProviderImpl;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.Service;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import javax.xml.namespace.QName;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CXF's person contract, split over four files (a WSDL importing a binding WSDL in another
 * folder, importing the port type's WSDL, which includes the schema), published on Ferry from
 * the class path: Ferry serves every document at ?wsdl, ?wsdl=... and ?xsd=... with the
 * locations pointing back at itself, and CXF's, Metro's, zeep's and Ferry's own clients, each
 * built from nothing but the served WSDL, get every field and the declared fault's detail.
 */
class MultiFileContractInteropTest {
  static final QName SERVICE = new QName(PersonImpls.NS, "PersonService");
  static final QName PORT = new QName(PersonImpls.NS, "soap");
  private static final String BINDING_KEY = "../wsdl1/person-soap-binding.wsdl";
  private static final String INTERFACES_KEY = "../wsdl1/person-soap-interfaces.wsdl";
  private static final String TYPES_KEY = "../wsdl1/person-types.xsd";

  private static JaxWsStack.Served ferry;
  private static URI wsdl;
  private static HttpClient http;

  @BeforeAll
  static void publish() {
    ferry = JaxWsStack.FERRY.serve(new PersonImpls.Cxf(), "/person", false, false);
    wsdl = URI.create(ferry.uri() + "?wsdl");
    http = HttpClient.newHttpClient();
  }

  @AfterAll
  static void stop() {
    http.close();
    ferry.close();
  }

  @Test
  void everyDocumentIsServedWithItsLocationsPointingAtTheEndpoint() throws Exception {
    String base = ferry.uri().toString();
    assertThat(get("?wsdl")).contains("location=\"" + base + "?wsdl=" + BINDING_KEY + "\"")
        .contains("<soap:address location=\"" + base + "\"/>");
    assertThat(get("?wsdl=" + BINDING_KEY)).contains("name=\"PersonSOAPBinding\"")
        .contains("location=\"" + base + "?wsdl=" + INTERFACES_KEY + "\"");
    assertThat(get("?wsdl=" + INTERFACES_KEY)).contains("<wsdl:portType name=\"Person\">")
        .contains("schemaLocation=\"" + base + "?xsd=" + TYPES_KEY + "\"");
    assertThat(get("?xsd=" + TYPES_KEY)).contains("name=\"UnknownPersonFault\"")
        .doesNotContain("schemaLocation");
  }

  @Test
  void cxfsClientFromTheServedWsdl() throws Exception {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setBus(CxfPeer.newBus());
    factory.setServiceClass(dev.ferry.interop.cxfperson.Person.class);
    factory.setWsdlURL(wsdl.toString());
    factory.setServiceName(SERVICE);
    factory.setEndpointName(PORT);
    checkCxfStyle(factory.create(dev.ferry.interop.cxfperson.Person.class));
  }

  @Test
  void ferrysClientFromTheServedWsdl() throws Exception {
    Service service = Service.create(wsdl.toURL(), SERVICE);
    checkCxfStyle(service.getPort(PORT, dev.ferry.interop.cxfperson.Person.class));
  }

  @Test
  void ferrysClientFromTheWsdlCxfServes() throws Exception {
    try (JaxWsStack.Served cxf = JaxWsStack.CXF.serve(new PersonImpls.Cxf(), "/person", false,
        false)) {
      String served = http.send(HttpRequest.newBuilder(URI.create(cxf.uri() + "?wsdl")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      assertThat(served).contains("?wsdl=").doesNotContain("<wsdl:binding");
      Service service = Service.create(URI.create(cxf.uri() + "?wsdl").toURL(), SERVICE);
      checkCxfStyle(service.getPort(PORT, dev.ferry.interop.cxfperson.Person.class));
    }
  }

  @Test
  void metrosClientFromTheServedWsdl() throws Exception {
    dev.ferry.interop.metroperson.Person port = ProviderImpl.INSTANCE
        .createServiceDelegate(wsdl.toURL(), SERVICE, Service.class)
        .getPort(PORT, dev.ferry.interop.metroperson.Person.class);
    Holder<String> id = new Holder<>(PersonImpls.ID);
    Holder<String> ssn = new Holder<>();
    Holder<String> name = new Holder<>();
    port.getPerson(id, ssn, name);
    assertThat(id.value).isEqualTo(PersonImpls.ID);
    assertThat(ssn.value).isEqualTo(PersonImpls.SSN);
    assertThat(name.value).isEqualTo(PersonImpls.NAME);
    assertThatThrownBy(() -> port.getPerson(new Holder<>("nobody"), new Holder<>(),
        new Holder<>())).isInstanceOfSatisfying(
            dev.ferry.interop.metroperson.UnknownPersonFault_Exception.class, e -> {
              assertThat(e.getMessage()).isEqualTo("no person nobody");
              assertThat(e.getFaultInfo().getPersonId()).isEqualTo("nobody");
            });
  }

  @Test
  void zeepsClientFromTheServedWsdl() throws Exception {
    Map<String, String> found = ZeepPeer.call(wsdl, "GetPerson",
        "{\"personId\": \"" + PersonImpls.ID + "\"}");
    assertThat(found).containsExactlyInAnyOrderEntriesOf(Map.of(
        "result.personId", PersonImpls.ID, "result.ssn", PersonImpls.SSN,
        "result.name", PersonImpls.NAME));
    Map<String, String> fault = ZeepPeer.call(wsdl, "GetPerson", "{\"personId\": \"nobody\"}");
    assertThat(fault.get("fault.code")).endsWith(":Server"); // as the reply writes it
    assertThat(fault).containsEntry("fault.message", "no person nobody")
        .containsEntry("fault.detail.UnknownPersonFault.personId", "nobody");
  }

  /** Every field of a person, and the declared fault with its detail, through CXF's SEI. */
  private static void checkCxfStyle(dev.ferry.interop.cxfperson.Person port) throws Exception {
    Holder<String> id = new Holder<>(PersonImpls.ID);
    Holder<String> ssn = new Holder<>();
    Holder<String> name = new Holder<>();
    port.getPerson(id, ssn, name);
    assertThat(id.value).isEqualTo(PersonImpls.ID);
    assertThat(ssn.value).isEqualTo(PersonImpls.SSN);
    assertThat(name.value).isEqualTo(PersonImpls.NAME);
    assertThatThrownBy(() -> port.getPerson(new Holder<>("nobody"), new Holder<>(),
        new Holder<>())).isInstanceOfSatisfying(
            dev.ferry.interop.cxfperson.UnknownPersonFault_Exception.class, e -> {
              assertThat(e.getMessage()).isEqualTo("no person nobody");
              assertThat(e.getFaultInfo().getPersonId()).isEqualTo("nobody");
            });
  }

  private static String get(String query) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(ferry.uri() + query))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(query).isEqualTo(200);
    return r.body();
  }
}
