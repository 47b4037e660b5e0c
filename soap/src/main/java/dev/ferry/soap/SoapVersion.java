package dev.ferry.soap;

import dev.ferry.mime.MediaType;
import javax.xml.namespace.QName;

/** SOAP 1.1 or 1.2: envelope namespace, media type, and the names that differ between them. */
public enum SoapVersion {
  SOAP_11("http://schemas.xmlsoap.org/soap/envelope/", "text/xml", "actor",
      "Client", "Server"),
  SOAP_12("http://www.w3.org/2003/05/soap-envelope", "application/soap+xml", "role",
      "Sender", "Receiver");

  private final String namespace;
  private final String mediaType;
  /** {@link #mediaType} parsed, once: every message written of this version is of this type. */
  private final MediaType type;
  private final String roleAttribute;
  private final String senderFaultCode;
  private final String receiverFaultCode;

  SoapVersion(String namespace, String mediaType, String roleAttribute, String senderFaultCode,
      String receiverFaultCode) {
    this.namespace = namespace;
    this.mediaType = mediaType;
    int slash = mediaType.indexOf('/');
    this.type = MediaType.of(mediaType.substring(0, slash), mediaType.substring(slash + 1));
    this.roleAttribute = roleAttribute;
    this.senderFaultCode = senderFaultCode;
    this.receiverFaultCode = receiverFaultCode;
  }

  /** Returns the version whose envelope namespace is {@code uri}, or null. */
  public static SoapVersion fromNamespace(String uri) {
    for (SoapVersion v : values()) {
      if (v.namespace.equals(uri)) {
        return v;
      }
    }
    return null;
  }

  public String namespace() {
    return namespace;
  }

  /** Returns the media type of a plain envelope: text/xml or application/soap+xml. */
  public String mediaType() {
    return mediaType;
  }

  /** {@link #mediaType()} as a {@link MediaType}, for the writer of a message. */
  MediaType type() {
    return type;
  }

  /** Returns the name of the header targeting attribute: actor (1.1) or role (1.2). */
  public String roleAttribute() {
    return roleAttribute;
  }

  /** Returns the name of an envelope element, such as {@code Body}, in this version. */
  public QName qname(String localName) {
    return new QName(namespace, localName);
  }

  /** Returns the fault code for a sender's mistake: Client (1.1) or Sender (1.2). */
  public QName senderFaultCode() {
    return qname(senderFaultCode);
  }

  /** Returns the fault code for a receiver's failure: Server (1.1) or Receiver (1.2). */
  public QName receiverFaultCode() {
    return qname(receiverFaultCode);
  }

  /** Returns the MustUnderstand fault code. */
  public QName mustUnderstandFaultCode() {
    return qname("MustUnderstand");
  }

  /** Returns the VersionMismatch fault code. */
  public QName versionMismatchFaultCode() {
    return qname("VersionMismatch");
  }
}
