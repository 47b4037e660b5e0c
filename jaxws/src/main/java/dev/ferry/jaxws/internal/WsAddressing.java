package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.server.SoapFaultException;
import dev.ferry.soap.Addressing;
import dev.ferry.soap.Fault;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapVersion;
import jakarta.xml.ws.soap.AddressingFeature;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.xml.namespace.QName;

/**
 * WS-Addressing 1.0 (SOAP binding) as an endpoint and a port speak it: the headers a request
 * must carry and the faults that answer one that lacks them, and the headers of replies, faults
 * and requests. Responses go back on the request's connection only: a request whose ReplyTo or
 * FaultTo is another address is answered with the {@code OnlyAnonymousAddressSupported} fault.
 * Reference parameters of a ReplyTo are not echoed.
 */
final class WsAddressing {
  /** The action of a fault about the addressing headers themselves. */
  static final String ADDRESSING_FAULT_ACTION = Addressing.NS + "/fault";
  /** The action of any other SOAP fault. */
  static final String SOAP_FAULT_ACTION = Addressing.NS + "/soap/fault";
  static final String METADATA_NS = "http://www.w3.org/2007/05/addressing/metadata";
  private static final String NONE = Addressing.NS + "/none";
  private static final QName HEADER_REQUIRED =
      new QName(Addressing.NS, "MessageAddressingHeaderRequired", "wsa");
  private static final QName INVALID_HEADER =
      new QName(Addressing.NS, "InvalidAddressingHeader", "wsa");
  private static final QName ONLY_ANONYMOUS =
      new QName(METADATA_NS, "OnlyAnonymousAddressSupported", "wsam");

  private WsAddressing() {}

  /**
   * Checks the addressing headers of a request for {@code op} on an endpoint with
   * {@code feature}: returns what its reply carries, or null if the request uses no addressing
   * and the feature does not require it.
   *
   * @throws SoapFaultException a WS-Addressing fault (with its own addressing headers) for a
   *     required header that is missing, or a ReplyTo or FaultTo other than anonymous
   */
  static Reply accept(AddressingFeature feature, Message request, Operation op)
      throws SoapFaultException {
    Addressing a = request.addressing();
    boolean used = a.action() != null || a.messageId() != null || a.to() != null
        || a.replyTo() != null || a.faultTo() != null;
    if (!used && !feature.isRequired()) {
      return null;
    }
    Reply reply = new Reply(a.messageId());
    SoapVersion v = request.version();
    if (a.action() == null) {
      throw reply.fault(missing(v, Addressing.ACTION));
    }
    if (!op.isOneWay()) {
      if (a.messageId() == null && feature.isRequired()) {
        throw reply.fault(missing(v, Addressing.MESSAGE_ID));
      }
      if (!isAnonymous(a.replyTo())) {
        throw reply.fault(notAnonymous(v, Addressing.REPLY_TO, a.replyTo()));
      }
      if (!isAnonymous(a.faultTo())) {
        throw reply.fault(notAnonymous(v, Addressing.FAULT_TO, a.faultTo()));
      }
    }
    return reply;
  }

  private static boolean isAnonymous(String address) {
    return address == null || address.equals(Addressing.ANONYMOUS) || address.equals(NONE);
  }

  /** What the reply to one request carries: its own MessageID, RelatesTo, To, an Action. */
  static final class Reply {
    private final String relatesTo;

    Reply(String relatesTo) {
      this.relatesTo = relatesTo;
    }

    /** The addressing headers of a reply or fault with {@code action}. */
    List<HeaderBlock> headers(String action) {
      List<HeaderBlock> h = new ArrayList<>(4);
      h.add(HeaderBlock.text(Addressing.ACTION, action));
      h.add(HeaderBlock.text(Addressing.MESSAGE_ID, newMessageId()));
      h.add(HeaderBlock.text(Addressing.TO, Addressing.ANONYMOUS));
      if (relatesTo != null) {
        h.add(HeaderBlock.text(Addressing.RELATES_TO, relatesTo));
      }
      return h;
    }

    /** {@code f} with the headers of a fault reply, unless it has its wsa:Action already. */
    Fault withHeaders(Fault f, String action) {
      boolean has = f.headers().stream().anyMatch(h -> h.name().equals(Addressing.ACTION));
      return has ? f : f.withHeaders(headers(action));
    }

    SoapFaultException fault(Fault f) {
      return new SoapFaultException(withHeaders(f, ADDRESSING_FAULT_ACTION));
    }
  }

  /** MessageAddressingHeaderRequired, naming the header that is missing. */
  private static Fault missing(SoapVersion v, QName header) {
    return addressingFault(v, HEADER_REQUIRED, null,
        "A required header representing a Message Addressing Property is not present: "
            + header.getPrefix() + ":" + header.getLocalPart(), header);
  }

  /** InvalidAddressingHeader / OnlyAnonymousAddressSupported, for a ReplyTo or FaultTo. */
  private static Fault notAnonymous(SoapVersion v, QName header, String address) {
    return addressingFault(v, INVALID_HEADER, ONLY_ANONYMOUS, "A header representing a Message"
        + " Addressing Property is not valid: " + header.getPrefix() + ":"
        + header.getLocalPart() + " is " + address + ", and this endpoint answers only on the"
        + " request's connection (anonymous)", header);
  }

  /**
   * A fault of the WS-Addressing SOAP binding (section 6): in SOAP 1.2 a Sender fault with the
   * subcode (and subsubcode), the problem header in the Detail; in SOAP 1.1 the subcode is the
   * faultcode and the problem header goes in a wsa:FaultDetail header.
   */
  private static Fault addressingFault(SoapVersion v, QName subcode, QName subsubcode,
      String reason, QName problem) {
    String problemXml = "<wsa:ProblemHeaderQName xmlns:wsa=\"" + Addressing.NS + "\">wsa:"
        + problem.getLocalPart() + "</wsa:ProblemHeaderQName>";
    if (v == SoapVersion.SOAP_11) {
      return Fault.of(v, subcode, reason).withHeaders(List.of(HeaderBlock.element(
          new QName(Addressing.NS, "FaultDetail", "wsa"), ByteString.encodeUtf8(
              "<wsa:FaultDetail xmlns:wsa=\"" + Addressing.NS + "\">" + problemXml
                  + "</wsa:FaultDetail>"))));
    }
    Fault f = Fault.of(v, v.senderFaultCode(), reason).withSubcode(subcode);
    return (subsubcode == null ? f : f.withSubcode(subsubcode)).withDetail(problemXml);
  }

  /**
   * The addressing headers of a request to {@code address} with {@code action}: To, Action, a
   * new MessageID and, when a reply is expected, an anonymous ReplyTo; what CXF's and Metro's
   * clients send.
   */
  static List<HeaderBlock> request(String address, String action, boolean oneWay) {
    List<HeaderBlock> h = new ArrayList<>(4);
    h.add(HeaderBlock.text(Addressing.TO, address));
    h.add(HeaderBlock.text(Addressing.ACTION, action));
    h.add(HeaderBlock.text(Addressing.MESSAGE_ID, newMessageId()));
    if (!oneWay) {
      h.add(HeaderBlock.element(Addressing.REPLY_TO, ByteString.encodeUtf8("<wsa:ReplyTo"
          + " xmlns:wsa=\"" + Addressing.NS + "\"><wsa:Address>" + Addressing.ANONYMOUS
          + "</wsa:Address></wsa:ReplyTo>")));
    }
    return h;
  }

  private static String newMessageId() {
    return "urn:uuid:" + UUID.randomUUID();
  }
}
