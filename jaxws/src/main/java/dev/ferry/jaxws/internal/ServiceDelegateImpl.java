package dev.ferry.jaxws.internal;

import dev.ferry.soap.SoapCodec;
import jakarta.jws.WebService;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.ws.BindingType;
import jakarta.xml.ws.Dispatch;
import jakarta.xml.ws.EndpointReference;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.handler.HandlerResolver;
import jakarta.xml.ws.handler.PortInfo;
import jakarta.xml.ws.soap.SOAPBinding;
import java.net.URL;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import javax.xml.namespace.QName;
import javax.xml.transform.dom.DOMResult;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * A client's {@code Service}: its ports, read from the WSDL (address and SOAP version) or added
 * by {@link #addPort}; proxies of service endpoint interfaces and Dispatches on them. A SEI's
 * model and JAXB context are made once per class loader and shared by all its ports.
 */
public final class ServiceDelegateImpl extends jakarta.xml.ws.spi.ServiceDelegate {
  private static final Executor VIRTUAL_THREADS = Executors.newVirtualThreadPerTaskExecutor();
  private static final ClassValue<SeiModel> MODELS = new ClassValue<>() {
    @Override
    protected SeiModel computeValue(Class<?> sei) {
      return SeiModel.of(sei);
    }
  };

  private final URL wsdl;
  private final QName serviceName;
  private final Map<QName, WsdlPorts.Port> ports;
  private final WebServiceFeature[] serviceFeatures;
  private HandlerResolver handlerResolver;
  private Executor executor;

  public ServiceDelegateImpl(URL wsdl, QName serviceName, Class<? extends Service> serviceClass,
      WebServiceFeature... features) {
    this.wsdl = wsdl;
    this.serviceName = serviceName;
    this.serviceFeatures = features.clone();
    this.ports = wsdl == null ? new LinkedHashMap<>()
        : new LinkedHashMap<>(WsdlPorts.read(wsdl, serviceName, SoapCodec.create()));
    if (wsdl != null && ports.isEmpty()) {
      throw new WebServiceException("the WSDL at " + wsdl + " has no SOAP port of service "
          + serviceName);
    }
  }

  @Override
  public <T> T getPort(QName portName, Class<T> sei) {
    return getPort(portName, sei, new WebServiceFeature[0]);
  }

  @Override
  public <T> T getPort(QName portName, Class<T> sei, WebServiceFeature... features) {
    WsdlPorts.Port port = ports.get(portName);
    if (port == null && wsdl != null) {
      throw new WebServiceException("no port " + portName + " in service " + serviceName
          + " of " + wsdl + " (it has " + ports.keySet() + ")");
    }
    return proxy(portName, port, sei, features);
  }

  @Override
  public <T> T getPort(Class<T> sei) {
    return getPort(sei, new WebServiceFeature[0]);
  }

  @Override
  public <T> T getPort(Class<T> sei, WebServiceFeature... features) {
    WsdlPorts.Port port = ports.values().stream().findFirst().orElse(null);
    QName name = port != null ? port.name() : new QName(MODELS.get(sei).targetNamespace(),
        MODELS.get(sei).portTypeName() + "Port");
    return proxy(name, port, sei, features);
  }

  @Override
  public <T> T getPort(EndpointReference reference, Class<T> sei,
      WebServiceFeature... features) {
    T proxy = getPort(sei, features);
    ((jakarta.xml.ws.BindingProvider) proxy).getRequestContext().put(
        jakarta.xml.ws.BindingProvider.ENDPOINT_ADDRESS_PROPERTY, address(reference));
    return proxy;
  }

  private static String address(EndpointReference reference) {
    DOMResult dom = new DOMResult();
    reference.writeTo(dom);
    NodeList n = ((org.w3c.dom.Document) dom.getNode()).getElementsByTagNameNS(
        "http://www.w3.org/2005/08/addressing", "Address");
    if (n.getLength() == 0) {
      throw new WebServiceException("the endpoint reference has no Address");
    }
    return ((Element) n.item(0)).getTextContent().strip();
  }

  private <T> T proxy(QName portName, WsdlPorts.Port port, Class<T> sei,
      WebServiceFeature[] features) {
    if (!sei.isAnnotationPresent(WebService.class)) {
      throw new WebServiceException(sei.getName() + " is not a @WebService interface");
    }
    SoapBindingImpl binding = binding(port != null ? port.bindingId() : bindingOf(sei),
        features);
    binding.setHandlerChain(handlerChain(portName, binding.getBindingID()));
    return PortProxy.create(sei, MODELS.get(sei), binding, port == null ? null : port.address(),
        executor());
  }

  private static String bindingOf(Class<?> sei) {
    BindingType bt = sei.getAnnotation(BindingType.class);
    return bt != null && !bt.value().isEmpty() ? bt.value() : SOAPBinding.SOAP11HTTP_BINDING;
  }

  /** A port's binding: the service's features, then the port's own (which win). */
  private SoapBindingImpl binding(String bindingId, WebServiceFeature[] features) {
    WebServiceFeature[] all = Arrays.copyOf(serviceFeatures,
        serviceFeatures.length + features.length);
    System.arraycopy(features, 0, all, serviceFeatures.length, features.length);
    return SoapBindingImpl.of(bindingId, false, 0, all);
  }

  @SuppressWarnings("rawtypes")
  private java.util.List<jakarta.xml.ws.handler.Handler> handlerChain(QName portName,
      String bindingId) {
    if (handlerResolver == null) {
      return java.util.List.of();
    }
    PortInfo info = new PortInfo() {
      @Override
      public QName getServiceName() {
        return serviceName;
      }

      @Override
      public QName getPortName() {
        return portName;
      }

      @Override
      public String getBindingID() {
        return bindingId;
      }
    };
    return handlerResolver.getHandlerChain(info);
  }

  @Override
  public void addPort(QName portName, String bindingId, String endpointAddress) {
    ports.put(portName, new WsdlPorts.Port(portName, endpointAddress,
        bindingId == null ? SOAPBinding.SOAP11HTTP_BINDING : bindingId));
  }

  @Override
  public <T> Dispatch<T> createDispatch(QName portName, Class<T> type, Service.Mode mode) {
    return createDispatch(portName, type, mode, new WebServiceFeature[0]);
  }

  @Override
  public <T> Dispatch<T> createDispatch(QName portName, Class<T> type, Service.Mode mode,
      WebServiceFeature... features) {
    return dispatch(portName, type, mode, null, features);
  }

  @Override
  public <T> Dispatch<T> createDispatch(EndpointReference reference, Class<T> type,
      Service.Mode mode, WebServiceFeature... features) {
    QName port = ports.keySet().stream().findFirst().orElseThrow(() ->
        new WebServiceException("the service has no port to dispatch to"));
    Dispatch<T> d = createDispatch(port, type, mode, features);
    d.getRequestContext().put(jakarta.xml.ws.BindingProvider.ENDPOINT_ADDRESS_PROPERTY,
        address(reference));
    return d;
  }

  @Override
  public Dispatch<Object> createDispatch(QName portName, JAXBContext context,
      Service.Mode mode) {
    return createDispatch(portName, context, mode, new WebServiceFeature[0]);
  }

  @Override
  public Dispatch<Object> createDispatch(QName portName, JAXBContext context,
      Service.Mode mode, WebServiceFeature... features) {
    return dispatch(portName, Object.class, mode, context, features);
  }

  @Override
  public Dispatch<Object> createDispatch(EndpointReference reference, JAXBContext context,
      Service.Mode mode, WebServiceFeature... features) {
    QName port = ports.keySet().stream().findFirst().orElseThrow(() ->
        new WebServiceException("the service has no port to dispatch to"));
    Dispatch<Object> d = createDispatch(port, context, mode, features);
    d.getRequestContext().put(jakarta.xml.ws.BindingProvider.ENDPOINT_ADDRESS_PROPERTY,
        address(reference));
    return d;
  }

  private <T> Dispatch<T> dispatch(QName portName, Class<T> type, Service.Mode mode,
      JAXBContext context, WebServiceFeature[] features) {
    WsdlPorts.Port port = ports.get(portName);
    if (port == null) {
      throw new WebServiceException("no port " + portName + " in service " + serviceName
          + ": add it with addPort, or create the service from its WSDL");
    }
    SoapBindingImpl binding = binding(port.bindingId(), features);
    if (binding.addressing() != null) {
      throw new WebServiceException("WS-Addressing (AddressingFeature) is not supported on a"
          + " Dispatch: put the wsa: headers in the messages, or call through a port");
    }
    binding.setHandlerChain(handlerChain(portName, port.bindingId()));
    return new DispatchImpl<>(binding, port.address(), executor(), type, mode, context);
  }

  private Executor executor() {
    return executor != null ? executor : VIRTUAL_THREADS;
  }

  @Override
  public QName getServiceName() {
    return serviceName;
  }

  @Override
  public Iterator<QName> getPorts() {
    return ports.keySet().iterator();
  }

  @Override
  public URL getWSDLDocumentLocation() {
    return wsdl;
  }

  @Override
  public HandlerResolver getHandlerResolver() {
    return handlerResolver;
  }

  @Override
  public void setHandlerResolver(HandlerResolver handlerResolver) {
    this.handlerResolver = handlerResolver;
  }

  @Override
  public Executor getExecutor() {
    return executor;
  }

  @Override
  public void setExecutor(Executor executor) {
    this.executor = executor;
  }
}
