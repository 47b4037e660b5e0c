package dev.ferry.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;
import org.apache.cxf.endpoint.Server;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;

/**
 * Apache CXF 4 as a JAX-WS peer: its server on the Jetty transport and its client, each on a
 * bus of its own so that one test's CXF state never leaks into another's.
 */
public final class CxfPeer {
  private CxfPeer() {}

  /**
   * The echo service published twice on one Jetty port: {@code /echo/mtom} answers with MTOM,
   * {@code /echo/plain} without, so a test of either mode covers both directions.
   */
  public static final class EchoServer implements AutoCloseable {
    private final Bus bus = BusFactory.newInstance().createBus();
    private final EchoPortImpl mtom = new EchoPortImpl();
    private final EchoPortImpl plain = new EchoPortImpl();
    private final int port;
    private final List<Server> servers;

    public EchoServer() {
      // CXF keys its Jetty engines by the port in the address, so it cannot take port 0:
      // ask the kernel for a free port and give that to CXF.
      port = freeLoopbackPort();
      servers = List.of(publish("/echo/mtom", mtom, true), publish("/echo/plain", plain, false));
    }

    public URI uri(boolean mtomEnabled) {
      return URI.create("http://127.0.0.1:" + port + (mtomEnabled ? "/echo/mtom" : "/echo/plain"));
    }

    /** The implementation behind {@link #uri(boolean)}, to ask what its requests looked like. */
    EchoPortImpl implementation(boolean mtomEnabled) {
      return mtomEnabled ? mtom : plain;
    }

    private Server publish(String path, EchoPortImpl implementation, boolean mtomEnabled) {
      JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
      factory.setBus(bus);
      factory.setServiceBean(implementation);
      factory.setAddress("http://127.0.0.1:" + port + path);
      factory.setWsdlLocation(wsdlUrl());
      factory.setServiceName(EchoContract.SERVICE);
      factory.setEndpointName(EchoContract.PORT);
      factory.getProperties(true).put("mtom-enabled", mtomEnabled);
      return factory.create();
    }

    @Override
    public void close() {
      servers.forEach(Server::destroy);
      bus.shutdown(true);
    }
  }

  /** A CXF client proxy built from Ferry's WSDL, sending to {@code address}. */
  public static TestMtomPort client(Bus bus, URI address, boolean mtomEnabled) {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setBus(bus);
    factory.setServiceClass(TestMtomPort.class);
    factory.setWsdlURL(wsdlUrl());
    factory.setServiceName(EchoContract.SERVICE);
    factory.setEndpointName(EchoContract.PORT);
    factory.setAddress(address.toString());
    factory.setProperties(new HashMap<>(Map.of("mtom-enabled", mtomEnabled)));
    return factory.create(TestMtomPort.class);
  }

  /**
   * A CXF client proxy built from the WSDL a server serves at {@code wsdl}: the address it
   * sends to is the one that WSDL's soap:address names.
   */
  static TestMtomPort clientFromWsdl(Bus bus, URI wsdl, boolean mtomEnabled) {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setBus(bus);
    factory.setServiceClass(TestMtomPort.class);
    factory.setWsdlURL(wsdl.toString());
    factory.setServiceName(EchoContract.SERVICE);
    factory.setEndpointName(EchoContract.PORT);
    factory.setProperties(new HashMap<>(Map.of("mtom-enabled", mtomEnabled)));
    return factory.create(TestMtomPort.class);
  }

  /** A CXF client proxy of {@code sei} built from the WSDL at {@code wsdl}. */
  static <T> T fromWsdl(Class<T> sei, URI wsdl, javax.xml.namespace.QName service,
      javax.xml.namespace.QName port) {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setServiceClass(sei);
    factory.setWsdlURL(wsdl.toString());
    factory.setServiceName(service);
    factory.setEndpointName(port);
    return factory.create(sei);
  }

  public static Bus newBus() {
    return BusFactory.newInstance().createBus();
  }

  static String wsdlUrl() {
    return CxfPeer.class.getClassLoader().getResource(EchoContract.WSDL_RESOURCE).toString();
  }

  private static int freeLoopbackPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
