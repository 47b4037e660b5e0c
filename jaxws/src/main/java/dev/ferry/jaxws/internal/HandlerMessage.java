package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.XopReader;
import jakarta.xml.soap.MessageFactory;
import jakarta.xml.soap.MimeHeaders;
import jakarta.xml.soap.SOAPBody;
import jakarta.xml.soap.SOAPConstants;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPMessage;
import jakarta.xml.ws.WebServiceException;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.transform.Source;
import javax.xml.transform.dom.DOMResult;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;
import org.w3c.dom.Node;

/**
 * The message a handler chain works on. It stays a Ferry {@link Message} while handlers only
 * look at the payload; the first SOAP handler that asks for the SAAJ message gets one made from
 * the message's bytes (attachments included), which from then on is the message: when the chain
 * is done it is written and read back. So a chain of logical handlers costs a copy of the
 * payload, a SOAP handler a round trip through SAAJ; a chain that is empty costs nothing, since
 * it is never made. Buffers it reads are released by {@link #close()}.
 */
final class HandlerMessage implements Closeable {
  private final SoapCodec codec;
  private final SoapVersion version;
  private final List<MessageBuffer> owned = new ArrayList<>();
  private Message message;
  private SOAPMessage saaj;

  HandlerMessage(Message message, SoapCodec codec) {
    this.message = message;
    this.codec = codec;
    this.version = message.version();
  }

  /** A handler message of a payload that was to be sent, read back into a message. */
  static HandlerMessage of(Payload payload, SoapCodec codec) throws IOException {
    ByteStringBuilder bytes = new ByteStringBuilder(4096);
    payload.writeTo(bytes.asOutputStream());
    MessageBuffer buffer = codec.read(bytes.toByteString(), payload.contentType());
    HandlerMessage m = new HandlerMessage(buffer.toMessage(), codec);
    m.owned.add(buffer);
    return m;
  }

  SoapVersion version() {
    return version;
  }

  /** The message as it is now. */
  Message message() throws IOException {
    if (saaj != null) {
      message = fromSaaj(saaj);
      saaj = null;
    }
    return message;
  }

  /** The message as SAAJ's, made on first use; it is the message from then on. */
  SOAPMessage soap() throws IOException {
    if (saaj == null) {
      saaj = toSaaj(message);
    }
    return saaj;
  }

  void setSoap(SOAPMessage replacement) {
    this.saaj = replacement;
  }

  /** The Body's first element, as a Source of its own. */
  Source payload() throws IOException {
    if (saaj != null) {
      Node first = firstElement(saajBody());
      return first == null ? null : new DOMSource(first);
    }
    try {
      XMLStreamReader r = message.bodyReader();
      r = r instanceof XopReader x ? x.getParent() : r;
      while (r.hasNext()) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          return new StreamSource(Xml.copyElement(r).asInputStream());
        }
        if (e == XMLStreamConstants.END_ELEMENT) {
          return null;
        }
      }
      return null;
    } catch (XMLStreamException e) {
      throw new WebServiceException("cannot read the payload: " + e.getMessage(), e);
    }
  }

  /** Replaces the Body's content with {@code payload}. */
  void setPayload(Source payload) throws IOException {
    if (saaj != null) {
      SOAPBody body = saajBody();
      body.removeContents();
      DOMResult dom = new DOMResult(body);
      Xml.transform(payload, dom);
      return;
    }
    ByteString xml = Xml.bytes(payload);
    message = message.copy().replaceBody(xml);
  }

  private SOAPBody saajBody() {
    try {
      return saaj.getSOAPBody();
    } catch (SOAPException e) {
      throw new WebServiceException("the SAAJ message has no Body: " + e.getMessage(), e);
    }
  }

  private static Node firstElement(SOAPBody body) {
    for (Node n = body.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n.getNodeType() == Node.ELEMENT_NODE) {
        return n;
      }
    }
    return null;
  }

  private SOAPMessage toSaaj(Message m) throws IOException {
    Payload p = m.toPayload();
    ByteStringBuilder bytes = new ByteStringBuilder(4096);
    p.writeTo(bytes.asOutputStream());
    MimeHeaders headers = new MimeHeaders();
    headers.addHeader("Content-Type", p.contentType());
    try {
      return MessageFactory.newInstance(version == SoapVersion.SOAP_11
          ? SOAPConstants.SOAP_1_1_PROTOCOL : SOAPConstants.SOAP_1_2_PROTOCOL)
          .createMessage(headers, bytes.toByteString().asInputStream());
    } catch (SOAPException e) {
      throw new IOException("SAAJ cannot read the message: " + e.getMessage(), e);
    }
  }

  private Message fromSaaj(SOAPMessage m) throws IOException {
    ByteStringBuilder bytes = new ByteStringBuilder(4096);
    String type = Payloads.write(m, bytes);
    MessageBuffer buffer = codec.read(bytes.toByteString(),
        type == null ? version.mediaType() : type);
    owned.add(buffer);
    return buffer.toMessage();
  }

  @Override
  public void close() throws IOException {
    for (MessageBuffer b : owned) {
      b.close();
    }
    owned.clear();
  }
}
