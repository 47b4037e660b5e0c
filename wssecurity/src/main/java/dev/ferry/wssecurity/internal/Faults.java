package dev.ferry.wssecurity.internal;

import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.SoapVersion;
import javax.xml.namespace.QName;
import org.apache.wss4j.common.ext.WSSecurityException;

/**
 * The SOAP faults of WS-Security (SOAP Message Security 1.1, section 12): the {@code wsse:}
 * fault code as SOAP 1.1's code, or as SOAP 1.2's subcode under Sender. Reasons say what was
 * wrong without repeating what a sender sent (no passwords, no token values).
 */
public final class Faults {
  public static final String WSSE = "http://docs.oasis-open.org/wss/2004/01/"
      + "oasis-200401-wss-wssecurity-secext-1.0.xsd";
  public static final QName INVALID_SECURITY = new QName(WSSE, "InvalidSecurity", "wsse");
  public static final QName FAILED_CHECK = new QName(WSSE, "FailedCheck", "wsse");
  public static final QName FAILED_AUTHENTICATION = new QName(WSSE, "FailedAuthentication",
      "wsse");
  public static final QName UNSUPPORTED_ALGORITHM = new QName(WSSE, "UnsupportedAlgorithm",
      "wsse");
  public static final QName MESSAGE_EXPIRED = new QName(WSSE, "MessageExpired", "wsse");

  private Faults() {}

  /** The fault for a message refused with {@code code}, saying {@code reason}. */
  public static FaultException refuse(SoapVersion version, QName code, String reason,
      Throwable cause) {
    Fault f = version == SoapVersion.SOAP_11 ? Fault.of(version, code, reason)
        : Fault.of(version, version.senderFaultCode(), reason).withSubcode(code);
    return cause == null ? new FaultException(f) : new FaultException(f, cause);
  }

  /** The fault for WSS4J's refusal {@code e} (its code, or InvalidSecurity). */
  public static FaultException of(SoapVersion version, Throwable e) {
    WSSecurityException w = find(e);
    QName code = w != null && w.getFaultCode() != null ? w.getFaultCode() : INVALID_SECURITY;
    String why = w != null ? w.getMessage() : rootMessage(e);
    return refuse(version, new QName(WSSE, code.getLocalPart(), "wsse"),
        "WS-Security: " + (why == null ? "the security header is not valid" : why), e);
  }

  private static WSSecurityException find(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof WSSecurityException w) {
        return w;
      }
    }
    return null;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage();
  }
}
