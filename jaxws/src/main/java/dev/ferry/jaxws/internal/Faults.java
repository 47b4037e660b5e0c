package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.XopReader;
import jakarta.activation.DataHandler;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.soap.Detail;
import jakarta.xml.soap.SOAPConstants;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPFactory;
import jakarta.xml.soap.SOAPFault;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;
import javax.xml.transform.dom.DOMResult;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;
import org.w3c.dom.Document;
import org.w3c.dom.Node;

/**
 * Exceptions to SOAP faults and back. A declared fault ({@link FaultType}) travels as its detail
 * element; a {@link SOAPFaultException} as its SAAJ fault; anything else as a Receiver (Server)
 * fault with the exception's message. A client turns a fault whose detail names a declared fault
 * back into that exception, and any other into a {@link SOAPFaultException}.
 */
public final class Faults {
  private static final System.Logger LOG = System.getLogger("dev.ferry.jaxws");
  private final SoapCodec codec;

  public Faults(SoapCodec codec) {
    this.codec = codec;
  }

  /** The fault that answers {@code t} thrown by an operation (of {@code declared} faults). */
  public Fault toFault(Throwable t, SoapVersion version, List<FaultType> declared)
      throws IOException {
    if (t instanceof SOAPFaultException sfe) {
      return fromSaaj(sfe.getFault(), version);
    }
    // the exception's message, as CXF and Metro send it; never its class (a caller has no use
    // for the service's internals): the log has the rest
    String reason = t.getMessage() != null && !t.getMessage().isBlank() ? t.getMessage()
        : "the operation failed";
    Fault fault = Fault.of(version, version.receiverFaultCode(), reason);
    for (FaultType f : declared) {
      if (f.exception().isInstance(t)) {
        return fault.withDetail(detail(f, (Exception) t).utf8());
      }
    }
    LOG.log(System.Logger.Level.WARNING, "the operation threw an undeclared exception", t);
    return fault;
  }

  private ByteString detail(FaultType f, Exception e) throws IOException {
    ByteStringBuilder xml = new ByteStringBuilder(256);
    try {
      XMLStreamWriter w = codec.xop().newXmlWriter(xml.asOutputStream());
      if (f.bean() != null) {
        f.bean().write(f.faultInfo(e), w, null);
      } else {
        MessageBinder.writeElement(w, f.element(), f.properties(), f.propertyValues(e));
      }
      w.close();
    } catch (XMLStreamException | JAXBException x) {
      throw new IOException("cannot write the detail of " + f + ": " + x, x);
    }
    return xml.toByteString();
  }

  private static Fault fromSaaj(SOAPFault f, SoapVersion version) throws IOException {
    QName code = f.getFaultCodeAsQName();
    Fault fault = Fault.of(version, standardCode(code, version), f.getFaultString());
    if (!isEnvelopeCode(code)) {
      fault = fault.withSubcode(code);
    }
    String role = version == SoapVersion.SOAP_11 ? f.getFaultActor() : f.getFaultRole();
    if (role != null) {
      fault = fault.withRole(role);
    }
    Detail d = f.getDetail();
    if (d != null) {
      StringBuilder xml = new StringBuilder();
      for (Node n = d.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n.getNodeType() == Node.ELEMENT_NODE) {
          xml.append(Xml.bytes(new DOMSource(n)).utf8());
        }
      }
      fault = fault.withDetail(xml.toString());
    }
    return fault;
  }

  private static boolean isEnvelopeCode(QName code) {
    return SoapVersion.fromNamespace(code.getNamespaceURI()) != null;
  }

  /** The code of {@code version} for {@code code}: Client/Sender and Server/Receiver map. */
  private static QName standardCode(QName code, SoapVersion version) {
    if (!isEnvelopeCode(code)) {
      return version == SoapVersion.SOAP_11 ? code : version.receiverFaultCode();
    }
    return switch (code.getLocalPart()) {
      case "Client", "Sender" -> version.senderFaultCode();
      case "Server", "Receiver" -> version.receiverFaultCode();
      default -> version.qname(code.getLocalPart());
    };
  }

  /**
   * The exception a client throws for the fault in {@code reply}: the declared fault its detail
   * names, else a {@link SOAPFaultException}.
   */
  public Exception toException(Message reply, List<FaultType> declared,
      Function<dev.ferry.xop.Attachment, DataHandler> handlers) throws IOException {
    Fault fault = Fault.read(reply);
    String reason = fault.reason() == null ? "" : fault.reason();
    try {
      XMLStreamReader r = detailReader(reply);
      if (r != null) {
        QName name = r.getName();
        for (FaultType f : declared) {
          if (f.element().equals(name)) {
            var au = new XopAttachmentUnmarshaller(reply.attachments(), handlers);
            return f.bean() != null ? f.create(reason, f.bean().read(r, au))
                : f.createFromProperties(reason, MessageBinder.readElement(r, f.properties(),
                    au));
          }
        }
        return new SOAPFaultException(saajFault(fault, Xml.copyElement(r)));
      }
      return new SOAPFaultException(saajFault(fault, null));
    } catch (XMLStreamException | JAXBException e) {
      throw new WebServiceException("cannot read the fault's detail: " + e, e);
    }
  }

  /** A reader on the detail's first element, or null if the fault has none. */
  // the reader starts on Body: Fault is depth 1, its detail depth 2
  private XMLStreamReader detailReader(Message reply) throws IOException, XMLStreamException {
    XMLStreamReader body = reply.bodyReader();
    XMLStreamReader r = body instanceof XopReader x ? x.getParent() : body;
    int depth = 0;
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
        if (depth == 2 && isDetailOf(r.getLocalName(), reply.version())) {
          return firstChild(r);
        }
      } else if (e == XMLStreamConstants.END_ELEMENT && --depth < 0) {
        return null;
      }
    }
    return null;
  }

  private static boolean isDetailOf(String local, SoapVersion version) {
    return local.equals(version == SoapVersion.SOAP_11 ? "detail" : "Detail");
  }

  private static XMLStreamReader firstChild(XMLStreamReader r) throws XMLStreamException {
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        return r;
      }
      if (e == XMLStreamConstants.END_ELEMENT) {
        return null;
      }
    }
    return null;
  }

  /** A SAAJ fault of {@code fault}'s version with its code, reason, role and detail. */
  static SOAPFault saajFault(Fault fault, ByteString detailElement) {
    try {
      SOAPFactory factory = SOAPFactory.newInstance(fault.version() == SoapVersion.SOAP_11
          ? SOAPConstants.SOAP_1_1_PROTOCOL : SOAPConstants.SOAP_1_2_PROTOCOL);
      QName code = fault.code() != null ? fault.code() : fault.version().receiverFaultCode();
      SOAPFault f = factory.createFault(fault.reason() == null ? "" : fault.reason(), code);
      if (fault.version() == SoapVersion.SOAP_12) {
        for (QName sub : fault.subcodes()) {
          f.appendFaultSubcode(sub);
        }
      }
      if (fault.role() != null) {
        if (fault.version() == SoapVersion.SOAP_11) {
          f.setFaultActor(fault.role());
        } else {
          f.setFaultRole(fault.role());
        }
      }
      if (detailElement != null) {
        Detail d = f.addDetail();
        Document doc = parse(detailElement);
        d.appendChild(d.getOwnerDocument().importNode(doc.getDocumentElement(), true));
      }
      return f;
    } catch (SOAPException | IOException e) {
      throw new WebServiceException("cannot build the SAAJ fault for " + fault + ": " + e, e);
    }
  }

  private static Document parse(ByteString xml) throws IOException {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      Document doc = f.newDocumentBuilder().newDocument();
      Xml.transform(new StreamSource(xml.asInputStream()), new DOMResult(doc));
      return doc;
    } catch (ParserConfigurationException e) {
      throw new IOException(e);
    }
  }
}
