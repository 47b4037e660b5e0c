package dev.ferry.spring.boot.jaxws.internal;

import dev.ferry.server.Metrics;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapServlet;
import dev.ferry.soap.SoapCodec;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import java.util.List;
import org.springframework.boot.web.servlet.ServletContextInitializer;

/**
 * Serves the endpoints in Spring Boot's embedded servlet container: when it starts, one
 * {@link SoapServlet} per endpoint at its path under {@code ferry.jaxws.path}, beside Spring
 * MVC's dispatcher and behind the application's filters (Spring Security's among them: an
 * endpoint's {@code WebServiceContext.getUserPrincipal()} is the caller Spring Security
 * authenticated).
 */
public final class ServletEndpoints implements ServletContextInitializer {
  private static final System.Logger LOG = System.getLogger("dev.ferry.spring.boot.jaxws");

  private final EndpointBeans beans;
  private final ServedEndpoints served;
  private final SoapCodec codec;
  private final Metrics metrics;
  private final ServerOptions options;

  public ServletEndpoints(EndpointBeans beans, ServedEndpoints served, SoapCodec codec,
      Metrics metrics, ServerOptions options) {
    this.beans = beans;
    this.served = served;
    this.codec = codec;
    this.metrics = metrics;
    this.options = options;
  }

  @Override
  public void onStartup(ServletContext context) {
    List<EndpointBeans.Hosted> hosted = beans.host(context.getContextPath());
    try {
      for (EndpointBeans.Hosted h : hosted) {
        ServletRegistration.Dynamic r = context.addServlet("ferry:" + h.bean(),
            new SoapServlet(codec, h.dispatcher(), metrics, options));
        if (r == null) {
          throw new IllegalStateException("a servlet named ferry:" + h.bean() + " is already"
              + " registered");
        }
        r.addMapping(h.path());
        r.setLoadOnStartup(1);
        LOG.log(System.Logger.Level.INFO, "JAX-WS endpoint {0} ({1}) at {2}{3}", h.bean(),
            h.implementation().getName(), context.getContextPath(), h.path());
      }
    } catch (RuntimeException e) {
      hosted.forEach(h -> h.endpoint().stop());
      throw e;
    }
    served.started(hosted, null);
  }
}
