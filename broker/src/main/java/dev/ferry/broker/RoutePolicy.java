package dev.ferry.broker;

import dev.ferry.security.Identity;
import dev.ferry.security.TlsSettings;
import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.SoapVersion;
import dev.ferry.soap.MessageGuard;
import java.util.Set;

/**
 * What a route asks of its callers and how it reaches its backend: the callers it lets through
 * (by the names the broker's {@code Authenticator} gave them), the header that tells the backend
 * who called, and the TLS of an {@code https} backend (its trust, the broker's certificate).
 *
 * @param callers the identities let through, {@code *} for any authenticated caller; null lets
 *     everyone through
 * @param identityHeader the request header the caller's identity goes to the backend in, or
 *     null; a caller's own header of that name is never passed on
 * @param backendTls the TLS towards an {@code https} backend, or null for the JDK's trust
 * @param verify the WS-Security a request must carry, checked before it is forwarded (the
 *     message goes on as it came, signatures intact), or null
 * @param resign WS-Security applied anew after the broker's changes, the caller's security
 *     header removed first (for a route that must change a header a signature covers), or null
 * @param terminate whether WS-Security ends at the broker: the request {@code verify} checked
 *     goes on decrypted and without its security headers, to a backend that trusts the broker
 */
public record RoutePolicy(Set<String> callers, String identityHeader, TlsSettings backendTls,
    MessageGuard verify, MessageGuard resign, boolean terminate) {
  /** Everyone through, nothing passed on, the JDK's trust, no WS-Security. */
  public static final RoutePolicy NONE = new RoutePolicy(null, null, null);

  public RoutePolicy {
    callers = callers == null ? null : Set.copyOf(callers);
    if (terminate && (verify == null || resign != null)) {
      throw new IllegalArgumentException("a route that ends WS-Security verifies (verify) and"
          + " does not sign anew (resign)");
    }
  }

  /** A policy without WS-Security. */
  public RoutePolicy(Set<String> callers, String identityHeader, TlsSettings backendTls) {
    this(callers, identityHeader, backendTls, null, null, false);
  }

  /**
   * Lets {@code caller} through on {@code route}, or throws the Sender fault that refuses it
   * (naming the route, and the caller if there is one).
   */
  void admit(Identity caller, Route route, SoapVersion version) throws FaultException {
    if (callers == null || caller != null && (callers.contains("*")
        || callers.contains(caller.getName()))) {
      return;
    }
    throw new FaultException(Fault.of(version, version.senderFaultCode(), caller == null
        ? "the route " + route.name() + " takes authenticated callers only"
        : caller.getName() + " may not call " + route.name()));
  }
}
