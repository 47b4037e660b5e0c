package dev.ferry.jaxws.internal;

import dev.ferry.client.SoapRequest;
import dev.ferry.jaxws.GuardFeature;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.Payload;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.handler.MessageContext;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a request context says about one call, beyond its address: the SOAPAction, the receive
 * timeout, HTTP Basic credentials ({@link BindingProvider#USERNAME_PROPERTY} and
 * {@link BindingProvider#PASSWORD_PROPERTY}), extra headers
 * ({@link MessageContext#HTTP_REQUEST_HEADERS}) and the guard
 * ({@link GuardFeature#REQUEST_PROPERTY}, else the port's), read once per call.
 */
record RequestOptions(String soapAction, Duration timeout, String user, String password,
    Map<String, List<String>> headers, MessageGuard guard, String portType, String operation) {

  /** The options of a call of {@code operation} of {@code portType} (either may be null). */
  static RequestOptions of(Map<String, Object> context, String soapAction,
      MessageGuard portGuard, String portType, String operation) {
    Object user = context.get(BindingProvider.USERNAME_PROPERTY);
    Object password = context.get(BindingProvider.PASSWORD_PROPERTY);
    Map<String, List<String>> headers = headers(context.get(MessageContext.HTTP_REQUEST_HEADERS));
    return new RequestOptions(soapAction, Clients.receiveTimeout(context),
        user == null ? null : user.toString(), password == null ? "" : password.toString(),
        headers, guard(context.get(GuardFeature.REQUEST_PROPERTY), portGuard), portType,
        operation);
  }

  private static MessageGuard guard(Object o, MessageGuard portGuard) {
    if (o == null) {
      return portGuard;
    }
    if (o instanceof MessageGuard g) {
      return g;
    }
    throw new WebServiceException(GuardFeature.REQUEST_PROPERTY + " must be a MessageGuard,"
        + " got " + o.getClass().getName());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, List<String>> headers(Object o) {
    if (o == null) {
      return Map.of();
    }
    if (o instanceof Map<?, ?> m && m.values().stream().allMatch(List.class::isInstance)) {
      return (Map<String, List<String>>) m;
    }
    throw new WebServiceException(MessageContext.HTTP_REQUEST_HEADERS
        + " must be a Map<String, List<String>>, got " + o.getClass().getName());
  }

  /** The client's request of {@code payload} to {@code uri} with these options. */
  SoapRequest request(URI uri, Payload payload) {
    try {
      SoapRequest.Builder b = SoapRequest.builder(uri, payload).soapAction(soapAction)
          .timeout(timeout).headers(headers).guard(guard).operation(portType, operation);
      if (user != null) {
        b.basicAuth(user, password);
      }
      return b.build();
    } catch (IllegalArgumentException e) {
      throw new WebServiceException("cannot call " + uri + ": " + e.getMessage(), e);
    }
  }
}
