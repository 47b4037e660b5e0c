package dev.ferry.jaxws.internal;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.handler.MessageContext;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.namespace.QName;

/**
 * The properties of one exchange, as handlers and {@code WebServiceContext} see them: a map
 * whose entries are each of APPLICATION or HANDLER scope. Not thread-safe: one per exchange.
 */
public class MessageContextImpl extends HashMap<String, Object> implements MessageContext {
  private static final long serialVersionUID = 1L;

  private final Map<String, Scope> scopes = new HashMap<>();

  @Override
  public Object put(String name, Object value) {
    scopes.putIfAbsent(name, Scope.HANDLER);
    return super.put(name, value);
  }

  /** Puts a property the application sees (the runtime's own). */
  public void putApplication(String name, Object value) {
    super.put(name, value);
    scopes.put(name, Scope.APPLICATION);
  }

  @Override
  public void setScope(String name, Scope scope) {
    if (!containsKey(name)) {
      throw new IllegalArgumentException("no property " + name);
    }
    scopes.put(name, scope);
  }

  @Override
  public Scope getScope(String name) {
    Scope s = scopes.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no property " + name);
    }
    return s;
  }

  /** The properties of APPLICATION scope, for the response context a client hands out. */
  public Map<String, Object> applicationScope() {
    Map<String, Object> out = new HashMap<>();
    forEach((k, v) -> {
      if (scopes.get(k) == Scope.APPLICATION) {
        out.put(k, v);
      }
    });
    return out;
  }

  /** A server's context for a request that came in {@code http}, for {@code operation}. */
  public static MessageContextImpl inbound(HttpServletRequest http, QName service, QName port,
      QName portType, QName operation) {
    MessageContextImpl c = new MessageContextImpl();
    c.putApplication(MESSAGE_OUTBOUND_PROPERTY, false);
    if (http != null) {
      c.putApplication(SERVLET_REQUEST, http);
      c.putApplication(HTTP_REQUEST_METHOD, http.getMethod());
      c.putApplication(HTTP_REQUEST_HEADERS, headers(http));
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

  /** The request's headers, names case-insensitive as HTTP's are. */
  private static Map<String, List<String>> headers(HttpServletRequest http) {
    Map<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (String name : Collections.list(http.getHeaderNames())) {
      h.put(name, Collections.list(http.getHeaders(name)));
    }
    return Collections.unmodifiableMap(h);
  }
}
