package dev.ferry.bench.http;

import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.EchoPortImpl;
import dev.ferry.jaxws.FerryProvider;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import java.util.Map;

/**
 * The testMtom echo as a server in a JVM of its own, for {@link ServerCpuProbe}: {@code
 * ferry-jaxws} is the interop tests' endpoint implementation published with Ferry's JAX-WS
 * runtime, {@code cxf} the same on CXF's (its Jetty transport, CXF's defaults). MTOM on, the
 * access log off on both. Prints {@code echo at URL} and serves until its standard input ends.
 */
public final class EchoServerMain {
  private EchoServerMain() {}

  public static void main(String[] args) throws Exception {
    AccessLog.quiet();
    switch (args[0]) {
      case "ferry-jaxws" -> {
        FerryProvider ferry = new FerryProvider();
        Endpoint endpoint = ferry.createEndpoint(SOAPBinding.SOAP11HTTP_BINDING,
            new EchoPortImpl(), new MTOMFeature(true));
        endpoint.setProperties(Map.of(FerryProvider.CODEC_PROPERTY, FerryJaxWsEcho.CODEC));
        String address = "http://127.0.0.1:" + Ports.free() + "/echo";
        endpoint.publish(address);
        serve(address, endpoint::stop);
      }
      case "cxf" -> {
        CxfPeer.EchoServer server = new CxfPeer.EchoServer();
        serve(server.uri(true).toString(), server::close);
      }
      default -> throw new IllegalArgumentException("ferry-jaxws or cxf, not " + args[0]);
    }
  }

  private static void serve(String address, Runnable stop) throws Exception {
    System.out.println("echo at " + address);
    System.out.flush();
    System.in.transferTo(java.io.OutputStream.nullOutputStream()); // until the parent goes
    stop.run();
    System.exit(0);
  }
}
