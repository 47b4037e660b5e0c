package dev.ferry.jaxws;

import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.jws.WebService;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.ws.WebFault;
import jakarta.xml.ws.soap.SOAPFaultException;

/** A code-first service with two declared faults, one of each kind, and a SOAP fault. */
@WebService(targetNamespace = "urn:bank")
public class Bank {
  /** The fault bean of {@link NoSuchAccount}, as wsimport would generate it. */
  @XmlAccessorType(XmlAccessType.FIELD)
  @XmlType(name = "noSuchAccountInfo", namespace = "urn:bank")
  public static class NoSuchAccountInfo {
    public String account;
  }

  /** A fault with a bean, as wsimport writes it. */
  @WebFault(name = "noSuchAccount", targetNamespace = "urn:bank")
  public static class NoSuchAccount extends Exception {
    private static final long serialVersionUID = 1L;
    private final NoSuchAccountInfo info;

    public NoSuchAccount(String message, NoSuchAccountInfo info) {
      super(message);
      this.info = info;
    }

    public NoSuchAccountInfo getFaultInfo() {
      return info;
    }
  }

  /** A code-first fault: its message is its detail. */
  public static class Overdrawn extends Exception {
    private static final long serialVersionUID = 1L;

    public Overdrawn(String message) {
      super(message);
    }
  }

  @WebResult(name = "balance")
  public long withdraw(@WebParam(name = "account") String account,
      @WebParam(name = "amount") long amount) throws NoSuchAccount, Overdrawn {
    if (account.equals("bogus")) {
      NoSuchAccountInfo info = new NoSuchAccountInfo();
      info.account = account;
      throw new NoSuchAccount("no account " + account, info);
    }
    if (amount > 100) {
      throw new Overdrawn("balance 100 < " + amount);
    }
    if (amount < 0) {
      throw new SOAPFaultException(SoapFaults.fault("urn:bank", "NegativeAmount",
          "amounts are positive"));
    }
    if (amount == 0) {
      throw new IllegalArgumentException("zero");
    }
    return 100 - amount;
  }
}
