package dev.ferry.jaxws.internal;

import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.soap.SOAPException;
import jakarta.xml.soap.SOAPHeader;
import jakarta.xml.soap.SOAPHeaderElement;
import jakarta.xml.soap.SOAPMessage;
import jakarta.xml.ws.LogicalMessage;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.handler.LogicalMessageContext;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.soap.SOAPMessageContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import javax.xml.transform.dom.DOMResult;
import javax.xml.transform.dom.DOMSource;

/**
 * The contexts handlers are given: views of one exchange's properties (a
 * {@link MessageContextImpl}) over one {@link HandlerMessage}, as a SOAP handler's and as a
 * logical handler's.
 */
final class HandlerContexts {
  private HandlerContexts() {}

  /** The properties of the exchange, shared by every view. */
  private abstract static class View extends AbstractMap<String, Object>
      implements MessageContext {
    final MessageContextImpl properties;
    final HandlerMessage message;

    View(MessageContextImpl properties, HandlerMessage message) {
      this.properties = properties;
      this.message = message;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
      return properties.entrySet();
    }

    @Override
    public Object get(Object key) {
      return properties.get(key);
    }

    @Override
    public Object put(String key, Object value) {
      return properties.put(key, value);
    }

    @Override
    public Object remove(Object key) {
      return properties.remove(key);
    }

    @Override
    public void setScope(String name, Scope scope) {
      properties.setScope(name, scope);
    }

    @Override
    public Scope getScope(String name) {
      return properties.getScope(name);
    }
  }

  /** A SOAP handler's context: the message as SAAJ's, made when first asked for. */
  static final class Soap extends View implements SOAPMessageContext {
    private final Set<String> roles;

    Soap(MessageContextImpl properties, HandlerMessage message, Set<String> roles) {
      super(properties, message);
      this.roles = roles;
    }

    @Override
    public SOAPMessage getMessage() {
      try {
        return message.soap();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void setMessage(SOAPMessage replacement) {
      message.setSoap(replacement);
    }

    @Override
    public Object[] getHeaders(QName header, JAXBContext context, boolean allRoles) {
      List<Object> out = new ArrayList<>();
      try {
        SOAPHeader h = getMessage().getSOAPHeader();
        if (h == null) {
          return new Object[0];
        }
        for (Iterator<SOAPHeaderElement> it = h.examineAllHeaderElements(); it.hasNext(); ) {
          SOAPHeaderElement e = it.next();
          if (e.getElementQName().equals(header)) {
            out.add(context.createUnmarshaller().unmarshal(e));
          }
        }
      } catch (SOAPException | JAXBException e) {
        throw new WebServiceException("cannot read header " + header + ": " + e, e);
      }
      return out.toArray();
    }

    @Override
    public Set<String> getRoles() {
      return roles;
    }
  }

  /** A logical handler's context: the message as its payload. */
  static final class Logical extends View implements LogicalMessageContext {
    Logical(MessageContextImpl properties, HandlerMessage message) {
      super(properties, message);
    }

    @Override
    public LogicalMessage getMessage() {
      return new Payload(message);
    }
  }

  /** The Body's content as a logical handler reads and replaces it. */
  private record Payload(HandlerMessage message) implements LogicalMessage {
    @Override
    public Source getPayload() {
      try {
        return message.payload();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void setPayload(Source payload) {
      try {
        message.setPayload(payload);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public Object getPayload(JAXBContext context) {
      try {
        Source s = getPayload();
        return s == null ? null : context.createUnmarshaller().unmarshal(s);
      } catch (JAXBException e) {
        throw new WebServiceException("cannot unmarshal the payload: " + e, e);
      }
    }

    @Override
    public void setPayload(Object payload, JAXBContext context) {
      try {
        DOMResult dom = new DOMResult();
        context.createMarshaller().marshal(payload, dom);
        setPayload(new DOMSource(dom.getNode()));
      } catch (JAXBException e) {
        throw new WebServiceException("cannot marshal the payload: " + e, e);
      }
    }
  }
}
