package dev.ferry.jaxws.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Marshaller;
import jakarta.xml.soap.SOAPMessage;
import jakarta.xml.ws.AsyncHandler;
import jakarta.xml.ws.Dispatch;
import jakarta.xml.ws.Response;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import javax.xml.transform.Source;
import javax.xml.transform.stream.StreamSource;

/**
 * A {@link Dispatch} for raw XML: a {@link Source} of the Body's content (PAYLOAD) or of the
 * whole envelope (MESSAGE), a SAAJ {@link SOAPMessage} (MESSAGE), or JAXB objects of a context
 * the caller gives (PAYLOAD). The reply is read whole before a call returns; a fault is a
 * {@link SOAPFaultException}.
 */
final class DispatchImpl<T> extends PortState implements Dispatch<T> {
  private final Class<T> type;
  private final Service.Mode mode;
  private final JAXBContext jaxb;

  DispatchImpl(SoapBindingImpl binding, String address, java.util.concurrent.Executor executor,
      Class<T> type, Service.Mode mode, JAXBContext jaxb) {
    super(binding, address, executor);
    this.type = type;
    this.mode = mode;
    this.jaxb = jaxb;
    if (jaxb == null && type != Source.class && type != SOAPMessage.class) {
      throw new WebServiceException("a Dispatch takes Source, SOAPMessage or JAXB objects, not "
          + type.getName());
    }
    if (type == SOAPMessage.class && mode != Service.Mode.MESSAGE) {
      throw new WebServiceException("a Dispatch<SOAPMessage> works in MESSAGE mode only");
    }
  }

  @Override
  public T invoke(T msg) {
    return exchange(msg, true);
  }

  @Override
  public void invokeOneWay(T msg) {
    exchange(msg, false);
  }

  @Override
  public Response<T> invokeAsync(T msg) {
    return AsyncResponse.start(executor, this, () -> exchange(msg, true), null);
  }

  @Override
  public Future<?> invokeAsync(T msg, AsyncHandler<T> handler) {
    return AsyncResponse.start(executor, this, () -> exchange(msg, true), handler);
  }

  private T exchange(T msg, boolean wantReply) {
    Map<String, Object> context = snapshot();
    SoapCodec codec = codec(context);
    try {
      Reply reply = send(request(msg, codec), null, context, null, null);
      try {
        Message m = reply.message();
        if (!wantReply || m == null) {
          return null;
        }
        if (m.isFault() && mode == Service.Mode.PAYLOAD) {
          throw (SOAPFaultException) new Faults(codec).toException(m, List.of(), a -> null);
        }
        return type.cast(reply(m, codec));
      } finally {
        reply.lease().release();
      }
    } catch (IOException e) {
      throw new WebServiceException("the Dispatch call failed: " + e.getMessage(), e);
    }
  }

  private Payload request(T msg, SoapCodec codec) throws IOException {
    SoapVersion version = binding.version();
    if (msg instanceof SOAPMessage saaj) {
      return Payloads.of(saaj, codec);
    }
    ByteString xml = jaxb != null ? marshal(msg) : Xml.bytes((Source) msg);
    if (mode == Service.Mode.MESSAGE) {
      return codec.parse(xml).toMessage().toPayload();
    }
    return codec.payload(version, binding.policy(), List.of(),
        body -> body.writeRaw(xml.utf8()));
  }

  private ByteString marshal(Object o) throws IOException {
    ByteStringBuilder out = new ByteStringBuilder(512);
    try {
      Marshaller m = jaxb.createMarshaller();
      m.setProperty(Marshaller.JAXB_FRAGMENT, true);
      m.marshal(o, out.asOutputStream());
    } catch (JAXBException e) {
      throw new IOException("cannot marshal the Dispatch payload: " + e, e);
    }
    return out.toByteString();
  }

  private Object reply(Message m, SoapCodec codec) throws IOException {
    if (type == SOAPMessage.class) {
      return new HandlerMessage(m, codec).soap();
    }
    if (mode == Service.Mode.MESSAGE) {
      return new StreamSource(m.toByteString().asInputStream());
    }
    Source payload = new HandlerMessage(m, codec).payload();
    if (jaxb == null || payload == null) {
      return payload;
    }
    try {
      return jaxb.createUnmarshaller().unmarshal(payload);
    } catch (JAXBException e) {
      throw new IOException("cannot unmarshal the Dispatch reply: " + e, e);
    }
  }
}
