package dev.ferry.soap;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the SOAP 1.1 and 1.2 HTTP bindings say about a message's media type, its action and a
 * fault's status, shared by every side of an HTTP exchange (server, client, broker).
 */
public final class SoapBinding {
  private static final String XOP_TYPE = "application/xop+xml";
  /** A WSDL port's address element (SOAP 1.1 or 1.2 binding), whatever its prefix. */
  private static final Pattern ADDRESS = Pattern.compile(
      "(<(?:[A-Za-z0-9_]+:)?address\\b[^>]*?\\slocation=\")[^\"]*(\")");

  private SoapBinding() {}

  /**
   * Returns the SOAP version a Content-Type announces (for a package: its {@code type}, or for
   * XOP its {@code start-info}), or null if it is not a SOAP media type. SOAP 1.1 is
   * {@code text/xml}, SOAP 1.2 {@code application/soap+xml}.
   */
  public static SoapVersion version(MediaType type) {
    String base = type.baseType();
    if (type.isMultipart()) {
      if (!base.equals("multipart/related")) {
        return null;
      }
      String root = type.parameter("type");
      if (XOP_TYPE.equalsIgnoreCase(root)) {
        root = type.parameter("start-info");
      }
      if (root == null) {
        return SoapVersion.SOAP_11;
      }
      SoapVersion bare = ofBaseType(root); // as clients send it: no parameters, nothing to parse
      if (bare != null) {
        return bare;
      }
      MediaType rootType = parseOrNull(root);
      if (rootType == null) {
        return null; // a malformed type parameter names no SOAP type
      }
      base = rootType.baseType();
    }
    return ofBaseType(base);
  }

  private static SoapVersion ofBaseType(String base) {
    return switch (base.toLowerCase(Locale.ROOT)) {
      case "text/xml" -> SoapVersion.SOAP_11;
      case "application/soap+xml" -> SoapVersion.SOAP_12;
      default -> null;
    };
  }

  /**
   * Returns the SOAP action of a request: the {@code SOAPAction} header (SOAP 1.1) without its
   * quotes, else the {@code action} parameter of the Content-Type (SOAP 1.2; of its
   * {@code start-info} in an XOP package), else null.
   *
   * @param header the SOAPAction header's value, or null if there is none
   */
  public static String soapAction(String header, MediaType type) {
    String action = header;
    if (action == null) {
      action = type.parameter("action");
      if (action == null && type.isMultipart()) {
        String startInfo = type.parameter("start-info");
        // an action is a parameter: a start-info without a ';' has none, and is not parsed
        MediaType info = startInfo == null || startInfo.indexOf(';') < 0 ? null
            : parseOrNull(startInfo);
        action = info == null ? null : info.parameter("action");
      }
    }
    if (action != null && action.length() >= 2 && action.startsWith("\"")
        && action.endsWith("\"")) {
      action = action.substring(1, action.length() - 1);
    }
    return action;
  }

  private static MediaType parseOrNull(String value) {
    try {
      return MediaType.parse(value);
    } catch (MimeException e) {
      return null;
    }
  }

  /** Returns the {@code SOAPAction} header value for {@code action}: quoted, as SOAP 1.1 says. */
  public static String soapActionHeader(String action) {
    return "\"" + action + "\"";
  }

  /**
   * Returns the HTTP status of a response carrying {@code fault}: SOAP 1.1 answers every fault
   * with 500; SOAP 1.2 a Sender fault with 400 and the others with 500.
   */
  public static int status(Fault fault) {
    if (fault.version() == SoapVersion.SOAP_12
        && fault.code().equals(SoapVersion.SOAP_12.senderFaultCode())) {
      return 400;
    }
    return 500;
  }

  /**
   * Returns {@code wsdl} with the location of every port's {@code soap:address} (or
   * {@code soap12:address}) replaced by {@code address}: a service serves its WSDL with the
   * address its callers reach it at.
   */
  public static String withServiceAddress(String wsdl, String address) {
    return ADDRESS.matcher(wsdl).replaceAll("$1" + Matcher.quoteReplacement(address) + "$2");
  }

  /** Returns the Content-Type of a plain envelope of {@code version}, in UTF-8. */
  public static String contentType(SoapVersion version) {
    return version.mediaType() + "; charset=UTF-8";
  }
}
