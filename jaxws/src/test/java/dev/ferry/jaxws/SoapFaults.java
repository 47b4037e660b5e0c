package dev.ferry.jaxws;

import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPFactory;
import jakarta.xml.soap.SOAPFault;
import javax.xml.namespace.QName;

/** SAAJ faults for tests. */
final class SoapFaults {
  private SoapFaults() {}

  static SOAPFault fault(String ns, String code, String reason) {
    try {
      return SOAPFactory.newInstance().createFault(reason, new QName(ns, code, "b"));
    } catch (SOAPException e) {
      throw new IllegalStateException(e);
    }
  }
}
