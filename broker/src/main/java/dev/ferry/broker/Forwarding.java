package dev.ferry.broker;

import dev.ferry.bytes.DecodeException;
import io.netty.handler.codec.http.HttpRequest;
import dev.ferry.soap.Addressing;
import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.SoapVersion;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * What the broker does to a request it forwards: pick the route, rewrite (or set) wsa:To and
 * add the trace header on the message's overlay; and the faults for what can fail on the way.
 * A fault for a backend's failure tells the caller which service failed and how (down, slow,
 * broken), never the backend's address or the transport's words, which go to the log.
 */
final class Forwarding {
  /** The trace header block the broker adds to every forwarded request. */
  static final QName TRACE = new QName("urn:dev.ferry:trace", "Trace", "ferry");

  private final RouteTable table;
  private final String name;

  /** {@code name} is the broker's name in the trace header. */
  Forwarding(Routes routes, String name) {
    this.table = new RouteTable(routes);
    this.name = name;
  }

  Routes routes() {
    return table.routes();
  }

  /**
   * Picks the route for {@code request} to {@code path}, whose envelope is {@code message}, and
   * changes the message for it; returns null, leaving the message as it was, if no route
   * matches, and a route that answers a fault as it is chosen (the message unchanged).
   *
   * @throws dev.ferry.soap.SoapException if the route was chosen by the Body's content and the
   *     Body read is not the one every reader finds (two Bodies, a Body in the Header), or
   *     the Body is malformed where a condition read it
   * @throws FaultException if the route does not let the caller through, or the message fails
   *     the route's WS-Security checks
   * @throws IOException if the route's WS-Security cannot sign the changed message anew
   */
  Route prepare(HttpRequest request, String path, Message message, String soapAction)
      throws IOException {
    RouteTable.Selection chosen = table.select(new RouteTable.Request(path, request.headers(),
        soapAction, message));
    Route route = chosen.route();
    if (chosen.byBody()) {
      message.buffer().checkShape(); // what decided the route is what the backend reads
    }
    if (route == null) {
      return null;
    }
    RoutePolicy policy = route.policy();
    policy.admit(CallerRequest.of(request), route, message.version());
    if (route.fault() != null) {
      return route;
    }
    Set<QName> signed = Set.of();
    if (policy.verify() != null) {
      MessageGuard.Opened opened = policy.verify().open(message);
      signed = opened.protectedHeaders();
      if (policy.terminate() && opened.message() != message) { // its Body was encrypted
        message.replaceEnvelope(opened.message().toByteString());
      }
    }
    if (policy.resign() != null || policy.terminate()) {
      message.removeHeaders(SECURITY);
      signed = Set.of();
    }
    if (route.transform() != null) { // after the checks: what was verified is transformed
      route.transform().apply(message, route);
    }
    // a header a signature covers is never rewritten: the backend could not verify it then
    if ((route.alwaysSetTo() || message.addressing().to() != null)
        && !signed.contains(Addressing.TO)) {
      message.addressing().setTo(route.to().toString());
    }
    message.addHeader(HeaderBlock.text(TRACE, name + " " + Long.toHexString(System.nanoTime())));
    if (policy.resign() != null) {
      policy.resign().protect(message);
    }
    return route;
  }

  /** The WS-Security header block. */
  static final QName SECURITY = new QName("http://docs.oasis-open.org/wss/2004/01/"
      + "oasis-200401-wss-wssecurity-secext-1.0.xsd", "Security");

  /** The Sender fault for a request to {@code path} that no route matches. */
  static Fault noRoute(String path, Message message, String soapAction) {
    SoapVersion version = message.version();
    String action = message.addressing().action();
    return Fault.of(version, version.senderFaultCode(), "no route for " + path
        + " with action " + (action != null ? action : soapAction));
  }

  /**
   * The fault for a forward on {@code route} that failed before its reply began: the rest of
   * the caller's request could not be read (Sender, naming what and where), or the backend was
   * down, slow or broke (Receiver, naming the route only).
   */
  static Fault failed(SoapVersion version, Route route, IOException e) {
    if (e instanceof FaultException f) {
      return f.fault();
    }
    if (e instanceof DecodeException d) {
      return Fault.forBadInput(version, d);
    }
    String service = "the service behind " + route.path();
    if (e instanceof SocketTimeoutException) {
      return Fault.of(version, version.receiverFaultCode(), service + " timed out");
    }
    return Fault.of(version, version.receiverFaultCode(), service + " is unavailable");
  }
}
