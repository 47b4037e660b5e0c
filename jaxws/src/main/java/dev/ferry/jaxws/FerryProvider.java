package dev.ferry.jaxws;

import dev.ferry.jaxws.internal.EndpointImpl;
import dev.ferry.jaxws.internal.ServiceDelegateImpl;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.EndpointReference;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.spi.Invoker;
import jakarta.xml.ws.spi.Provider;
import jakarta.xml.ws.spi.ServiceDelegate;
import jakarta.xml.ws.wsaddressing.W3CEndpointReference;
import java.net.URL;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import org.w3c.dom.Element;

/**
 * Ferry as the Jakarta XML Web Services 4 runtime. Registered as the
 * {@code jakarta.xml.ws.spi.Provider} service, so that with Ferry on the class path
 * {@code Endpoint.publish(url, implementor)} serves on Ferry's embedded server and
 * {@code Service.create(wsdl, name).getPort(Sei.class)} calls through Ferry's client. Where
 * another runtime is on the class path too, the system property
 * {@code jakarta.xml.ws.spi.Provider=dev.ferry.jaxws.FerryProvider} picks this one.
 */
public final class FerryProvider extends Provider {
  /**
   * An {@code Endpoint} property, and a port's request context property: the
   * {@code dev.ferry.soap.SoapCodec} (and so the limits) messages are read with.
   */
  public static final String CODEC_PROPERTY = EndpointImpl.CODEC;

  /**
   * A port's request context property: the {@code dev.ferry.security.TlsSettings} of its
   * {@code https} calls (the certificates trusted, a client certificate); the JDK's trust if
   * not set. HTTP Basic credentials come from {@code BindingProvider.USERNAME_PROPERTY} and
   * {@code PASSWORD_PROPERTY}, extra headers from {@code MessageContext.HTTP_REQUEST_HEADERS}.
   */
  public static final String TLS_PROPERTY = EndpointImpl.TLS;

  /**
   * A port's request context property: the {@code io.opentelemetry.api.OpenTelemetry} its
   * calls' spans go to (each call a client span named {@code PortType/operation}); the global
   * one, as registered when the first port of these settings called, if not set. An endpoint's
   * spans are configured by {@code ServerOptions.openTelemetry} in its {@link ServerFeature}.
   */
  public static final String OPEN_TELEMETRY_PROPERTY = EndpointImpl.OPEN_TELEMETRY;

  /** Made by the service loader; there is no state of its own. */
  public FerryProvider() {}

  @Override
  public ServiceDelegate createServiceDelegate(URL wsdlDocumentLocation, QName serviceName,
      Class<? extends Service> serviceClass) {
    return new ServiceDelegateImpl(wsdlDocumentLocation, serviceName, serviceClass);
  }

  @Override
  public ServiceDelegate createServiceDelegate(URL wsdlDocumentLocation, QName serviceName,
      Class<? extends Service> serviceClass, WebServiceFeature... features) {
    return new ServiceDelegateImpl(wsdlDocumentLocation, serviceName, serviceClass, features);
  }

  @Override
  public Endpoint createEndpoint(String bindingId, Object implementor) {
    return new EndpointImpl(bindingId, implementor, implementor.getClass(), null);
  }

  @Override
  public Endpoint createEndpoint(String bindingId, Object implementor,
      WebServiceFeature... features) {
    return new EndpointImpl(bindingId, implementor, implementor.getClass(), null, features);
  }

  @Override
  public Endpoint createEndpoint(String bindingId, Class<?> implementorClass, Invoker invoker,
      WebServiceFeature... features) {
    return new EndpointImpl(bindingId, null, implementorClass, invoker, features);
  }

  @Override
  public Endpoint createAndPublishEndpoint(String address, Object implementor) {
    Endpoint e = createEndpoint(null, implementor);
    e.publish(address);
    return e;
  }

  @Override
  public Endpoint createAndPublishEndpoint(String address, Object implementor,
      WebServiceFeature... features) {
    Endpoint e = createEndpoint(null, implementor, features);
    e.publish(address);
    return e;
  }

  @Override
  public EndpointReference readEndpointReference(Source eprInfoset) {
    return new W3CEndpointReference(eprInfoset);
  }

  @Override
  public <T> T getPort(EndpointReference endpointReference, Class<T> serviceEndpointInterface,
      WebServiceFeature... features) {
    return new ServiceDelegateImpl(null, new QName("urn:dev.ferry:jaxws", "Service"),
        Service.class).getPort(endpointReference, serviceEndpointInterface, features);
  }

  @Override
  public W3CEndpointReference createW3CEndpointReference(String address, QName serviceName,
      QName portName, List<Element> metadata, String wsdlDocumentLocation,
      List<Element> referenceParameters) {
    return createW3CEndpointReference(address, null, serviceName, portName, metadata,
        wsdlDocumentLocation, referenceParameters, null, null);
  }

  @Override
  public W3CEndpointReference createW3CEndpointReference(String address, QName interfaceName,
      QName serviceName, QName portName, List<Element> metadata, String wsdlDocumentLocation,
      List<Element> referenceParameters, List<Element> elements,
      Map<QName, String> attributes) {
    return dev.ferry.jaxws.internal.EndpointReferences.create(address, referenceParameters);
  }
}
