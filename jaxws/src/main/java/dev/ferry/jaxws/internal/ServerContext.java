package dev.ferry.jaxws.internal;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.EndpointReference;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.wsaddressing.W3CEndpointReferenceBuilder;
import java.security.Principal;
import org.w3c.dom.Element;

/**
 * The {@link WebServiceContext} injected into an endpoint: it answers for the call running on
 * the asking thread (each request runs on a virtual thread of its own), and throws outside one.
 */
final class ServerContext implements WebServiceContext {
  private static final ThreadLocal<MessageContextImpl> CURRENT = new ThreadLocal<>();

  /** Makes {@code context} the current thread's until {@link #leave()}. */
  static void enter(MessageContextImpl context) {
    CURRENT.set(context);
  }

  static void leave() {
    CURRENT.remove();
  }

  private static MessageContextImpl current() {
    MessageContextImpl c = CURRENT.get();
    if (c == null) {
      throw new IllegalStateException("WebServiceContext is only valid while a request is"
          + " being served, on its thread");
    }
    return c;
  }

  @Override
  public MessageContext getMessageContext() {
    return current();
  }

  @Override
  public Principal getUserPrincipal() {
    HttpServletRequest http = request();
    return http == null ? null : http.getUserPrincipal();
  }

  @Override
  public boolean isUserInRole(String role) {
    HttpServletRequest http = request();
    return http != null && http.isUserInRole(role);
  }

  @Override
  public EndpointReference getEndpointReference(Element... referenceParameters) {
    return getEndpointReference(EndpointReference.class, referenceParameters);
  }

  @Override
  public <T extends EndpointReference> T getEndpointReference(Class<T> clazz,
      Element... referenceParameters) {
    HttpServletRequest http = request();
    W3CEndpointReferenceBuilder b = new W3CEndpointReferenceBuilder()
        .address(http == null ? null : http.getRequestURL().toString());
    for (Element e : referenceParameters) {
      b.referenceParameter(e);
    }
    return clazz.cast(b.build());
  }

  private static HttpServletRequest request() {
    return (HttpServletRequest) current().get(MessageContext.SERVLET_REQUEST);
  }
}
