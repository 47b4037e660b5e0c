package dev.ferry.jaxws.internal;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.handler.MessageContext;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * The properties of one exchange, as handlers and {@code WebServiceContext} see them: a map
 * whose entries are each of APPLICATION or HANDLER scope. Not thread-safe: one per exchange.
 */
public class MessageContextImpl extends HashMap<String, Object> implements MessageContext {
  private static final long serialVersionUID = 1L;

  /**
   * The properties of HANDLER scope (null while there are none); every other one is of
   * APPLICATION scope. The runtime's own, a dozen a call, are all APPLICATION: only what
   * handlers add is noted here, where a map of every property's scope cost each call.
   */
  private Set<String> handlerScoped;

  public MessageContextImpl() {
    super();
  }

  private MessageContextImpl(int capacity) {
    super(capacity);
  }

  /** Puts a property; one that is new here is of HANDLER scope, as JAX-WS 9.4.1 has it. */
  @Override
  public Object put(String name, Object value) {
    if (!containsKey(name)) {
      scope(name, Scope.HANDLER);
    }
    return super.put(name, value);
  }

  /** Puts a property the application sees (the runtime's own). */
  public void putApplication(String name, Object value) {
    super.put(name, value);
    scope(name, Scope.APPLICATION);
  }

  @Override
  public void setScope(String name, Scope scope) {
    if (!containsKey(name)) {
      throw new IllegalArgumentException("no property " + name);
    }
    scope(name, scope);
  }

  private void scope(String name, Scope scope) {
    if (scope == Scope.HANDLER) {
      if (handlerScoped == null) {
        handlerScoped = new HashSet<>();
      }
      handlerScoped.add(name);
    } else if (handlerScoped != null) {
      handlerScoped.remove(name);
    }
  }

  @Override
  public Scope getScope(String name) {
    if (!containsKey(name)) {
      throw new IllegalArgumentException("no property " + name);
    }
    return handlerScoped != null && handlerScoped.contains(name) ? Scope.HANDLER
        : Scope.APPLICATION;
  }

  /** The properties of APPLICATION scope, for the response context a client hands out. */
  public Map<String, Object> applicationScope() {
    Map<String, Object> out = new HashMap<>();
    forEach((k, v) -> {
      if (getScope(k) == Scope.APPLICATION) {
        out.put(k, v);
      }
    });
    return out;
  }

  /** A server's context for a request that came in {@code http}, for {@code operation}. */
  public static MessageContextImpl inbound(HttpServletRequest http, QName service, QName port,
      QName portType, QName operation) {
    MessageContextImpl c = new MessageContextImpl(32); // its dozen properties, no resize
    c.putApplication(MESSAGE_OUTBOUND_PROPERTY, false);
    if (http != null) {
      c.putApplication(SERVLET_REQUEST, http);
      c.putApplication(HTTP_REQUEST_METHOD, http.getMethod());
      c.putApplication(HTTP_REQUEST_HEADERS, new RequestHeaders(http));
      c.putApplication(PATH_INFO, http.getPathInfo());
      c.putApplication(QUERY_STRING, http.getQueryString());
    }
    c.putApplication(WSDL_SERVICE, service);
    c.putApplication(WSDL_PORT, port);
    c.putApplication(WSDL_INTERFACE, portType);
    if (operation != null) {
      c.putApplication(WSDL_OPERATION, operation);
    }
    c.putApplication(INBOUND_MESSAGE_ATTACHMENTS, new LinkedHashMap<>());
    c.putApplication(OUTBOUND_MESSAGE_ATTACHMENTS, new LinkedHashMap<>());
    return c;
  }
}
