package dev.ferry.jaxws.servlet;

import dev.ferry.jaxws.servlet.internal.Deployment;
import dev.ferry.jaxws.servlet.internal.DeploymentException;
import dev.ferry.jaxws.servlet.internal.Descriptor;
import dev.ferry.jaxws.servlet.internal.Discovery;
import dev.ferry.jaxws.servlet.internal.EndpointSpec;
import dev.ferry.jaxws.servlet.internal.WebAppSettings;
import dev.ferry.server.Metrics;
import dev.ferry.server.SoapServlet;
import jakarta.jws.WebService;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.xml.ws.WebServiceProvider;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;

/**
 * Deploys a web application's JAX-WS endpoints on Ferry when the servlet container starts it:
 * with this module's jar in {@code WEB-INF/lib}, no {@code web.xml} entry is needed.
 *
 * <ul>
 *   <li>If the application has {@value #DESCRIPTOR} (Metro's format: {@code <endpoint
 *       name implementation url-pattern [wsdl service port binding enable-mtom
 *       mtom-threshold-value]>}, with {@code <handler-chains>}), its endpoints, and only those.
 *   <li>Else every concrete {@code @WebService} and {@code @WebServiceProvider} class the
 *       container finds in the application, at {@code /} + its service name.
 * </ul>
 *
 * <p>Each endpoint is a {@link SoapServlet} at its URL pattern: {@code ?wsdl} (the WSDL the
 * descriptor or the annotation names, from the application or its class path, else one
 * generated), MTOM attachments streamed (spooled to a private temp file past
 * {@value WebAppSettings#ATTACHMENT_MEMORY_BYTES}), handlers, and the container's security:
 * {@code WebServiceContext.getUserPrincipal()} and {@code isUserInRole} are the servlet
 * request's. Context parameters ({@code web.xml}'s {@code <context-param>}) set
 * {@value WebAppSettings#MAX_REQUESTS}, {@value WebAppSettings#PUBLIC_ADDRESS} and
 * {@value WebAppSettings#ATTACHMENT_MEMORY_BYTES}. The endpoints' metrics are the
 * {@link Metrics} in the context attribute {@value #METRICS_ATTRIBUTE}.
 *
 * <p>A descriptor that cannot be read, a class that is missing or cannot be made, a WSDL or
 * schema that is missing, a URL pattern already taken: the application fails to start with a
 * message that names the file and line, the endpoint and the cause, and no endpoint of it is
 * deployed.
 */
@HandlesTypes({WebService.class, WebServiceProvider.class})
public final class FerryServletInitializer implements ServletContainerInitializer {
  /** Where the descriptor is looked for in the application. */
  public static final String DESCRIPTOR = "/WEB-INF/sun-jaxws.xml";
  /** The context attribute holding the endpoints' {@link Metrics}. */
  public static final String METRICS_ATTRIBUTE = "dev.ferry.server.Metrics";

  private static final System.Logger LOG = System.getLogger("dev.ferry.jaxws.servlet");

  /** Made by the container. */
  public FerryServletInitializer() {}

  @Override
  public void onStartup(Set<Class<?>> found, ServletContext context) throws ServletException {
    try {
      List<EndpointSpec> specs = specs(found, context);
      if (specs.isEmpty()) {
        return;
      }
      WebAppSettings settings = WebAppSettings.of(context);
      for (EndpointSpec spec : specs) {
        settings.checkFree(context, spec);
      }
      List<Deployment.Deployed> deployed = new Deployment(context, settings.codec())
          .deploy(specs);
      try {
        register(context, settings, deployed);
      } catch (DeploymentException | RuntimeException e) {
        deployed.forEach(d -> d.endpoint().stop());
        throw e;
      }
      context.addListener(new Stopper(deployed));
    } catch (DeploymentException e) {
      LOG.log(System.Logger.Level.ERROR, "not deployed: " + e.getMessage());
      throw new ServletException("the JAX-WS endpoints of " + name(context)
          + " are not deployed: " + e.getMessage(), e);
    }
  }

  /** One servlet per endpoint at its URL pattern, sharing the application's metrics. */
  private static void register(ServletContext context, WebAppSettings settings,
      List<Deployment.Deployed> deployed) throws DeploymentException {
    Metrics metrics = Metrics.create("ferry.server");
    context.setAttribute(METRICS_ATTRIBUTE, metrics);
    for (Deployment.Deployed d : deployed) {
      ServletRegistration.Dynamic r = context.addServlet("ferry:" + d.spec().name(),
          new SoapServlet(settings.codec(), d.dispatcher(), metrics, settings.options()));
      if (r == null) {
        throw new DeploymentException(d.spec().describe() + ": a servlet named ferry:"
            + d.spec().name() + " is already registered");
      }
      r.addMapping(d.spec().urlPattern());
      r.setLoadOnStartup(1);
      LOG.log(System.Logger.Level.INFO, "deployed {0} at {1}{2}: {3}", d.spec().describe(),
          context.getContextPath(), d.spec().urlPattern(), d.spec().implementation());
    }
  }

  private static String name(ServletContext context) {
    return context.getContextPath().isEmpty() ? "the root web application"
        : "the web application " + context.getContextPath();
  }

  private static List<EndpointSpec> specs(Set<Class<?>> found, ServletContext context)
      throws DeploymentException {
    InputStream xml = context.getResourceAsStream(DESCRIPTOR);
    if (xml == null) {
      return Discovery.specs(found);
    }
    try {
      return Descriptor.readAndClose(xml, DESCRIPTOR.substring(1));
    } catch (IOException e) {
      throw new DeploymentException("cannot read " + DESCRIPTOR + ": " + e.getMessage(), e);
    }
  }

  /** Stops the endpoints ({@code @PreDestroy}) when the application stops. */
  private record Stopper(List<Deployment.Deployed> deployed) implements ServletContextListener {
    @Override
    public void contextDestroyed(ServletContextEvent event) {
      deployed.forEach(d -> d.endpoint().stop());
    }
  }
}
