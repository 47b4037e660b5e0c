package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.xml.ws.spi.ProviderImpl;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.soap.AddressingFeature;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.xml.namespace.QName;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.ws.addressing.WSAddressingFeature;
import org.junit.jupiter.api.Test;

/**
 * CXF's WS-Addressing sample contract with addressing required on every side: CXF's, Metro's,
 * zeep's and Ferry's clients (each requiring addressing) call Ferry, and Ferry's client calls
 * CXF's and Metro's services; request-response, one-way and the declared fault, each reply's
 * wsa: headers checked by the peer itself. A client that sends no addressing headers gets the
 * WS-Addressing fault from Ferry, as from CXF.
 */
class AddressingInteropTest {
  static final QName SERVICE = new QName(GreeterImpls.NS, "SOAPService");
  static final QName PORT = new QName(GreeterImpls.NS, "SoapPort");

  @Test
  void cxfsAddressingClientCallsFerry() throws Exception {
    GreeterImpls.Cxf impl = new GreeterImpls.Cxf();
    try (JaxWsStack.Served ferry = JaxWsStack.FERRY.serve(impl, "/greeter", false, false)) {
      dev.ferry.interop.cxfaddr.Greeter port = cxfPort(URI.create(ferry.uri() + "?wsdl"));
      checkCxf(port, impl.oneWay);
    }
  }

  @Test
  void aClientWithoutAddressingGetsTheAddressingFault() throws Exception {
    try (JaxWsStack.Served ferry = JaxWsStack.FERRY.serve(new GreeterImpls.Cxf(), "/greeter",
        false, false)) {
      // without the WSDL: from the served one CXF would read wsam:Addressing and engage it
      JaxWsProxyFactoryBean f = new JaxWsProxyFactoryBean();
      f.setBus(CxfPeer.newBus());
      f.setServiceClass(dev.ferry.interop.cxfaddr.Greeter.class);
      f.setAddress(ferry.uri().toString());
      dev.ferry.interop.cxfaddr.Greeter port = f.create(dev.ferry.interop.cxfaddr.Greeter.class);
      assertThatThrownBy(port::sayHi).isInstanceOfSatisfying(SOAPFaultException.class, e -> {
        assertThat(e.getFault().getFaultCodeAsQName()).isEqualTo(new QName(
            "http://www.w3.org/2005/08/addressing", "MessageAddressingHeaderRequired"));
        assertThat(e.getMessage()).startsWith("A required header representing a Message"
            + " Addressing Property is not present");
      });
    }
  }

  @Test
  void metrosAddressingClientCallsFerry() throws Exception {
    GreeterImpls.Metro impl = new GreeterImpls.Metro();
    try (JaxWsStack.Served ferry = JaxWsStack.FERRY.serve(impl, "/greeter", false, false)) {
      dev.ferry.interop.metroaddr.Greeter port = ProviderImpl.INSTANCE.createServiceDelegate(
          URI.create(ferry.uri() + "?wsdl").toURL(), SERVICE, Service.class)
          .getPort(PORT, dev.ferry.interop.metroaddr.Greeter.class,
              new AddressingFeature(true, true));
      assertThat(port.sayHi()).isEqualTo("Bonjour");
      assertThat(port.greetMe("Metro")).isEqualTo("Hello Metro");
      port.greetMeOneWay("one way");
      assertThat(impl.oneWay.poll(10, TimeUnit.SECONDS)).isEqualTo("one way");
      assertThatThrownBy(port::pingMe).isInstanceOfSatisfying(
          dev.ferry.interop.metroaddr.PingMeFault.class, e -> {
            assertThat(e.getMessage()).isEqualTo("pinged");
            assertThat(e.getFaultInfo().getMinor()).isEqualTo(GreeterImpls.MINOR);
            assertThat(e.getFaultInfo().getMajor()).isEqualTo(GreeterImpls.MAJOR);
          });
    }
  }

  @Test
  void zeepsAddressingClientCallsFerry() throws Exception {
    try (JaxWsStack.Served ferry = JaxWsStack.FERRY.serve(new GreeterImpls.Cxf(), "/greeter",
        false, false)) {
      URI wsdl = URI.create(ferry.uri() + "?wsdl");
      assertThat(ZeepPeer.call(wsdl, "greetMe", "{\"requestType\": \"zeep\"}", "--wsa"))
          .containsExactlyEntriesOf(Map.of("result", "Hello zeep"));
      Map<String, String> fault = ZeepPeer.call(wsdl, "pingMe", "{}", "--wsa");
      assertThat(fault).containsEntry("fault.message", "pinged")
          .containsEntry("fault.detail.faultDetail.minor", "2")
          .containsEntry("fault.detail.faultDetail.major", "1");
    }
  }

  @Test
  void ferrysAddressingClientCallsCxf() throws Exception {
    GreeterImpls.Cxf impl = new GreeterImpls.Cxf();
    try (JaxWsStack.Served cxf = JaxWsStack.CXF.serve(impl, "/greeter", false, false)) {
      dev.ferry.interop.cxfaddr.Greeter port = Service.create(
          URI.create(cxf.uri() + "?wsdl").toURL(), SERVICE)
          .getPort(PORT, dev.ferry.interop.cxfaddr.Greeter.class, new AddressingFeature());
      checkCxf(port, impl.oneWay);
      dev.ferry.interop.cxfaddr.Greeter plain = Service.create(
          URI.create(cxf.uri() + "?wsdl").toURL(), SERVICE)
          .getPort(PORT, dev.ferry.interop.cxfaddr.Greeter.class);
      assertThatThrownBy(plain::sayHi).isInstanceOf(SOAPFaultException.class)
          .hasMessageContaining("Message Addressing Property is not present");
    }
  }

  @Test
  void ferrysAddressingClientCallsMetro() throws Exception {
    GreeterImpls.Metro impl = new GreeterImpls.Metro();
    try (JaxWsStack.Served metro = JaxWsStack.METRO.serve(impl, "/greeter", false, false)) {
      dev.ferry.interop.metroaddr.Greeter port = Service.create(
          URI.create(metro.uri() + "?wsdl").toURL(), SERVICE)
          .getPort(PORT, dev.ferry.interop.metroaddr.Greeter.class, new AddressingFeature());
      assertThat(port.sayHi()).isEqualTo("Bonjour");
      assertThat(port.greetMe("Ferry")).isEqualTo("Hello Ferry");
      port.greetMeOneWay("one way");
      assertThat(impl.oneWay.poll(10, TimeUnit.SECONDS)).isEqualTo("one way");
      assertThatThrownBy(port::pingMe).isInstanceOfSatisfying(
          dev.ferry.interop.metroaddr.PingMeFault.class,
          e -> assertThat(e.getFaultInfo().getMajor()).isEqualTo(GreeterImpls.MAJOR));
    }
  }

  /** CXF's client from {@code wsdl}, with addressing required: it checks each reply's headers. */
  private static dev.ferry.interop.cxfaddr.Greeter cxfPort(URI wsdl) {
    JaxWsProxyFactoryBean f = new JaxWsProxyFactoryBean();
    f.setBus(CxfPeer.newBus());
    f.setServiceClass(dev.ferry.interop.cxfaddr.Greeter.class);
    f.setWsdlURL(wsdl.toString());
    f.setServiceName(SERVICE);
    f.setEndpointName(PORT);
    WSAddressingFeature wsa = new WSAddressingFeature();
    wsa.setAddressingRequired(true);
    f.getFeatures().add(wsa);
    return f.create(dev.ferry.interop.cxfaddr.Greeter.class);
  }

  private static void checkCxf(dev.ferry.interop.cxfaddr.Greeter port,
      BlockingQueue<String> oneWay) throws Exception {
    assertThat(port.sayHi()).isEqualTo("Bonjour");
    assertThat(port.greetMe("CXF <&>")).isEqualTo("Hello CXF <&>");
    port.greetMeOneWay("one way");
    assertThat(oneWay.poll(10, TimeUnit.SECONDS)).isEqualTo("one way");
    assertThatThrownBy(port::pingMe).isInstanceOfSatisfying(
        dev.ferry.interop.cxfaddr.PingMeFault.class, e -> {
          assertThat(e.getMessage()).isEqualTo("pinged");
          assertThat(e.getFaultInfo().getMinor()).isEqualTo(GreeterImpls.MINOR);
          assertThat(e.getFaultInfo().getMajor()).isEqualTo(GreeterImpls.MAJOR);
        });
    assertThat(((BindingProvider) port).getResponseContext()).isNotNull();
  }
}
