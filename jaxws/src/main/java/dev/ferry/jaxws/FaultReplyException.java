package dev.ferry.jaxws;

import dev.ferry.soap.Fault;
import java.io.IOException;

/** The reply to a typed call was a SOAP fault: its code, reason and detail. */
public final class FaultReplyException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Fault fault;

  public FaultReplyException(Fault fault) {
    super(fault.code() + ": " + fault.reason());
    this.fault = fault;
  }

  public Fault fault() {
    return fault;
  }
}
