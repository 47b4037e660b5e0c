package dev.ferry.server;

import dev.ferry.soap.Fault;

/** Thrown by an {@link Endpoint} to answer with a SOAP fault. */
public final class SoapFaultException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient Fault fault;

  public SoapFaultException(Fault fault) {
    super(fault.reason());
    this.fault = fault;
  }

  public Fault fault() {
    return fault;
  }
}
