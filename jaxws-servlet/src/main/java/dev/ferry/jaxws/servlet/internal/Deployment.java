package dev.ferry.jaxws.servlet.internal;

import dev.ferry.jaxws.internal.EndpointImpl;
import dev.ferry.server.Dispatcher;
import dev.ferry.soap.SoapCodec;
import jakarta.jws.WebService;
import jakarta.servlet.ServletContext;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.WebServiceProvider;
import jakarta.xml.ws.handler.Handler;
import jakarta.xml.ws.soap.MTOMFeature;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;

/**
 * Makes the endpoints of a web application, all or none: each {@link EndpointSpec}'s class is
 * loaded from the application, made, given its WSDL, features and handlers, and its dispatcher
 * built (model, JAXB context, WSDL); the first that fails stops those made before it, and the
 * failure names the endpoint and where it was declared.
 */
public final class Deployment {
  /** An endpoint made: its spec, the runtime's endpoint, and the dispatcher to serve. */
  public record Deployed(EndpointSpec spec, EndpointImpl endpoint, Dispatcher dispatcher) {}

  /** The largest WSDL read, as the runtime's own limit: far above real contracts. */
  private static final int MAX_WSDL_BYTES = 4 * 1024 * 1024;

  private final ServletContext context;
  private final SoapCodec codec;

  public Deployment(ServletContext context, SoapCodec codec) {
    this.context = context;
    this.codec = codec;
  }

  /** Makes every endpoint of {@code specs}, or none (those made are stopped) and throws. */
  public List<Deployed> deploy(List<EndpointSpec> specs) throws DeploymentException {
    List<Deployed> done = new ArrayList<>();
    try {
      for (EndpointSpec spec : specs) {
        done.add(deploy(spec));
      }
      return done;
    } catch (DeploymentException | RuntimeException e) {
      done.forEach(d -> d.endpoint().stop());
      throw e;
    }
  }

  private Deployed deploy(EndpointSpec spec) throws DeploymentException {
    Class<?> type = load(spec, spec.implementation(), "the implementation");
    Object implementor = make(spec, type);
    EndpointImpl endpoint;
    try {
      endpoint = new EndpointImpl(spec.binding(), implementor, type, null, features(spec));
    } catch (RuntimeException e) {
      throw new DeploymentException(spec.describe() + ", " + type.getName() + ": "
          + e.getMessage(), e);
    }
    Map<String, Object> properties = new HashMap<>();
    if (spec.service() != null) {
      properties.put(Endpoint.WSDL_SERVICE, spec.service());
    }
    if (spec.port() != null) {
      properties.put(Endpoint.WSDL_PORT, spec.port());
    }
    endpoint.setProperties(properties);
    Source wsdl = wsdl(spec, type);
    if (wsdl != null) {
      endpoint.setMetadata(List.of(wsdl));
    }
    if (!spec.handlers().isEmpty()) { // else the chain of the class's @HandlerChain, if any
      endpoint.getBinding().setHandlerChain(handlers(spec));
    }
    try {
      Dispatcher d = endpoint.host(context.getContextPath() + spec.urlPattern(), codec);
      return new Deployed(spec, endpoint, d);
    } catch (RuntimeException e) {
      throw new DeploymentException(spec.describe() + ", " + type.getName() + ": "
          + e.getMessage(), e);
    }
  }

  private static WebServiceFeature[] features(EndpointSpec spec) {
    if (spec.mtom() == null) {
      return new WebServiceFeature[0];
    }
    return new WebServiceFeature[] {spec.mtomThreshold() == null ? new MTOMFeature(spec.mtom())
        : new MTOMFeature(spec.mtom(), spec.mtomThreshold())};
  }

  private Class<?> load(EndpointSpec spec, String name, String role)
      throws DeploymentException {
    try {
      return Class.forName(name, false, context.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new DeploymentException(spec.describe() + ": " + role + " " + name + " is not in"
          + " the web application (WEB-INF/classes, WEB-INF/lib)"
          + (e instanceof LinkageError ? ": " + e : ""), e);
    }
  }

  private static Object make(EndpointSpec spec, Class<?> type) throws DeploymentException {
    try {
      return type.getConstructor().newInstance();
    } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
      throw new DeploymentException(spec.describe() + ": " + type.getName() + " cannot be made"
          + " (a public class with a public constructor without parameters is needed)", e);
    } catch (InvocationTargetException e) {
      throw new DeploymentException(spec.describe() + ": the constructor of " + type.getName()
          + " failed: " + e.getCause(), e.getCause());
    }
  }

  /**
   * The WSDL the descriptor names, or the annotation's {@code wsdlLocation} where it is a file
   * of the application ({@code WEB-INF/wsdl/...}, as generated code for a WAR names it); null
   * to let the runtime read the annotation's location or generate one.
   */
  private Source wsdl(EndpointSpec spec, Class<?> type) throws DeploymentException {
    String location = spec.wsdl();
    boolean named = location != null;
    if (!named) {
      WebService ws = type.getAnnotation(WebService.class);
      WebServiceProvider wsp = type.getAnnotation(WebServiceProvider.class);
      location = ws != null ? ws.wsdlLocation() : wsp != null ? wsp.wsdlLocation() : "";
      if (location.isEmpty() || location.contains(":")) {
        return null;
      }
    }
    URL url;
    try {
      url = context.getResource(location.startsWith("/") ? location : "/" + location);
    } catch (MalformedURLException e) {
      url = null;
    }
    if (url == null) {
      if (named) {
        throw new DeploymentException(spec.describe() + ": the WSDL " + location + " is not in"
            + " the web application");
      }
      return null; // the runtime looks for it on the class path, and says so if it is not
    }
    try (InputStream in = url.openStream()) {
      byte[] bytes = in.readNBytes(MAX_WSDL_BYTES + 1);
      if (bytes.length > MAX_WSDL_BYTES) {
        throw new DeploymentException(spec.describe() + ": the WSDL " + location + " is larger"
            + " than " + MAX_WSDL_BYTES + " bytes");
      }
      return new StreamSource(new ByteArrayInputStream(bytes), url.toExternalForm());
    } catch (IOException e) {
      throw new DeploymentException(spec.describe() + ": cannot read the WSDL " + location
          + ": " + e.getMessage(), e);
    }
  }

  @SuppressWarnings("rawtypes")
  private List<Handler> handlers(EndpointSpec spec) throws DeploymentException {
    List<Handler> chain = new ArrayList<>();
    for (String name : spec.handlers()) {
      Class<?> type = load(spec, name, "the handler");
      if (!Handler.class.isAssignableFrom(type)) {
        throw new DeploymentException(spec.describe() + ": the handler " + name + " is not a"
            + " jakarta.xml.ws.handler.Handler");
      }
      chain.add((Handler) make(spec, type));
    }
    return chain;
  }
}
