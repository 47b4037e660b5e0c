package dev.ferry.spring.boot.jaxws.internal;

import dev.ferry.jaxws.internal.EndpointImpl;
import dev.ferry.server.Dispatcher;
import dev.ferry.soap.SoapCodec;
import dev.ferry.spring.boot.jaxws.JaxwsProperties;
import jakarta.jws.WebService;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.WebServiceProvider;
import jakarta.xml.ws.handler.Handler;
import jakarta.xml.ws.soap.MTOMFeature;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Finds an application's JAX-WS endpoints among its beans and makes each one's dispatcher:
 * beans whose class is a {@code @WebService} or {@code @WebServiceProvider} (not interfaces:
 * those are client ports), and {@code jakarta.xml.ws.Endpoint} beans not published on an
 * address of their own. All or none: the first that cannot be made fails start-up, naming its
 * bean, and those made before it are stopped.
 */
public final class EndpointBeans {
  /** An endpoint made: its bean, its path under the servlet context, what serves it. */
  public record Hosted(String bean, String path, Class<?> implementation, EndpointImpl endpoint,
      Dispatcher dispatcher) {}

  private final ListableBeanFactory beans;
  private final JaxwsProperties properties;
  private final SoapCodec codec;

  public EndpointBeans(ListableBeanFactory beans, JaxwsProperties properties, SoapCodec codec) {
    this.beans = beans;
    this.properties = properties;
    this.codec = codec;
  }

  /** Makes every endpoint, its WSDL addressed under {@code contextPath}. */
  public List<Hosted> host(String contextPath) {
    List<Hosted> done = new ArrayList<>();
    Map<String, String> pathOwners = new HashMap<>();
    try {
      for (String name : serviceBeans()) {
        add(done, pathOwners, contextPath, serviceEndpoint(name));
      }
      for (String name : beans.getBeanNamesForType(Endpoint.class)) {
        Made made = endpointBean(name);
        if (made != null) {
          add(done, pathOwners, contextPath, made);
        }
      }
      return done;
    } catch (RuntimeException e) {
      done.forEach(h -> h.endpoint().stop());
      throw e;
    }
  }

  /** An endpoint before it is hosted, and its path under the JAX-WS path. */
  private record Made(String bean, String path, Class<?> implementation, EndpointImpl endpoint) {}

  private void add(List<Hosted> done, Map<String, String> pathOwners, String contextPath,
      Made m) {
    String path = under(properties.getPath(), m.path());
    String owner = pathOwners.putIfAbsent(path, m.bean());
    if (owner != null) {
      throw new IllegalStateException("the JAX-WS endpoints of the beans '" + owner + "' and '"
          + m.bean() + "' are both at " + path + ": give one another path with"
          + " ferry.jaxws.endpoints." + m.bean() + ".path");
    }
    try {
      Dispatcher d = m.endpoint().host(contextPath + path, codec);
      done.add(new Hosted(m.bean(), path, m.implementation(), m.endpoint(), d));
    } catch (RuntimeException e) {
      throw failure(m.bean(), m.implementation(), e);
    }
  }

  static String under(String base, String path) {
    return base.equals("/") ? path : base + path;
  }

  /** Names of the beans whose own class is a service, in the order they were declared. */
  private Set<String> serviceBeans() {
    Set<String> names = new LinkedHashSet<>();
    names.addAll(List.of(beans.getBeanNamesForAnnotation(WebService.class)));
    names.addAll(List.of(beans.getBeanNamesForAnnotation(WebServiceProvider.class)));
    names.removeIf(n -> serviceClass(n) == null);
    return names;
  }

  private Class<?> serviceClass(String name) {
    Class<?> type = beans.getType(name);
    if (type == null || Proxy.isProxyClass(type) || Endpoint.class.isAssignableFrom(type)) {
      return null;
    }
    Class<?> user = ClassUtils.getUserClass(type);
    boolean service = user.isAnnotationPresent(WebService.class)
        || user.isAnnotationPresent(WebServiceProvider.class);
    return service && !user.isInterface() ? user : null;
  }

  private Made serviceEndpoint(String name) {
    Class<?> type = serviceClass(name);
    Object bean = beans.getBean(name);
    JaxwsProperties.Endpoint settings = settings(name);
    EndpointImpl endpoint;
    try {
      endpoint = new EndpointImpl(null, bean, type, null, features(settings));
    } catch (RuntimeException e) {
      throw failure(name, type, e);
    }
    endpoint.setProperties(new HashMap<>(Map.of(EndpointImpl.CONTAINER_LIFECYCLE, Boolean.TRUE,
        EndpointImpl.CODEC, codec)));
    handlers(name, endpoint, settings);
    String path = settings.getPath() != null ? settings.getPath() : "/" + serviceName(type);
    return new Made(name, path, type, endpoint);
  }

  /** An {@code Endpoint} bean to host, or null if it serves on an address of its own. */
  private Made endpointBean(String name) {
    Endpoint bean = beans.getBean(name, Endpoint.class);
    if (!(bean instanceof EndpointImpl endpoint)) {
      throw new IllegalStateException("the Endpoint bean '" + name + "' is a "
          + bean.getClass().getName() + ", not Ferry's: make it with Endpoint.create(...)"
          + " where Ferry is the JAX-WS runtime (the system property"
          + " jakarta.xml.ws.spi.Provider=dev.ferry.jaxws.FerryProvider picks it where another"
          + " runtime is on the class path too)");
    }
    if (endpoint.isPublished()) {
      return null;
    }
    JaxwsProperties.Endpoint settings = settings(name);
    String path = settings.getPath() != null ? settings.getPath() : endpoint.containerPath();
    if (path == null) {
      throw new IllegalStateException("the Endpoint bean '" + name + "' has no path: publish"
          + " it at one (endpoint.publish(\"/orders\")) or set ferry.jaxws.endpoints." + name
          + ".path");
    }
    Map<String, Object> props = new HashMap<>(endpoint.getProperties());
    props.putIfAbsent(EndpointImpl.CODEC, codec);
    endpoint.setProperties(props);
    handlers(name, endpoint, settings);
    Object implementor = endpoint.getImplementor();
    Class<?> type = implementor != null ? implementor.getClass() : Endpoint.class;
    return new Made(name, path, type, endpoint);
  }

  private JaxwsProperties.Endpoint settings(String name) {
    JaxwsProperties.Endpoint s = properties.getEndpoints().get(name);
    return s != null ? s : new JaxwsProperties.Endpoint();
  }

  private static WebServiceFeature[] features(JaxwsProperties.Endpoint settings) {
    if (settings.getMtom() == null) {
      return new WebServiceFeature[0];
    }
    return new WebServiceFeature[] {settings.getMtomThreshold() == null
        ? new MTOMFeature(settings.getMtom())
        : new MTOMFeature(settings.getMtom(), settings.getMtomThreshold())};
  }

  @SuppressWarnings("rawtypes")
  private void handlers(String name, EndpointImpl endpoint, JaxwsProperties.Endpoint settings) {
    if (settings.getHandlers().isEmpty()) {
      return; // the class's @HandlerChain, if any
    }
    List<Handler> chain = new ArrayList<>();
    for (String handler : settings.getHandlers()) {
      Object h = beans.containsBean(handler) ? beans.getBean(handler) : null;
      if (!(h instanceof Handler)) {
        throw new IllegalStateException("ferry.jaxws.endpoints." + name + ".handlers names '"
            + handler + "', which is " + (h == null ? "no bean"
            : "a " + h.getClass().getName() + ", not a jakarta.xml.ws.handler.Handler"));
      }
      chain.add((Handler) h);
    }
    endpoint.getBinding().setHandlerChain(chain);
  }

  private static String serviceName(Class<?> type) {
    WebService ws = type.getAnnotation(WebService.class);
    WebServiceProvider wsp = type.getAnnotation(WebServiceProvider.class);
    String name = ws != null ? ws.serviceName() : wsp.serviceName();
    return name.isEmpty() ? type.getSimpleName() + "Service" : name;
  }

  private static IllegalStateException failure(String bean, Class<?> type, RuntimeException e) {
    return new IllegalStateException("the JAX-WS endpoint of the bean '" + bean + "' ("
        + type.getName() + ") cannot be served: " + e.getMessage(), e);
  }
}
