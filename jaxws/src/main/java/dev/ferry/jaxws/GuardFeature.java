package dev.ferry.jaxws;

import dev.ferry.soap.MessageGuard;
import jakarta.xml.ws.WebServiceFeature;
import java.util.Objects;

/**
 * A {@link MessageGuard} (such as {@code dev.ferry.wssecurity.WsSecurity}) on a JAX-WS endpoint
 * or port, given as the standard API takes features:
 *
 * <ul>
 *   <li>an endpoint: {@code Endpoint.create(implementor, new GuardFeature(security))}, or
 *       {@code Endpoint.publish(address, implementor, new GuardFeature(security))}. Requests
 *       are opened before the handler chain and the implementation see them (a request that
 *       fails is answered with the guard's fault and reaches neither); replies are protected
 *       after the handlers. {@code WebServiceContext.getUserPrincipal()} is who the guard says
 *       sent the request.
 *   <li>a port or a Dispatch: {@code service.getPort(Sei.class, new GuardFeature(security))},
 *       or the {@code Service} made with the feature for all its ports. Requests are protected
 *       after the handler chain, replies opened before it; a reply that fails the checks
 *       fails the call with a {@code SOAPFaultException}. {@link #REQUEST_PROPERTY} in the
 *       request context sets a guard per call.
 * </ul>
 *
 * <p>Attachments stream past the guard as they do without it.
 */
public final class GuardFeature extends WebServiceFeature {
  /** The feature's ID. */
  public static final String ID = "dev.ferry.jaxws.GuardFeature";
  /**
   * A port's request context property: the {@link MessageGuard} of the calls made while it is
   * set, in place of the port's feature.
   */
  public static final String REQUEST_PROPERTY = "dev.ferry.jaxws.guard";

  private final MessageGuard guard;

  /** The feature, enabled, with {@code guard}. */
  public GuardFeature(MessageGuard guard) {
    this.guard = Objects.requireNonNull(guard, "guard");
    this.enabled = true;
  }

  public MessageGuard guard() {
    return guard;
  }

  @Override
  public String getID() {
    return ID;
  }
}
