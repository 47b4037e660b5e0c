package dev.ferry.jaxws;

import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPHeader;
import jakarta.xml.soap.SOAPHeaderElement;
import jakarta.xml.ws.handler.LogicalHandler;
import jakarta.xml.ws.handler.LogicalMessageContext;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.soap.SOAPHandler;
import jakarta.xml.ws.handler.soap.SOAPMessageContext;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;

/** Handlers for tests: they add a header going out and note what they see coming in. */
final class Handlers {
  static final String NS = "urn:ferry:handlers";

  private Handlers() {}

  /** Adds {@code <h:stamp>name</h:stamp>} going out; notes every stamp coming in. */
  static final class Stamp implements SOAPHandler<SOAPMessageContext> {
    final String name;
    final List<String> seen = new CopyOnWriteArrayList<>();
    final List<String> events = new CopyOnWriteArrayList<>();

    Stamp(String name) {
      this.name = name;
    }

    @Override
    public boolean handleMessage(SOAPMessageContext context) {
      boolean out = (Boolean) context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY);
      events.add(name + (out ? " out" : " in"));
      try {
        SOAPHeader header = context.getMessage().getSOAPHeader();
        if (out) {
          if (header == null) {
            header = context.getMessage().getSOAPPart().getEnvelope().addHeader();
          }
          header.addHeaderElement(new QName(NS, "stamp", "h")).addTextNode(name);
        } else if (header != null) {
          for (Iterator<SOAPHeaderElement> it = header.examineAllHeaderElements();
              it.hasNext(); ) {
            SOAPHeaderElement e = it.next();
            if (e.getElementQName().getLocalPart().equals("stamp")) {
              seen.add(e.getTextContent());
            }
          }
        }
      } catch (SOAPException e) {
        throw new IllegalStateException(e);
      }
      return true;
    }

    @Override
    public boolean handleFault(SOAPMessageContext context) {
      events.add(name + " fault");
      return true;
    }

    @Override
    public void close(MessageContext context) {
      events.add(name + " close");
    }

    @Override
    public Set<QName> getHeaders() {
      return Set.of(new QName(NS, "stamp"));
    }
  }

  /** Notes the name of each payload's root element. */
  static final class Payloads implements LogicalHandler<LogicalMessageContext> {
    final List<String> roots = new CopyOnWriteArrayList<>();

    @Override
    public boolean handleMessage(LogicalMessageContext context) {
      Source s = context.getMessage().getPayload();
      try {
        javax.xml.transform.dom.DOMResult dom = new javax.xml.transform.dom.DOMResult();
        javax.xml.transform.TransformerFactory.newInstance().newTransformer().transform(s, dom);
        roots.add(((org.w3c.dom.Document) dom.getNode()).getDocumentElement().getLocalName());
      } catch (javax.xml.transform.TransformerException e) {
        throw new IllegalStateException(e);
      }
      return true;
    }

    @Override
    public boolean handleFault(LogicalMessageContext context) {
      return true;
    }

    @Override
    public void close(MessageContext context) {}
  }
}
