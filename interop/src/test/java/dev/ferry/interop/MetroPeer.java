package dev.ferry.interop;

import com.sun.net.httpserver.HttpServer;
import com.sun.xml.ws.spi.ProviderImpl;
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
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Metro (the JAX-WS RI) as a JAX-WS peer: its client, and its endpoint published on the JDK's
 * own HTTP server. Metro's provider is named, not looked up, because CXF's provider is on the
 * same class path and {@code jakarta.xml.ws.spi.Provider.provider()} would pick either.
 */
final class MetroPeer {
  private MetroPeer() {}

  /** The echo service on one JDK HTTP server port: {@code /echo/mtom} and {@code /echo/plain}. */
  static final class EchoServer implements AutoCloseable {
    private final EchoPortImpl mtom = new EchoPortImpl();
    private final EchoPortImpl plain = new EchoPortImpl();
    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final HttpServer http;
    private final List<Endpoint> endpoints;

    EchoServer() {
      try {
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      http.setExecutor(executor);
      endpoints = List.of(publish("/echo/mtom", mtom, true), publish("/echo/plain", plain, false));
      http.start();
    }

    URI uri(boolean mtomEnabled) {
      return URI.create("http://127.0.0.1:" + http.getAddress().getPort()
          + (mtomEnabled ? "/echo/mtom" : "/echo/plain"));
    }

    /** The implementation behind {@link #uri(boolean)}, to ask what its requests looked like. */
    EchoPortImpl implementation(boolean mtomEnabled) {
      return mtomEnabled ? mtom : plain;
    }

    private Endpoint publish(String path, EchoPortImpl implementation, boolean mtomEnabled) {
      Endpoint endpoint = ProviderImpl.INSTANCE.createEndpoint(SOAPBinding.SOAP11HTTP_BINDING,
          implementation, new MTOMFeature(mtomEnabled));
      endpoint.publish(http.createContext(path));
      return endpoint;
    }

    @Override
    public void close() {
      endpoints.forEach(Endpoint::stop);
      http.stop(0);
      executor.shutdownNow();
    }
  }

  /** A Metro client proxy built from Ferry's WSDL, sending to {@code address}. */
  static TestMtomPort client(URI address, boolean mtomEnabled) {
    URL wsdl = MetroPeer.class.getClassLoader().getResource(EchoContract.WSDL_RESOURCE);
    TestMtomPort port = portFrom(wsdl, mtomEnabled);
    ((BindingProvider) port).getRequestContext()
        .put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, address.toString());
    return port;
  }

  /**
   * A Metro client proxy built from the WSDL a server serves at {@code wsdl}: the address it
   * sends to is the one that WSDL's soap:address names.
   */
  static TestMtomPort clientFromWsdl(URI wsdl, boolean mtomEnabled) {
    try {
      return portFrom(wsdl.toURL(), mtomEnabled);
    } catch (MalformedURLException e) {
      throw new IllegalArgumentException(wsdl.toString(), e);
    }
  }

  private static TestMtomPort portFrom(URL wsdl, boolean mtomEnabled) {
    ServiceDelegate service =
        ProviderImpl.INSTANCE.createServiceDelegate(wsdl, EchoContract.SERVICE, Service.class);
    return service.getPort(EchoContract.PORT, TestMtomPort.class, new MTOMFeature(mtomEnabled));
  }
}
