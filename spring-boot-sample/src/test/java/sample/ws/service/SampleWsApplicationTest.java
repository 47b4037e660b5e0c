package sample.ws.service;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.xml.ws.Dispatch;
import jakarta.xml.ws.Service;
import java.io.StringReader;
import java.io.StringWriter;
import java.net.URI;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.stream.StreamResult;
import javax.xml.transform.stream.StreamSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.ws.client.core.WebServiceTemplate;
import sample.ws.SampleWsApplication;

/**
 * The requests of CXF's sample and the answers CXF's sample test expects: Spring WS's
 * template posting the payload, and a JAX-WS {@code Dispatch} made from the served WSDL (the
 * sample's client).
 */
@SpringBootTest(classes = SampleWsApplication.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SampleWsApplicationTest {
  static final String REQUEST = "<q0:sayHello xmlns:q0=\"http://service.ws.sample/\">"
      + "<myname>Elan</myname></q0:sayHello>";
  static final String ANSWER = "<ns2:sayHelloResponse xmlns:ns2=\"http://service.ws.sample/\">"
      + "<return>Hello, Welcome to CXF Spring boot Elan!!!</return></ns2:sayHelloResponse>";

  @LocalServerPort
  int port;

  @Test
  void helloRequestWithSpringWs() {
    WebServiceTemplate template = new WebServiceTemplate();
    template.setDefaultUri("http://localhost:" + port + "/Service/Hello");
    StringWriter out = new StringWriter();
    template.sendSourceAndReceiveToResult(new StreamSource(new StringReader(REQUEST)),
        new StreamResult(out));
    assertThat(out.toString()).isEqualTo("<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + ANSWER);
  }

  @Test
  void helloRequestWithTheSampleClientsDispatch() throws Exception {
    String address = "http://localhost:" + port + "/Service/Hello";
    Service service = Service.create(URI.create(address + "?wsdl").toURL(),
        new QName("http://service.ws.sample/", "HelloService"));
    Dispatch<Source> dispatch = service.createDispatch(
        new QName("http://service.ws.sample/", "HelloPort"), Source.class,
        Service.Mode.PAYLOAD);
    Source result = dispatch.invoke(new StreamSource(new StringReader(REQUEST)));
    StringWriter out = new StringWriter();
    TransformerFactory.newInstance().newTransformer().transform(result, new StreamResult(out));
    assertThat(out.toString()).endsWith(ANSWER);
  }
}
