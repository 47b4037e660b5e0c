package dev.ferry.soap;

import java.io.IOException;

/**
 * A message that is refused with a given SOAP fault: one a security check failed on (WS-Security,
 * a route's required caller), as opposed to one that could not be read ({@link SoapException}).
 * Servers and brokers answer with {@link #fault()}.
 */
public final class FaultException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Fault fault;

  public FaultException(Fault fault) {
    super(fault.reason());
    this.fault = fault;
  }

  public FaultException(Fault fault, Throwable cause) {
    super(fault.reason(), cause);
    this.fault = fault;
  }

  /** The fault to answer with. */
  public Fault fault() {
    return fault;
  }
}
