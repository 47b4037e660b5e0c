package dev.ferry.jaxws.internal;

import dev.ferry.jaxws.ServerFeature;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.WsdlDocuments;
import dev.ferry.soap.SoapCodec;
import jakarta.jws.WebService;
import jakarta.xml.ws.Binding;
import jakarta.xml.ws.BindingType;
import jakarta.xml.ws.EndpointContext;
import jakarta.xml.ws.EndpointReference;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.WebServiceProvider;
import jakarta.xml.ws.soap.MTOM;
import jakarta.xml.ws.spi.http.HttpContext;
import jakarta.xml.ws.wsaddressing.W3CEndpointReference;
import jakarta.xml.ws.wsaddressing.W3CEndpointReferenceBuilder;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import org.w3c.dom.Element;

/**
 * A JAX-WS endpoint on Ferry's server: {@link #publish(String)} reads the implementation's
 * annotations once (model, JAXB context, WSDL), injects its {@code WebServiceContext}, and adds
 * it to the embedded server of the address's host and port. {@code Endpoint.publish(url, impl)}
 * and {@code Endpoint.create(impl).publish(url)} both end here; {@link #publish(Object)} hosts
 * it in another container through the {@code jakarta.xml.ws.spi.http} SPI, and
 * {@link #host(String, SoapCodec)} hands its dispatcher to a servlet container.
 */
public final class EndpointImpl extends jakarta.xml.ws.Endpoint {
  /** An endpoint property: the {@code dev.ferry.soap.SoapCodec} requests are read with. */
  public static final String CODEC = "dev.ferry.jaxws.codec";
  /** A port's request context property: the client's {@code TlsSettings}. */
  public static final String TLS = "dev.ferry.jaxws.tls";
  /**
   * An endpoint property: {@code Boolean.TRUE} where a container (Spring's) calls the
   * implementation's {@code @PostConstruct} and {@code @PreDestroy} itself, so that the runtime
   * only injects its {@code WebServiceContext}.
   */
  public static final String CONTAINER_LIFECYCLE = "dev.ferry.jaxws.containerLifecycle";

  /** A port's request context property: the client's {@code OpenTelemetry}. */
  public static final String OPEN_TELEMETRY = "dev.ferry.jaxws.openTelemetry";

  private final Object implementor;
  private final Class<?> implementorClass;
  private final Target target;
  private final jakarta.xml.ws.spi.Invoker invoker;
  private final SoapBindingImpl binding;
  private final ServerFeature server;
  private List<Source> metadata = new ArrayList<>();
  private Map<String, Object> properties = new HashMap<>();
  private Executor executor;
  private URI published;
  private Runnable unpublish;
  private String containerPath;

  /** An endpoint serving {@code implementor}, or calling {@code invoker} for its class. */
  public EndpointImpl(String bindingId, Object implementor, Class<?> implementorClass,
      jakarta.xml.ws.spi.Invoker invoker, WebServiceFeature... features) {
    this.implementor = implementor;
    this.implementorClass = implementorClass;
    this.target = invoker != null ? Target.of(invoker) : Target.of(implementor);
    BindingType bt = implementorClass.getAnnotation(BindingType.class);
    String id = bindingId != null ? bindingId : bt != null && !bt.value().isEmpty()
        ? bt.value() : jakarta.xml.ws.soap.SOAPBinding.SOAP11HTTP_BINDING;
    MTOM mtom = implementorClass.getAnnotation(MTOM.class);
    this.binding = SoapBindingImpl.of(id, mtom != null && mtom.enabled(),
        mtom != null ? mtom.threshold() : 0,
        SoapBindingImpl.withAnnotations(implementorClass, features));
    this.invoker = invoker;
    this.server = serverFeature(features);
    binding.setHandlerChain(HandlerChains.of(implementorClass)); // replaced by setHandlerChain
  }

  private static ServerFeature serverFeature(WebServiceFeature... features) {
    ServerFeature found = null;
    for (WebServiceFeature f : features) {
      if (f instanceof ServerFeature s) {
        found = s;
      }
    }
    return found;
  }

  @Override
  public Binding getBinding() {
    return binding;
  }

  @Override
  public Object getImplementor() {
    return implementor;
  }

  /**
   * Publishes at {@code address}: an {@code http} or {@code https} URL on Ferry's embedded
   * server, or a path alone ({@code /orders}, as CXF takes under its servlet), which the
   * application's container serves under its JAX-WS path when it takes the endpoint (Ferry's
   * Spring Boot starter does so for {@code Endpoint} beans); until then nothing answers there.
   */
  @Override
  public synchronized void publish(String address) {
    requireUnpublished();
    if (address != null && address.startsWith("/")) {
      containerPath = address;
      return;
    }
    URI uri = URI.create(address);
    SoapCodec codec = codec();
    Servers.publish(uri, codec, dispatcher(codec), server);
    published(uri, () -> Servers.unpublish(uri));
  }

  /** Publishes on {@code serverContext}, which must be a {@link HttpContext}. */
  @Override
  public void publish(Object serverContext) {
    if (!(serverContext instanceof HttpContext context)) {
      throw new IllegalArgumentException("Ferry publishes at an address (publish(String)) or on"
          + " a jakarta.xml.ws.spi.http.HttpContext, not on "
          + (serverContext == null ? "null" : serverContext.getClass().getName()));
    }
    publish(context);
  }

  /**
   * Publishes in another HTTP container through the {@code jakarta.xml.ws.spi.http} SPI: the
   * context's handler serves this endpoint from now on (the container owns the listener, its
   * TLS and its callers; a {@link ServerFeature}'s options and metrics apply).
   */
  @Override
  public synchronized void publish(HttpContext context) {
    requireUnpublished();
    if (server != null && server.tls() != null) {
      throw new WebServiceException("an HttpContext's container owns its TLS: publish it"
          + " without the ServerFeature's TLS settings");
    }
    SoapCodec codec = codec();
    ExchangeHandler handler = new ExchangeHandler(context, codec, dispatcher(codec), server);
    context.setHandler(handler);
    published(URI.create(context.getPath()), handler::stop);
  }

  /**
   * Marks this endpoint published at {@code path} of a servlet container and returns its
   * dispatcher, reading requests with {@code codec}; {@link #stop()} ends it (the container
   * stops routing to it itself).
   */
  public synchronized Dispatcher host(String path, SoapCodec codec) {
    if (published != null) {
      throw new IllegalStateException("already published at " + published);
    }
    Dispatcher d = dispatcher(codec);
    published(URI.create(path), () -> { });
    return d;
  }

  /** Whether a container calls the implementation's lifecycle methods itself. */
  boolean containerLifecycle() {
    return Boolean.TRUE.equals(properties.get(CONTAINER_LIFECYCLE));
  }

  /** The path {@link #publish(String)} was given for a container, or null. */
  public synchronized String containerPath() {
    return containerPath;
  }

  private void requireUnpublished() {
    if (published != null || containerPath != null) {
      throw new IllegalStateException("already published at "
          + (published != null ? published : containerPath));
    }
  }

  private void published(URI at, Runnable undo) {
    published = at;
    unpublish = undo;
  }

  private SoapCodec codec() {
    return properties.get(CODEC) instanceof SoapCodec c ? c : SoapCodec.create();
  }

  /** The dispatcher of this endpoint: its operations, or its Provider, and its WSDL. */
  private Dispatcher dispatcher(SoapCodec codec) {
    return implementorClass.isAnnotationPresent(WebServiceProvider.class)
        ? ProviderRuntime.dispatcher(this, implementorClass, binding, codec)
        : seiDispatcher(codec);
  }

  private Dispatcher seiDispatcher(SoapCodec codec) {
    WebService ws = implementorClass.getAnnotation(WebService.class);
    if (ws == null) {
      throw new WebServiceException(implementorClass.getName() + " is neither a @WebService"
          + " nor a @WebServiceProvider");
    }
    Class<?> sei = ws.endpointInterface().isEmpty() ? implementorClass
        : load(ws.endpointInterface());
    SeiModel model = SeiModel.of(sei, implementorClass);
    String ns = !ws.targetNamespace().isEmpty() ? ws.targetNamespace()
        : sei == implementorClass ? model.targetNamespace()
        : SeiReader.namespaceOf(implementorClass);
    QName service = property(jakarta.xml.ws.Endpoint.WSDL_SERVICE, new QName(ns,
        !ws.serviceName().isEmpty() ? ws.serviceName()
            : implementorClass.getSimpleName() + "Service"));
    QName port = property(jakarta.xml.ws.Endpoint.WSDL_PORT, new QName(ns,
        !ws.portName().isEmpty() ? ws.portName() : model.portTypeName() + "Port"));
    EndpointRuntime runtime = new EndpointRuntime(model, target, binding, codec,
        new EndpointRuntime.Names(service, port, new QName(model.targetNamespace(),
            model.portTypeName())), executor);
    if (implementor != null) {
      Injection.inject(implementor, new ServerContext(), !containerLifecycle());
    } else if (invoker != null) {
      try {
        invoker.inject(new ServerContext());
      } catch (ReflectiveOperationException e) {
        throw new WebServiceException("the Invoker cannot inject the context: " + e, e);
      }
    }
    return runtime.dispatcher(wsdl(ws, model, service, port));
  }

  private WsdlDocuments wsdl(WebService ws, SeiModel model, QName service, QName port) {
    if (!metadata.isEmpty()) {
      try {
        return WsdlDocuments.of(Xml.bytes(metadata.get(0)).utf8());
      } catch (IOException e) {
        throw new WebServiceException("cannot read the endpoint's metadata: " + e, e);
      }
    }
    if (!ws.wsdlLocation().isEmpty()) {
      return Wsdls.load(ws.wsdlLocation(), implementorClass.getClassLoader());
    }
    return WsdlDocuments.of(WsdlGenerator.generate(model, binding, service, port,
        model.sei(), implementorClass));
  }

  private Class<?> load(String name) {
    try {
      return Class.forName(name, true, implementorClass.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new WebServiceException("endpointInterface " + name + " cannot be loaded", e);
    }
  }

  private QName property(String name, QName otherwise) {
    return properties.get(name) instanceof QName q ? q : otherwise;
  }

  @Override
  public synchronized void stop() {
    if (published != null) {
      unpublish.run();
      published = null;
      unpublish = null;
      if (implementor != null && !containerLifecycle()) {
        Injection.destroy(implementor);
      }
    }
  }

  @Override
  public synchronized boolean isPublished() {
    return published != null;
  }

  @Override
  public List<Source> getMetadata() {
    return metadata;
  }

  @Override
  public void setMetadata(List<Source> metadata) {
    this.metadata = metadata == null ? new ArrayList<>() : new ArrayList<>(metadata);
  }

  @Override
  public Executor getExecutor() {
    return executor;
  }

  @Override
  public void setExecutor(Executor executor) {
    this.executor = executor;
  }

  @Override
  public Map<String, Object> getProperties() {
    return properties;
  }

  @Override
  public void setProperties(Map<String, Object> properties) {
    this.properties = properties == null ? new HashMap<>() : new HashMap<>(properties);
  }

  @Override
  public EndpointReference getEndpointReference(Element... referenceParameters) {
    return getEndpointReference(W3CEndpointReference.class, referenceParameters);
  }

  @Override
  public <T extends EndpointReference> T getEndpointReference(Class<T> clazz,
      Element... referenceParameters) {
    if (published == null) {
      throw new WebServiceException("the endpoint is not published");
    }
    W3CEndpointReferenceBuilder b = new W3CEndpointReferenceBuilder()
        .address(published.toString());
    for (Element e : referenceParameters) {
      b.referenceParameter(e);
    }
    return clazz.cast(b.build());
  }

  @Override
  public void setEndpointContext(EndpointContext ctxt) {
    // endpoints here find each other by address; the context adds nothing
  }
}
