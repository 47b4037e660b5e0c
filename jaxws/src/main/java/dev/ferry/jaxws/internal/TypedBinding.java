package dev.ferry.jaxws.internal;

import dev.ferry.client.SoapResponse;
import dev.ferry.jaxws.FaultReplyException;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapFaultException;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.util.List;
import javax.xml.namespace.QName;
import org.glassfish.jaxb.runtime.api.JAXBRIContext;
import org.glassfish.jaxb.runtime.api.TypeReference;

/**
 * The binding of a typed operation: its request and response classes as the Body's one
 * element each, through the same {@link MessageBinder} as JAX-WS operations.
 */
public final class TypedBinding<I, O> {
  private final Class<O> responseType;
  private final SoapVersion version;
  private final MtomPolicy policy;
  private final SoapCodec codec;
  private final MessageBinder binder;
  private final Faults faults;
  private final List<Part> request;
  private final List<Part> response;

  /** What the endpoint does with a request. */
  @FunctionalInterface
  public interface Function<I, O> {
    O apply(I request) throws Exception;
  }

  public TypedBinding(QName requestElement, Class<I> requestType, QName responseElement,
      Class<O> responseType, SoapVersion version, MtomPolicy policy, SoapCodec codec) {
    this.responseType = responseType;
    this.version = version;
    this.policy = policy;
    this.codec = codec;
    this.binder = new MessageBinder(codec);
    this.faults = new Faults(codec);
    TypeReference in = new TypeReference(requestElement, requestType);
    TypeReference out = new TypeReference(responseElement, responseType);
    this.request = List.of(new Part(requestElement, 0, Part.Mode.IN, false, false, in));
    this.response = List.of(new Part(responseElement, Part.RETURN, Part.Mode.OUT, false, false,
        out));
    try {
      JAXBRIContext c = JAXBRIContext.newInstance(new Class<?>[] {requestType, responseType},
          List.of(in, out), null, requestElement.getNamespaceURI(), false, null);
      StrictUnmarshallers unmarshallers = new StrictUnmarshallers(c);
      request.get(0).bind(c.createBridge(in), unmarshallers);
      response.get(0).bind(c.createBridge(out), unmarshallers);
    } catch (JAXBException e) {
      throw new WebServiceException(requestType.getName() + " or " + responseType.getName()
          + " does not bind to XML: " + e, e);
    }
  }

  public SoapVersion version() {
    return version;
  }

  /** The request message of {@code value}. */
  public Payload request(I value) {
    Object[] values = {value};
    return codec.payload(version, policy, List.of(),
        body -> binder.writeBody(body, null, request, values));
  }

  /** Reads {@code reply}'s response; keeps it open while DataHandlers from it are in use. */
  public O response(SoapResponse reply) throws IOException {
    ReplyLease lease = new ReplyLease(reply);
    try {
      Message m = reply.message();
      if (m == null) {
        throw new IOException("no reply (HTTP " + reply.status() + ")");
      }
      if (m.isFault()) {
        throw new FaultReplyException(Fault.read(m));
      }
      return responseType.cast(binder.read(m, null, response, lease::handler)[0]);
    } catch (IOException | RuntimeException e) {
      lease.release();
      throw e;
    } finally {
      lease.callDone();
    }
  }

  /** A server endpoint calling {@code handler}. */
  public Endpoint endpoint(Function<? super I, ? extends O> handler) {
    return new Endpoint() {
      @Override
      public boolean readsWholeBody() {
        return true; // JAXB reads it through MessageBinder
      }

      @Override
      public Payload handle(Message message) throws Exception {
        return serve(handler, message);
      }
    };
  }

  private Payload serve(Function<? super I, ? extends O> handler, Message message)
      throws IOException, SoapFaultException {
    I value;
    try {
      @SuppressWarnings("unchecked")
      I v = (I) binder.read(message, null, request,
          a -> new DataHandler(new AttachmentDataSource(a)))[0];
      value = v;
    } catch (WebServiceException e) {
      throw new SoapFaultException(Fault.of(message.version(),
          message.version().senderFaultCode(), e.getMessage()));
    }
    O out;
    try {
      out = handler.apply(value);
    } catch (SoapFaultException e) {
      throw e;
    } catch (Exception e) {
      throw new SoapFaultException(faults.toFault(e, message.version(), List.of()));
    }
    Object[] values = {out};
    MtomPolicy reply = message.attachments() != null && message.attachments().isXop()
        ? policy : MtomPolicy.NEVER;
    return codec.payload(message.version(), reply, List.of(),
        body -> binder.writeBody(body, null, response, values));
  }
}
