package dev.ferry.sample;

import dev.ferry.bytes.ByteSequence;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.sample.internal.Base64Sink;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapFaultException;
import dev.ferry.soap.Fault;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import dev.ferry.xop.XopReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The {@code testMtom} echo service (WSDL: {@link #wsdl()}): document/literal, one operation
 * whose two INOUT parts, {@code name} and {@code attachinfo} (base64Binary, MTOM-optimisable),
 * come back as they went. Used by tests, the demo and the benchmarks, and by peers' clients.
 *
 * <p>The reply is the request's own Body with the operation element renamed to
 * {@code testMtomResponse}: with MTOM, its {@code xop:Include} points at the request's
 * attachment, which is sent back from where the server put it, never decoded or copied into the
 * envelope. So the echo costs what the transport costs, which is what it is for.
 */
public final class EchoService {
  public static final String NAMESPACE = "http://cxf.apache.org/mime/types";
  /** The SOAPAction of the contract's operations: none, as CXF's MTOM sample ships it. */
  public static final String SOAP_ACTION = "";
  public static final QName REQUEST = new QName(NAMESPACE, "testMtom");
  /**
   * The operations this service echoes: its own, and CXF's MTOM sample's two of the same shape
   * ({@code name} and {@code attachinfo}), so clients made from either WSDL call it.
   */
  public static final Set<String> OPERATIONS = Set.of("testMtom", "testDataHandler",
      "testByteArray");
  public static final QName RESPONSE = new QName(NAMESPACE, "testMtomResponse");
  private static final ByteString RESPONSE_SUFFIX = ByteString.encodeUtf8("Response");

  private EchoService() {}

  /** Returns the service's WSDL. */
  public static String wsdl() {
    try (InputStream in = EchoService.class.getResourceAsStream("testMtom.wsdl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("the WSDL resource is missing from the jar", e);
    }
  }

  /** Returns a dispatcher with the echo operations and the WSDL. */
  public static Dispatcher dispatcher() {
    Endpoint echo = EchoService::echo;
    Dispatcher.Builder b = Dispatcher.builder().wsdl(wsdl()).service("TestMtom"); // its portType
    for (String op : OPERATIONS) {
      b.element(new QName(NAMESPACE, op), echo);
    }
    return b.build();
  }

  /** Answers a testMtom request with its own Body, renamed: the endpoint of {@link #dispatcher}. */
  public static Payload echo(Message request) throws IOException, SoapFaultException {
    QName op = request.buffer().bodyElement();
    if (op == null || !NAMESPACE.equals(op.getNamespaceURI())
        || !OPERATIONS.contains(op.getLocalPart())) {
      throw new SoapFaultException(Fault.of(request.version(),
          request.version().senderFaultCode(), "expected one of " + OPERATIONS + " in "
          + NAMESPACE + " but the Body holds " + (op == null ? "no element" : op)));
    }
    ByteString body = request.body();
    String tag = op.getPrefix().isEmpty() ? op.getLocalPart()
        : op.getPrefix() + ":" + op.getLocalPart();
    int open = indexOfTag(body, ByteString.encodeUtf8("<" + tag));
    int close = body.lastIndexOf(ByteString.encodeUtf8("</" + tag));
    if (open < 0 || close < open) {
      throw new SoapFaultException(Fault.of(request.version(),
          request.version().senderFaultCode(), "cannot find the " + tag + " element's tags"));
    }
    int afterOpen = open + 1 + tag.length();
    int afterClose = close + 2 + tag.length();
    ByteStringBuilder reply = new ByteStringBuilder(body.size() + 16);
    reply.append(body.subSequence(0, afterOpen)).append(RESPONSE_SUFFIX)
        .append(body.subSequence(afterOpen, afterClose - afterOpen)).append(RESPONSE_SUFFIX)
        .append(body.subSequence(afterClose, body.size() - afterClose));
    Message response = request.copy();
    for (HeaderBlock h : List.copyOf(response.headers())) {
      response.removeHeaders(h.name());
    }
    return response.replaceBodyElement(reply.toByteString()).toPayload();
  }

  /** Finds {@code <tag} followed by a character that ends a name. */
  private static int indexOfTag(ByteString s, ByteString tag) {
    for (int i = s.indexOf(tag, 0); i >= 0; i = s.indexOf(tag, i + 1)) {
      int end = i + tag.size();
      if (end < s.size()) {
        byte c = s.byteAt(end);
        if (c == '>' || c == '/' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
          return i;
        }
      }
    }
    return -1;
  }

  /** Returns a testMtom request: {@code name}, and {@code blob} inline or attached. */
  public static Payload request(SoapCodec codec, SoapVersion version, MtomPolicy policy,
      String name, ByteSequence blob) {
    return request(codec, version, policy, REQUEST.getLocalPart(), name, blob);
  }

  /**
   * Returns a request of {@code operation} (an element of {@link #NAMESPACE} holding
   * {@code name} and {@code attachinfo}, such as CXF's sample's {@code testDataHandler}).
   */
  public static Payload request(SoapCodec codec, SoapVersion version, MtomPolicy policy,
      String operation, String name, ByteSequence blob) {
    return codec.payload(version, policy, List.of(), body -> {
      start(body, operation, name);
      body.writeBinary(blob, "application/octet-stream");
      end(body);
    });
  }

  /** Returns a testMtom request whose blob streams from {@code blob} ({@code length} bytes). */
  public static Payload request(SoapCodec codec, SoapVersion version, MtomPolicy policy,
      String name, InputStream blob, long length) {
    return request(codec, version, policy, REQUEST.getLocalPart(), name, blob, length);
  }

  /** As the other, for {@code operation} (see {@link #OPERATIONS}). */
  public static Payload request(SoapCodec codec, SoapVersion version, MtomPolicy policy,
      String operation, String name, InputStream blob, long length) {
    return codec.payload(version, policy, List.of(), body -> {
      start(body, operation, name);
      body.writeBinary(blob, length, "application/octet-stream");
      end(body);
    });
  }

  private static void start(dev.ferry.xop.XopWriter body, String operation, String name)
      throws XMLStreamException {
    body.writeStartElement("t", operation, NAMESPACE);
    body.writeNamespace("t", NAMESPACE);
    body.writeStartElement("t", "name", NAMESPACE);
    body.writeCharacters(name);
    body.writeEndElement();
    body.writeStartElement("t", "attachinfo", NAMESPACE);
  }

  private static void end(dev.ferry.xop.XopWriter body) throws XMLStreamException {
    body.writeEndElement();
    body.writeEndElement();
  }

  /** What an echo reply holds. */
  public record Echo(String name, long length, ByteString attachinfo) {}

  /** Reads a testMtom reply (or request) whole: the name and the blob in memory. */
  public static Echo readEcho(Message reply) throws IOException {
    ByteStringBuilder blob = new ByteStringBuilder(8192);
    Echo e = readEcho(reply, blob.asOutputStream());
    return new Echo(e.name(), e.length(), blob.toByteString());
  }

  /**
   * Reads a testMtom reply (or request), streaming the blob to {@code sink}: an attachment is
   * copied from its spool, inline base64 decoded as it is read. Returns the name and the length
   * ({@link Echo#attachinfo()} is null).
   */
  public static Echo readEcho(Message reply, OutputStream sink) throws IOException {
    if (reply.isFault()) {
      throw new IOException("the reply is a SOAP fault: " + Fault.read(reply).reason());
    }
    try {
      XMLStreamReader r = reply.bodyReader();
      String name = null;
      long length = -1;
      int depth = 0;
      while (r.hasNext()) {
        int event = r.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
          depth++;
          if (depth == 2 && r.getLocalName().equals("name")) {
            name = r.getElementText();
            depth--;
          } else if (depth == 2 && r.getLocalName().equals("attachinfo")) {
            length = readBlob(r, sink);
            depth--;
          }
        } else if (event == XMLStreamConstants.END_ELEMENT && --depth < 0) {
          break;
        }
      }
      if (name == null || length < 0) {
        throw new IOException("not a testMtom message: name or attachinfo is missing");
      }
      return new Echo(name, length, null);
    } catch (XMLStreamException e) {
      throw new IOException("malformed testMtom message: " + e.getMessage(), e);
    }
  }

  private static long readBlob(XMLStreamReader r, OutputStream sink)
      throws XMLStreamException, IOException {
    Base64Sink inline = new Base64Sink(sink);
    long attached = 0;
    for (int event = r.next(); event != XMLStreamConstants.END_ELEMENT; event = r.next()) {
      if (r instanceof XopReader x && x.isBinary()) {
        try (InputStream in = x.binary().openStream()) {
          attached += in.transferTo(sink);
        }
      } else if (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA) {
        inline.write(r.getTextCharacters(), r.getTextStart(), r.getTextLength());
      } else if (event == XMLStreamConstants.START_ELEMENT) {
        throw new XMLStreamException("attachinfo holds an element", r.getLocation());
      }
    }
    return attached + inline.finish();
  }
}
