package dev.ferry.broker;

import dev.ferry.bytes.DecodeException;
import dev.ferry.server.internal.FaultReplies;
import dev.ferry.soap.Fault;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapVersion;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import javax.xml.namespace.QName;

/**
 * What the broker does with a request it forwards, whichever way it came in ({@link
 * BrokerServlet}, which streams, or {@link BrokerFastPath} for small requests): pick the route,
 * rewrite wsa:To and add the trace header on the message's overlay, and the faults for what
 * can fail on the way. Both paths share it so that their messages and faults cannot drift
 * apart.
 */
final class Forwarding {
  /** The trace header block the broker adds to every forwarded request. */
  static final QName TRACE = new QName("urn:dev.ferry:trace", "Trace", "ferry");

  private final Routes routes;
  private final String name;

  /** {@code name} is the broker's name in the trace header. */
  Forwarding(Routes routes, String name) {
    this.routes = routes;
    this.name = name;
  }

  /**
   * Picks the route for a request to {@code path} and changes the message for it; returns null,
   * leaving the message as it was, if no route matches.
   */
  Routes.Route prepare(String path, Message message, String soapAction) {
    Routes.Route route = routes.match(path, message.addressing().action(), soapAction);
    if (route == null) {
      return null;
    }
    if (message.addressing().to() != null) {
      message.addressing().setTo(route.to().toString());
    }
    message.addHeader(HeaderBlock.text(TRACE, name + " " + Long.toHexString(System.nanoTime())));
    return route;
  }

  /** The Sender fault for a request to {@code path} that no route matches. */
  static Fault noRoute(String path, Message message, String soapAction) {
    SoapVersion version = message.version();
    String action = message.addressing().action();
    return Fault.of(version, version.senderFaultCode(), "no route for " + path
        + " with action " + (action != null ? action : soapAction));
  }

  /**
   * The fault for a forward to {@code backend} that failed before its reply began: the rest of
   * the caller's request could not be read (Sender, naming a limit that was hit), the backend
   * timed out or failed (Receiver, naming it).
   */
  static Fault failed(SoapVersion version, URI backend, IOException e) {
    if (e instanceof DecodeException d) {
      return FaultReplies.forBadInput(version, d);
    }
    if (e instanceof HttpTimeoutException) {
      return Fault.of(version, version.receiverFaultCode(), "the backend " + backend
          + " timed out: " + e.getMessage());
    }
    String m = e.getMessage();
    return Fault.of(version, version.receiverFaultCode(), "the backend " + backend
        + " failed: " + e.getClass().getSimpleName() + (m == null ? "" : ": " + m));
  }
}
