package dev.ferry.bench.http;

import com.sun.net.httpserver.HttpServer;
import com.sun.xml.ws.spi.ProviderImpl;
import dev.ferry.interop.EchoPortImpl;
import dev.ferry.interop.TestMtomPort;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Metro 4 (the JAX-WS RI) on both sides of the typed testMtom echo: the interop tests' endpoint
 * implementation published on the JDK's HTTP server, and Metro's port of the same interface.
 */
final class MetroEcho extends PortEcho {
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final HttpServer http;
  private final Endpoint endpoint;
  private final TestMtomPort port;

  MetroEcho(boolean mtom) throws IOException {
    http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    http.setExecutor(executor);
    endpoint = ProviderImpl.INSTANCE.createEndpoint(SOAPBinding.SOAP11HTTP_BINDING,
        new EchoPortImpl(), new MTOMFeature(mtom));
    endpoint.publish(http.createContext("/echo"));
    http.start();
    var service = ProviderImpl.INSTANCE.createServiceDelegate(
        MetroEcho.class.getClassLoader().getResource("dev/ferry/sample/testMtom.wsdl"),
        FerryJaxWsEcho.SERVICE, Service.class);
    port = service.getPort(FerryJaxWsEcho.PORT, TestMtomPort.class, new MTOMFeature(mtom));
    ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY,
        "http://127.0.0.1:" + http.getAddress().getPort() + "/echo");
  }

  @Override
  TestMtomPort port() {
    return port;
  }

  @Override
  public void close() {
    endpoint.stop();
    http.stop(0);
    executor.shutdownNow();
  }
}
