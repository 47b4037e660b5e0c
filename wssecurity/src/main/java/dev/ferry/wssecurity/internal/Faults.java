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

  private static final System.Logger LOG = System.getLogger("dev.ferry.wssecurity");

  /**
   * The fault for a message that fails a check of this node's own (the policy, the envelope's
   * shape, what was signed against what is read): InvalidSecurity with the specification's
   * text, the same whatever failed, so that altered messages tell their sender nothing of which
   * check they failed. {@code detail} goes to this node's log (INFO: one line a refused message,
   * as the access log has) and is the fault's cause, which stays on this node.
   */
  public static FaultException refuseQuietly(SoapVersion version, String detail) {
    LOG.log(System.Logger.Level.INFO, "WS-Security refused a message: " + detail);
    return refuse(version, INVALID_SECURITY, "WS-Security: " + reason("InvalidSecurity"),
        new SecurityException(detail));
  }

  /**
   * The fault for WSS4J's refusal {@code e}: the category of its innermost WS-Security error
   * (InvalidSecurity if none says) with the specification's text for it; the details (which
   * certificate, which reference) go to the log at DEBUG, not to the sender.
   */
  public static FaultException of(SoapVersion version, Throwable e) {
    WSSecurityException w = find(e);
    QName code = w != null && w.getFaultCode() != null ? w.getFaultCode() : INVALID_SECURITY;
    String local = code.getLocalPart();
    LOG.log(System.Logger.Level.DEBUG, "WS-Security refused a message: " + local, e);
    return refuse(version, new QName(WSSE, local, "wsse"), "WS-Security: " + reason(local), e);
  }

  /** The innermost WS-Security error with a category of its own. */
  private static WSSecurityException find(Throwable e) {
    WSSecurityException found = null;
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof WSSecurityException w && w.getFaultCode() != null
          && w.getErrorCode() != WSSecurityException.ErrorCode.SECURITY_ERROR) {
        found = w;
      }
    }
    return found;
  }

  /** SOAP Message Security 1.1, table 12-2 and 12-3: the fault strings. */
  private static String reason(String code) {
    return switch (code) {
      case "FailedAuthentication" -> "the security token could not be authenticated or"
          + " authorized";
      case "FailedCheck" -> "the signature or decryption was invalid";
      case "MessageExpired" -> "the message has expired";
      case "InvalidSecurityToken" -> "an invalid security token was provided";
      case "SecurityTokenUnavailable" -> "a referenced security token could not be retrieved";
      case "UnsupportedAlgorithm" -> "an unsupported signature or encryption algorithm was used";
      case "UnsupportedSecurityToken" -> "an unsupported token was provided";
      default -> "an error was discovered processing the wsse:Security header";
    };
  }
}
