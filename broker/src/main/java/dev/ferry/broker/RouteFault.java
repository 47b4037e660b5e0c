package dev.ferry.broker;

import dev.ferry.soap.Fault;
import dev.ferry.soap.SoapVersion;
import java.util.Objects;

/**
 * The SOAP fault a route answers with instead of forwarding: a last route on a path without
 * conditions answers the requests that no route before it took.
 *
 * @param sender whether the fault blames the caller (Sender; Client in SOAP 1.1), else the
 *     service (Receiver; Server)
 * @param reason the fault's reason text
 */
public record RouteFault(boolean sender, String reason) {
  public RouteFault {
    Objects.requireNonNull(reason);
  }

  /** The fault in {@code version}'s words. */
  Fault toFault(SoapVersion version) {
    return Fault.of(version, sender ? version.senderFaultCode() : version.receiverFaultCode(),
        reason);
  }
}
