package dev.ferry.bench.http;

import dev.ferry.interop.CxfPeer;
import dev.ferry.interop.EchoPortImpl;
import dev.ferry.interop.TestMtomPort;
import jakarta.servlet.ServletConfig;
import java.net.URI;
import org.apache.catalina.startup.Tomcat;
import org.apache.cxf.Bus;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.transport.servlet.CXFNonSpringServlet;

/**
 * The typed testMtom echo in Tomcat 11 behind CXF's servlet ({@code CXFNonSpringServlet}, the
 * endpoint published on its bus as a CXF web application does without Spring), called by CXF's
 * client proxy.
 */
final class CxfWarEcho extends PortEcho {
  private final TomcatHost tomcat;
  private final Bus clientBus;
  private final TestMtomPort port;

  CxfWarEcho(boolean mtom) throws Exception {
    tomcat = new TomcatHost("/cxf");
    Tomcat.addServlet(tomcat.context(), "cxf", new EchoServlet(mtom));
    tomcat.context().addServletMappingDecoded("/*", "cxf");
    tomcat.start();
    clientBus = CxfPeer.newBus();
    port = CxfPeer.client(clientBus, URI.create(tomcat.url("/echo")), mtom);
  }

  /** CXF's servlet with the echo endpoint published on its bus at {@code /echo}. */
  private static final class EchoServlet extends CXFNonSpringServlet {
    private static final long serialVersionUID = 1L;
    private final boolean mtom;

    EchoServlet(boolean mtom) {
      this.mtom = mtom;
    }

    @Override
    protected void loadBus(ServletConfig config) {
      super.loadBus(config);
      JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
      factory.setBus(getBus());
      factory.setServiceBean(new EchoPortImpl());
      factory.setAddress("/echo");
      factory.getProperties(true).put("mtom-enabled", mtom);
      factory.create();
    }
  }

  @Override
  TestMtomPort port() {
    return port;
  }

  @Override
  public void close() throws Exception {
    clientBus.shutdown(true);
    tomcat.close();
  }
}
