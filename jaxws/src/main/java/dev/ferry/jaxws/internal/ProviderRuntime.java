package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapFaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.soap.SOAPMessage;
import jakarta.xml.ws.Provider;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.ServiceMode;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.WebServiceProvider;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;

/**
 * A {@code @WebServiceProvider} endpoint: every request goes to its {@link Provider#invoke},
 * as a {@link Source} of the Body's content (PAYLOAD mode) or of the whole envelope, or as a
 * SAAJ {@link SOAPMessage} (MESSAGE mode, attachments included); the answer goes back the same
 * way. A null answer is a one-way reply.
 */
final class ProviderRuntime implements Endpoint {
  private final Provider<Object> provider;
  private final boolean source;
  private final boolean payload;
  private final SoapBindingImpl binding;
  private final SoapCodec codec;
  private final Faults faults;
  private final HandlerRunner handlers;
  private final QName service;
  private final QName port;

  @SuppressWarnings("unchecked")
  private ProviderRuntime(Object implementor, Class<?> type, SoapBindingImpl binding,
      SoapCodec codec) {
    if (!(implementor instanceof Provider<?>)) {
      throw new WebServiceException(type.getName() + " is a @WebServiceProvider but does not"
          + " implement jakarta.xml.ws.Provider");
    }
    this.provider = (Provider<Object>) implementor;
    Class<?> t = typeArgument(type);
    this.source = Source.class.isAssignableFrom(t);
    ServiceMode mode = type.getAnnotation(ServiceMode.class);
    this.payload = mode == null || mode.value() == Service.Mode.PAYLOAD;
    if (!source && !(t == SOAPMessage.class && !payload)) {
      throw new WebServiceException(type.getName() + ": a Provider takes a Source (PAYLOAD or"
          + " MESSAGE mode) or a SOAPMessage (MESSAGE mode), not " + t.getName());
    }
    this.binding = binding;
    this.codec = codec;
    this.faults = new Faults(codec);
    this.handlers = new HandlerRunner(binding, codec);
    WebServiceProvider wsp = type.getAnnotation(WebServiceProvider.class);
    String ns = wsp.targetNamespace().isEmpty() ? SeiReader.namespaceOf(type)
        : wsp.targetNamespace();
    this.service = new QName(ns, wsp.serviceName().isEmpty() ? type.getSimpleName() + "Service"
        : wsp.serviceName());
    this.port = new QName(ns, wsp.portName().isEmpty() ? type.getSimpleName() + "Port"
        : wsp.portName());
  }

  static Dispatcher dispatcher(EndpointImpl endpoint, Class<?> type, SoapBindingImpl binding,
      SoapCodec codec) {
    if (binding.addressing() != null) {
      throw new WebServiceException(type.getName() + ": WS-Addressing (AddressingFeature,"
          + " @Addressing) is not supported on a Provider endpoint: read and write the wsa:"
          + " headers in the messages, or serve a @WebService");
    }
    Object implementor = endpoint.getImplementor();
    ProviderRuntime p = new ProviderRuntime(implementor, type, binding, codec);
    Injection.inject(implementor, new ServerContext(), !endpoint.containerLifecycle());
    WebServiceProvider wsp = type.getAnnotation(WebServiceProvider.class);
    Dispatcher.Builder d = Dispatcher.builder().fallback(p).guard(binding.guard())
        .versions(binding.version());
    if (!wsp.wsdlLocation().isEmpty()) {
      d.wsdl(Wsdls.load(wsp.wsdlLocation(), type.getClassLoader()));
    }
    p.handlers.understood().forEach(d::understands);
    return d.build();
  }

  private static Class<?> typeArgument(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      for (Type t : c.getGenericInterfaces()) {
        if (t instanceof ParameterizedType p && p.getRawType() == Provider.class
            && p.getActualTypeArguments()[0] instanceof Class<?> arg) {
          return arg;
        }
      }
    }
    throw new WebServiceException(type.getName() + " must implement Provider<Source> or"
        + " Provider<SOAPMessage>");
  }

  @Override
  public Payload handle(Message request) throws Exception {
    return handle(request, null);
  }

  @Override
  public Payload handle(Message request, HttpServletRequest http) throws Exception {
    MessageContextImpl context = MessageContextImpl.inbound(http, service, port, null, null);
    return handlers.serve(request, context, binding.policy(),
        (message, policy) -> invoke(message, policy, context));
  }

  private Payload invoke(Message request, MtomPolicy policy, MessageContextImpl context)
      throws Exception {
    Object in = source ? (payload ? new HandlerMessage(request, codec).payload()
        : new StreamSource(request.toByteString().asInputStream())) : saaj(request);
    Object out;
    ServerContext.enter(context);
    try {
      out = provider.invoke(in);
    } catch (RuntimeException e) {
      throw new SoapFaultException(faults.toFault(e, request.version(), List.of()));
    } finally {
      ServerContext.leave();
    }
    if (out == null) {
      return null;
    }
    if (!source) {
      return Payloads.of((SOAPMessage) out, codec);
    }
    ByteString xml = Xml.bytes((Source) out);
    if (!payload) {
      return envelope(xml);
    }
    return codec.payload(request.version(), policy, List.of(), body -> body.writeRaw(
        xml.utf8()));
  }

  private SOAPMessage saaj(Message request) throws IOException {
    return new HandlerMessage(request, codec).soap();
  }

  private Payload envelope(ByteString xml) throws IOException {
    return codec.parse(xml).toMessage().toPayload();
  }
}
