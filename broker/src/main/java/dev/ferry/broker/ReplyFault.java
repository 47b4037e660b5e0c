package dev.ferry.broker;

import dev.ferry.bytes.ByteString;
import dev.ferry.soap.SoapCodec;
import io.netty.buffer.ByteBuf;
import java.util.Set;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Whether a member's 5xx SOAP reply blames the service (a Receiver or Server fault, which counts
 * against the member's health) or the caller (a Sender or Client fault, or another code such as
 * MustUnderstand: a business answer, which never does). Only the fault's code is read, from as
 * much of the reply as the broker holds; a reply whose code cannot be found there blames the
 * service.
 */
final class ReplyFault {
  /** The most of a reply read for its code (a fault's code is near its start). */
  static final int MAX_BYTES = 64 * 1024;
  private static final Set<String> CALLERS = Set.of("Sender", "Client", "MustUnderstand",
      "VersionMismatch", "DataEncodingUnknown");

  private ReplyFault() {}

  /** Whether the reply whose first bytes are {@code held} blames the service. */
  static boolean blamesService(SoapCodec codec, ByteBuf held) {
    return blamesService(localCode(codec, held));
  }

  /** Whether a reply whose fault code's local name is {@code local} blames the service. */
  static boolean blamesService(String local) {
    if (local == null) {
      return true;
    }
    int dot = local.indexOf('.'); // SOAP 1.1's dotted codes: Client.Authentication
    return !CALLERS.contains(dot < 0 ? local : local.substring(0, dot));
  }

  /**
   * The local name of the fault code in the reply whose first bytes are {@code held} (such as
   * {@code Server} or {@code Client.Authentication}), or null if none is found there.
   */
  static String localCode(SoapCodec codec, ByteBuf held) {
    int n = Math.min(held.readableBytes(), MAX_BYTES);
    byte[] bytes = new byte[n];
    held.getBytes(held.readerIndex(), bytes);
    String code = code(codec, ByteString.takeOwnership(bytes, 0, n));
    return code == null ? null : code.substring(code.indexOf(':') + 1).strip();
  }

  /**
   * The text of a SOAP 1.1 {@code faultcode} or of a SOAP 1.2 {@code Code}'s first
   * {@code Value}, or null if there is none (or it cannot be parsed, as in a multipart reply or
   * one cut off before it).
   */
  private static String code(SoapCodec codec, ByteString reply) {
    try {
      XMLStreamReader r = codec.xop().newXmlReader(reply, null);
      boolean inCode = false;
      while (r.hasNext()) {
        if (r.next() != XMLStreamConstants.START_ELEMENT) {
          continue;
        }
        String local = r.getLocalName();
        if (local.equals("faultcode")) {
          return r.getElementText();
        }
        if (local.equals("Code")) {
          inCode = true;
        } else if (inCode && local.equals("Value")) {
          return r.getElementText();
        }
      }
    } catch (XMLStreamException | RuntimeException e) {
      // not readable as far as it goes: no code found
    }
    return null;
  }
}
