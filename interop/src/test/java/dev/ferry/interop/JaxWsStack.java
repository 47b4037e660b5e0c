package dev.ferry.interop;

import com.sun.net.httpserver.HttpServer;
import com.sun.xml.ws.spi.ProviderImpl;
import dev.ferry.jaxws.FerryProvider;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import jakarta.xml.ws.spi.ServiceDelegate;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.xml.namespace.QName;
import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;

/**
 * A JAX-WS runtime as the interop tests use it: it publishes an implementation of a generated
 * service endpoint interface and makes client ports of one, each with SOAP 1.1 or 1.2 and MTOM
 * on or off. Ferry through the standard API (the interop JVM names Ferry's provider with the
 * {@code jakarta.xml.ws.spi.Provider} property), CXF and Metro through their own, each as its
 * users set it up.
 */
enum JaxWsStack {
  FERRY, CXF, METRO;

  /** What a contract names: its WSDL on the class path, service and port. */
  record Contract(String wsdlResource, QName service, QName port) {
    URL wsdl() {
      return JaxWsStack.class.getClassLoader().getResource(wsdlResource);
    }
  }

  /** A published endpoint; close stops it. */
  interface Served extends AutoCloseable {
    URI uri();

    @Override
    void close();
  }

  static String bindingId(boolean soap12) {
    return soap12 ? SOAPBinding.SOAP12HTTP_BINDING : SOAPBinding.SOAP11HTTP_BINDING;
  }

  /** Publishes {@code implementor} on loopback at {@code path}. */
  Served serve(Object implementor, String path, boolean soap12, boolean mtom) {
    return switch (this) {
      case FERRY -> ferry(implementor, path, soap12, mtom);
      case CXF -> cxf(implementor, path, soap12, mtom);
      case METRO -> metro(implementor, path, soap12, mtom);
    };
  }

  /**
   * A client port of {@code sei} calling {@code address}: built from the contract's WSDL for
   * SOAP 1.1 (which is all the contracts bind), without a WSDL for SOAP 1.2.
   */
  <T> T port(Class<T> sei, Contract contract, URI address, boolean soap12, boolean mtom) {
    T port = switch (this) {
      case FERRY -> standardPort(sei, contract, soap12, mtom);
      case CXF -> cxfPort(sei, contract, address, soap12, mtom);
      case METRO -> metroPort(sei, contract, address, soap12, mtom);
    };
    ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY,
        address.toString());
    return port;
  }

  private static Served ferry(Object implementor, String path, boolean soap12, boolean mtom) {
    if (!(jakarta.xml.ws.spi.Provider.provider() instanceof FerryProvider)) {
      throw new IllegalStateException("the standard API does not pick Ferry's provider");
    }
    String address = "http://127.0.0.1:" + freePort() + path;
    Endpoint e = Endpoint.create(bindingId(soap12), implementor, new MTOMFeature(mtom));
    e.setProperties(Map.of(FerryProvider.CODEC_PROPERTY, FerryPeer.CODEC));
    e.publish(address);
    return served(URI.create(address), e::stop);
  }

  private static Served cxf(Object implementor, String path, boolean soap12, boolean mtom) {
    Bus bus = BusFactory.newInstance().createBus();
    JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
    factory.setBus(bus);
    factory.setServiceBean(implementor);
    String address = "http://127.0.0.1:" + freePort() + path;
    factory.setAddress(address);
    factory.setBindingId(bindingId(soap12));
    factory.getProperties(true).put("mtom-enabled", mtom);
    org.apache.cxf.endpoint.Server server = factory.create();
    return served(URI.create(address), () -> {
      server.destroy();
      bus.shutdown(true);
    });
  }

  private static Served metro(Object implementor, String path, boolean soap12, boolean mtom) {
    ExecutorService executor = Executors.newFixedThreadPool(2);
    HttpServer http;
    try {
      http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    http.setExecutor(executor);
    Endpoint e = ProviderImpl.INSTANCE.createEndpoint(bindingId(soap12), implementor,
        new MTOMFeature(mtom));
    e.publish(http.createContext(path));
    http.start();
    return served(URI.create("http://127.0.0.1:" + http.getAddress().getPort() + path), () -> {
      e.stop();
      http.stop(0);
      executor.shutdownNow();
    });
  }

  private static <T> T standardPort(Class<T> sei, Contract contract, boolean soap12,
      boolean mtom) {
    Service service;
    if (soap12) {
      service = Service.create(contract.service());
      service.addPort(contract.port(), bindingId(true), "http://unset");
    } else {
      service = Service.create(contract.wsdl(), contract.service());
    }
    T port = service.getPort(contract.port(), sei, new MTOMFeature(mtom));
    if (!java.lang.reflect.Proxy.getInvocationHandler(port).getClass().getName()
        .startsWith("dev.ferry.jaxws.")) {
      throw new IllegalStateException("the standard API made a port that is not Ferry's");
    }
    return port;
  }

  private static <T> T cxfPort(Class<T> sei, Contract contract, URI address, boolean soap12,
      boolean mtom) {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setBus(CLIENT_BUS);
    factory.setServiceClass(sei);
    if (soap12) {
      factory.setBindingId(bindingId(true));
    } else {
      factory.setWsdlURL(contract.wsdl().toString());
    }
    factory.setServiceName(contract.service());
    factory.setEndpointName(contract.port());
    factory.setAddress(address.toString());
    factory.setProperties(new HashMap<>(Map.of("mtom-enabled", mtom)));
    return factory.create(sei);
  }

  /**
   * Metro makes proxies only from a WSDL, and the contracts bind SOAP 1.1 alone: for SOAP 1.2
   * it reads the WSDL the server serves at {@code ?wsdl} (Ferry generates one with a SOAP 1.2
   * binding for an endpoint that names none).
   */
  private static <T> T metroPort(Class<T> sei, Contract contract, URI address, boolean soap12,
      boolean mtom) {
    URL wsdl;
    try {
      wsdl = soap12 ? URI.create(address + "?wsdl").toURL() : contract.wsdl();
    } catch (java.net.MalformedURLException e) {
      throw new IllegalArgumentException(e);
    }
    ServiceDelegate service = ProviderImpl.INSTANCE.createServiceDelegate(wsdl,
        contract.service(), Service.class);
    return service.getPort(contract.port(), sei, new MTOMFeature(mtom));
  }

  private static final Bus CLIENT_BUS = BusFactory.newInstance().createBus();

  private static Served served(URI uri, Runnable stop) {
    return new Served() {
      @Override
      public URI uri() {
        return uri;
      }

      @Override
      public void close() {
        stop.run();
      }
    };
  }

  static int freePort() {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1,
        InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
