package dev.ferry.soap;

import javax.xml.namespace.QName;

/**
 * WS-Addressing 1.0 (W3C, namespace {@value #NS}) headers of a {@link Message}: typed getters,
 * and setters that replace the block in the message's overlay.
 */
public final class Addressing {
  /** The WS-Addressing 1.0 namespace. */
  public static final String NS = "http://www.w3.org/2005/08/addressing";
  public static final QName TO = new QName(NS, "To", "wsa");
  public static final QName FROM = new QName(NS, "From", "wsa");
  public static final QName REPLY_TO = new QName(NS, "ReplyTo", "wsa");
  public static final QName FAULT_TO = new QName(NS, "FaultTo", "wsa");
  public static final QName ACTION = new QName(NS, "Action", "wsa");
  public static final QName MESSAGE_ID = new QName(NS, "MessageID", "wsa");
  public static final QName RELATES_TO = new QName(NS, "RelatesTo", "wsa");
  /** The anonymous address: reply on the back channel. */
  public static final String ANONYMOUS = NS + "/anonymous";

  private final Message message;

  Addressing(Message message) {
    this.message = message;
  }

  public String to() {
    return text(TO);
  }

  public String action() {
    return text(ACTION);
  }

  public String messageId() {
    return text(MESSAGE_ID);
  }

  public String relatesTo() {
    return text(RELATES_TO);
  }

  /** Returns the ReplyTo address, or null. */
  public String replyTo() {
    return address(REPLY_TO);
  }

  /** Returns the FaultTo address, or null. */
  public String faultTo() {
    return address(FAULT_TO);
  }

  /** Returns the From address, or null. */
  public String from() {
    return address(FROM);
  }

  public Addressing setTo(String to) {
    message.replaceHeader(HeaderBlock.text(TO, to));
    return this;
  }

  public Addressing setAction(String action) {
    message.replaceHeader(HeaderBlock.text(ACTION, action));
    return this;
  }

  public Addressing setMessageId(String id) {
    message.replaceHeader(HeaderBlock.text(MESSAGE_ID, id));
    return this;
  }

  public Addressing setRelatesTo(String id) {
    message.replaceHeader(HeaderBlock.text(RELATES_TO, id));
    return this;
  }

  /** Sets ReplyTo to an endpoint reference with {@code address}. */
  public Addressing setReplyTo(String address) {
    message.replaceHeader(endpointReference(REPLY_TO, address));
    return this;
  }

  /** Sets FaultTo to an endpoint reference with {@code address}. */
  public Addressing setFaultTo(String address) {
    message.replaceHeader(endpointReference(FAULT_TO, address));
    return this;
  }

  private static HeaderBlock endpointReference(QName name, String address) {
    String xml = "<wsa:" + name.getLocalPart() + " xmlns:wsa=\"" + NS + "\"><wsa:Address>"
        + HeaderBlock.escape(address) + "</wsa:Address></wsa:" + name.getLocalPart() + ">";
    return new HeaderBlock(name, false, null, null, address,
        dev.ferry.bytes.ByteString.encodeUtf8(xml), dev.ferry.bytes.ByteString.EMPTY);
  }

  private String text(QName name) {
    HeaderBlock b = message.header(name);
    return b == null ? null : b.text();
  }

  private String address(QName name) {
    HeaderBlock b = message.header(name);
    return b == null ? null : b.address();
  }
}
