package dev.ferry.bench.http;

import dev.ferry.interop.EchoPortImpl;
import dev.ferry.interop.TestMtomPort;
import dev.ferry.jaxws.FerryProvider;
import dev.ferry.jaxws.servlet.FerryServletInitializer;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.soap.SOAPBinding;
import java.nio.file.Files;

/**
 * The typed testMtom echo deployed as a web application in Tomcat 11 with Ferry's servlet
 * initializer and a {@code WEB-INF/sun-jaxws.xml} (the interop tests' implementation, MTOM as
 * asked), called by Ferry's JAX-WS port.
 */
final class FerryWarEcho extends PortEcho {
  private final TomcatHost tomcat;
  private final TestMtomPort port;

  FerryWarEcho(boolean mtom) throws Exception {
    AccessLog.quiet();
    tomcat = new TomcatHost("/ferry");
    Files.writeString(tomcat.docBase().resolve("WEB-INF/sun-jaxws.xml"),
        "<endpoints xmlns=\"http://java.sun.com/xml/ns/jax-ws/ri/runtime\" version=\"2.0\">"
        + "<endpoint name=\"echo\" implementation=\"" + EchoPortImpl.class.getName()
        + "\" url-pattern=\"/echo\" enable-mtom=\"" + mtom + "\"/></endpoints>");
    tomcat.context().addServletContainerInitializer(new FerryServletInitializer(), null);
    tomcat.start();
    var service = new FerryProvider().createServiceDelegate(null, FerryJaxWsEcho.SERVICE,
        Service.class);
    service.addPort(FerryJaxWsEcho.PORT, SOAPBinding.SOAP11HTTP_BINDING, tomcat.url("/echo"));
    port = service.getPort(FerryJaxWsEcho.PORT, TestMtomPort.class, new MTOMFeature(mtom));
  }

  @Override
  TestMtomPort port() {
    return port;
  }

  @Override
  public void close() throws Exception {
    tomcat.close();
  }
}
