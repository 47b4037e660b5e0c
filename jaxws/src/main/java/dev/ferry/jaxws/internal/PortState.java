package dev.ferry.jaxws.internal;

import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapHttpException;
import dev.ferry.client.SoapResponse;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import jakarta.xml.ws.Binding;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.EndpointReference;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.soap.SOAPFaultException;
import jakarta.xml.ws.wsaddressing.W3CEndpointReference;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * A client port's {@link BindingProvider} side: its binding, request context (the endpoint
 * address among it) and the response context of its last call; and the exchange every call of
 * a proxy or a Dispatch makes: the handler chain, then Ferry's {@code SoapClient}.
 */
class PortState implements BindingProvider, Closeable {
  final SoapBindingImpl binding;
  final Executor executor;
  private final Map<String, Object> requestContext = Collections.synchronizedMap(
      new HashMap<>());
  private volatile Map<String, Object> responseContext = Map.of();
  /** The last endpoint address called and its URI (most ports call one address). */
  private volatile Address lastAddress;

  /** A reply: its message (null for none), its HTTP status, and what holds it open. */
  record Reply(Message message, int status, ReplyLease lease) {}

  PortState(SoapBindingImpl binding, String address, Executor executor) {
    this.binding = binding;
    this.executor = executor;
    if (address != null) {
      requestContext.put(ENDPOINT_ADDRESS_PROPERTY, address);
    }
  }

  /** A copy of the request context as it is now: a call's settings do not change mid-call. */
  Map<String, Object> snapshot() {
    synchronized (requestContext) {
      return new HashMap<>(requestContext);
    }
  }

  SoapCodec codec(Map<String, Object> context) {
    return Clients.codec(context);
  }

  /**
   * Sends {@code request} to the context's address, through the handler chain; the call's span
   * is named after {@code portType} and {@code operation}.
   */
  Reply send(Payload request, String action, Map<String, Object> context, String portType,
      String operation) {
    Object address = context.get(ENDPOINT_ADDRESS_PROPERTY);
    if (address == null) {
      throw new WebServiceException("no endpoint address: set the request context's "
          + ENDPOINT_ADDRESS_PROPERTY);
    }
    URI uri = uri(address.toString());
    SoapClient client = Clients.of(context);
    String soapAction = soapAction(action, context);
    RequestOptions options = RequestOptions.of(context, soapAction, binding.guard(),
        portType, operation);
    // handlers see the call's properties in a context of their own; without any, none is made
    MessageContextImpl properties = binding.chain().isEmpty() ? null : outbound(context);
    SoapResponse[] response = new SoapResponse[1];
    List<HandlerMessage> kept = new ArrayList<>();
    try {
      Message message;
      if (binding.chain().isEmpty()) {
        response[0] = client.call(options.request(uri, request));
        message = response[0].message();
      } else {
        message = new HandlerRunner(binding, codec(context)).send(request, properties, p -> {
          response[0] = client.call(options.request(uri, p));
          return response[0].message();
        }, kept);
      }
      int status = response[0] == null ? 200 : response[0].status();
      ReplyLease lease = new ReplyLease(response[0]);
      kept.forEach(lease::alsoClose);
      responseContext = responseContext(response[0],
          properties == null ? context : properties.applicationScope());
      return new Reply(message, status, lease);
    } catch (SoapHttpException e) {
      close(response[0], kept);
      throw new WebServiceException("the reply from " + uri + " is not SOAP: " + e.getMessage(),
          e);
    } catch (FaultException e) {
      close(response[0], kept); // the reply failed the guard's checks: as a fault (as CXF does)
      SOAPFaultException f = new SOAPFaultException(Faults.saajFault(e.fault(), null));
      f.initCause(e);
      throw f;
    } catch (IOException e) {
      close(response[0], kept);
      throw new WebServiceException("cannot call " + uri + ": " + e.getMessage(), e);
    }
  }

  private static void close(SoapResponse response, List<HandlerMessage> kept) {
    try {
      for (HandlerMessage m : kept) {
        m.close();
      }
      if (response != null) {
        response.close();
      }
    } catch (IOException e) {
      // the call failed already; that failure is the one to report
    }
  }

  /** SOAP 1.1 sends an action always (the binding says so); 1.2 leaves it out. */
  private String soapAction(String action, Map<String, Object> context) {
    if (binding.version() != SoapVersion.SOAP_11) {
      return null;
    }
    Object uri = context.get(SOAPACTION_URI_PROPERTY);
    boolean use = Boolean.TRUE.equals(context.get(SOAPACTION_USE_PROPERTY));
    return use && uri != null ? uri.toString() : action == null ? "" : action;
  }

  private static MessageContextImpl outbound(Map<String, Object> context) {
    MessageContextImpl m = new MessageContextImpl();
    context.forEach(m::putApplication);
    m.putApplication(MessageContext.MESSAGE_OUTBOUND_PROPERTY, true);
    return m;
  }

  /** The response context: the call's application properties and the reply's status, headers. */
  private static Map<String, Object> responseContext(SoapResponse r,
      Map<String, Object> properties) {
    Map<String, Object> out = new HashMap<>(properties);
    out.remove(MessageContext.MESSAGE_OUTBOUND_PROPERTY);
    if (r != null) {
      out.put(MessageContext.HTTP_RESPONSE_CODE, r.status());
      out.put(MessageContext.HTTP_RESPONSE_HEADERS, new LazyMap<>(r::headers));
    }
    return Collections.unmodifiableMap(out);
  }

  /** The endpoint address as a URI, parsed once while it stays the same. */
  private URI uri(String address) {
    Address last = lastAddress;
    if (last == null || !last.text().equals(address)) {
      last = new Address(address, URI.create(address));
      lastAddress = last;
    }
    return last.uri();
  }

  private record Address(String text, URI uri) {}

  @Override
  public Map<String, Object> getRequestContext() {
    return requestContext;
  }

  @Override
  public Map<String, Object> getResponseContext() {
    return responseContext;
  }

  @Override
  public Binding getBinding() {
    return binding;
  }

  @Override
  public EndpointReference getEndpointReference() {
    return getEndpointReference(W3CEndpointReference.class);
  }

  @Override
  public <T extends EndpointReference> T getEndpointReference(Class<T> clazz) {
    Object address = requestContext.get(ENDPOINT_ADDRESS_PROPERTY);
    return clazz.cast(EndpointReferences.create(address == null ? null : address.toString(),
        null));
  }

  /** Ports share pooled clients: closing one releases nothing of its own. */
  @Override
  public void close() {
    requestContext.clear();
  }
}
