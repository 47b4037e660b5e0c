package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.xml.ws.spi.ProviderImpl;
import jakarta.jws.WebService;
import jakarta.xml.ws.Service;
import java.net.URI;
import java.net.URL;
import javax.xml.namespace.QName;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A code-first exception with properties besides its message ({@link Shapes.OutOfStock}) crosses
 * between Ferry and CXF and Metro, both ways, each client built from the server's own ?wsdl:
 * Ferry's client gets the exception back with every property from every server, and the peers'
 * clients get from Ferry what they get from their own servers.
 */
class CodeFirstFaultInteropTest {
  static final QName SERVICE = new QName(Shapes.NS, "StockService");
  static final QName PORT = new QName(Shapes.NS, "StockPort");

  @WebService(name = "Stock", targetNamespace = Shapes.NS)
  public interface Stock {
    void reserve(String sku, int quantity) throws Shapes.OutOfStock;
  }

  @WebService(serviceName = "StockService", portName = "StockPort", targetNamespace = Shapes.NS,
      endpointInterface = "dev.ferry.interop.CodeFirstFaultInteropTest$Stock")
  public static class StockImpl implements Stock {
    @Override
    public void reserve(String sku, int quantity) throws Shapes.OutOfStock {
      throw new Shapes.OutOfStock("only 3 of " + sku, sku, 3);
    }
  }

  /** What a client made of the fault. */
  record Outcome(String type, String message, String sku, int available) {}

  @ParameterizedTest(name = "Ferry client, {0} server")
  @EnumSource(JaxWsStack.class)
  void ferrysClientGetsEveryProperty(JaxWsStack server) throws Exception {
    assertThat(outcome(JaxWsStack.FERRY, server)).isEqualTo(new Outcome(
        Shapes.OutOfStock.class.getName(), "only 3 of sku-42", "sku-42", 3));
  }

  /**
   * CXF's and Metro's clients each lose part of such a fault even from their own server (CXF
   * the message, Metro the other properties): from Ferry they get exactly what they get there.
   */
  @ParameterizedTest(name = "{0} client")
  @EnumSource(value = JaxWsStack.class, names = {"CXF", "METRO"})
  void aPeersClientGetsFromFerryWhatItGetsFromItsOwnServer(JaxWsStack client) throws Exception {
    Outcome own = outcome(client, client);
    assertThat(own.type()).isEqualTo(Shapes.OutOfStock.class.getName());
    assertThat(outcome(client, JaxWsStack.FERRY)).isEqualTo(own);
  }

  private static Outcome outcome(JaxWsStack client, JaxWsStack server) throws Exception {
    try (JaxWsStack.Served s = server.serve(new StockImpl(), "/stock", false, false)) {
      Stock port = port(client, URI.create(s.uri() + "?wsdl").toURL());
      try {
        port.reserve("sku-42", 5);
        throw new AssertionError("no fault");
      } catch (Shapes.OutOfStock e) {
        return new Outcome(e.getClass().getName(), e.getMessage(), e.getSku(),
            e.getAvailable());
      }
    }
  }

  private static Stock port(JaxWsStack client, URL wsdl) {
    return switch (client) {
      case FERRY -> Service.create(wsdl, SERVICE).getPort(PORT, Stock.class);
      case CXF -> {
        JaxWsProxyFactoryBean f = new JaxWsProxyFactoryBean();
        f.setBus(CxfPeer.newBus());
        f.setServiceClass(Stock.class);
        f.setWsdlURL(wsdl.toString());
        f.setServiceName(SERVICE);
        f.setEndpointName(PORT);
        yield f.create(Stock.class);
      }
      case METRO -> ProviderImpl.INSTANCE.createServiceDelegate(wsdl, SERVICE, Service.class)
          .getPort(PORT, Stock.class);
    };
  }
}
