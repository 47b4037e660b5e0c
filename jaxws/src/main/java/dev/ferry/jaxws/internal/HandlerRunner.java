package dev.ferry.jaxws.internal;

import dev.ferry.server.SoapFaultException;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.xop.MtomPolicy;
import jakarta.xml.ws.handler.Handler;
import jakarta.xml.ws.handler.LogicalHandler;
import jakarta.xml.ws.handler.MessageContext;
import jakarta.xml.ws.handler.soap.SOAPHandler;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * Runs a binding's handler chain around an exchange, as Jakarta XML Web Services 4 section 9.3
 * says: logical handlers before SOAP handlers going out, after them coming in; a handler that
 * returns false turns the message around; a fault goes through {@code handleFault}; every
 * handler that ran is closed. With no handlers nothing is made and the message passes as is.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
final class HandlerRunner {
  private final SoapBindingImpl binding;
  private final SoapCodec codec;
  private final Faults faults;

  /** The server's side of the exchange: the endpoint's answer to a request. */
  @FunctionalInterface
  interface Invocation {
    Payload invoke(Message request, MtomPolicy policy) throws Exception;
  }

  /** The client's side of the exchange: the peer's answer to a request. */
  @FunctionalInterface
  interface Transport {
    Message exchange(Payload request) throws IOException;
  }

  HandlerRunner(SoapBindingImpl binding, SoapCodec codec) {
    this.binding = binding;
    this.codec = codec;
    this.faults = new Faults(codec);
  }

  /** The headers the chain's SOAP handlers say they process (for mustUnderstand). */
  Set<QName> understood() {
    Set<QName> names = new HashSet<>();
    for (Handler h : binding.chain()) {
      if (h instanceof SOAPHandler<?> s && s.getHeaders() != null) {
        names.addAll(s.getHeaders());
      }
    }
    return names;
  }

  /** The chain, logical handlers first (JAX-WS 9.2.1.2); most endpoints have none. */
  private static List<Handler> ordered(List<Handler> chain) {
    if (chain.isEmpty()) {
      return List.of();
    }
    List<Handler> out = new ArrayList<>(chain.size());
    for (Handler h : chain) {
      if (h instanceof LogicalHandler) {
        out.add(h);
      }
    }
    for (Handler h : chain) {
      if (!(h instanceof LogicalHandler)) {
        out.add(h);
      }
    }
    return out;
  }

  /** Serves {@code request} through the chain: inbound handlers, the endpoint, outbound. */
  Payload serve(Message request, MessageContextImpl properties, MtomPolicy policy,
      Invocation endpoint) throws Exception {
    List<Handler> chain = ordered(binding.chain());
    if (chain.isEmpty()) {
      return endpoint.invoke(request, policy);
    }
    Run run = new Run(chain, properties);
    HandlerMessage in = new HandlerMessage(request, codec);
    HandlerMessage out = null;
    try {
      int stopped = run.pass(in, false, chain.size() - 1, -1);
      if (stopped >= 0) {
        run.pass(in, true, stopped + 1, chain.size());
        out = in;
        in = null;
        return Payloads.closing(out.message().toPayload(), out);
      }
      Payload reply;
      try {
        reply = endpoint.invoke(in.message(), policy);
      } catch (SoapFaultException e) {
        run.fault(e.fault(), 0, chain.size());
        throw e;
      }
      if (reply == null) {
        return null;
      }
      out = HandlerMessage.of(reply, codec);
      run.pass(out, true, 0, chain.size());
      Payload p = Payloads.closing(out.message().toPayload(), out);
      out = null;
      return p;
    } finally {
      run.close();
      if (out != null) {
        out.close();
      }
    }
  }

  /** Sends {@code request} through the chain: outbound handlers, the peer, inbound. */
  Message send(Payload request, MessageContextImpl properties, Transport peer,
      List<HandlerMessage> keep) throws IOException {
    List<Handler> chain = ordered(binding.chain());
    Run run = new Run(chain, properties);
    try {
      HandlerMessage out = HandlerMessage.of(request, codec);
      keep.add(out);
      int stopped = run.pass(out, true, 0, chain.size());
      if (stopped >= 0) {
        run.pass(out, false, stopped - 1, -1);
        return out.message();
      }
      HandlerMessage in = new HandlerMessage(peer.exchange(out.message().toPayload()), codec);
      keep.add(in);
      if (in.message().isFault()) {
        run.faultInbound(in);
      } else {
        run.pass(in, false, chain.size() - 1, -1);
      }
      return in.message();
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    } finally {
      run.close();
    }
  }

  /** One exchange through the chain: which handlers ran, to close them. */
  private final class Run {
    private final List<Handler> chain;
    private final MessageContextImpl properties;
    private final Set<Handler> ran = new LinkedHashSet<>();

    Run(List<Handler> chain, MessageContextImpl properties) {
      this.chain = chain;
      this.properties = properties;
    }

    /**
     * Calls handleMessage on the handlers from {@code from} towards {@code to} (exclusive);
     * returns the index of one that returned false, or -1. A handler that throws makes the
     * exception a fault that goes back through the handlers that ran before it.
     */
    int pass(HandlerMessage m, boolean outbound, int from, int to) throws Exception {
      properties.putApplication(MessageContext.MESSAGE_OUTBOUND_PROPERTY, outbound);
      int step = from <= to ? 1 : -1;
      for (int i = from; i != to; i += step) {
        Handler h = chain.get(i);
        ran.add(h);
        boolean go;
        try {
          go = h.handleMessage(context(h, m));
        } catch (RuntimeException e) {
          Fault f = faults.toFault(e, m.version(), List.of());
          if (!outbound) {
            fault(f, i + 1, chain.size());
          }
          throw new SoapFaultException(f);
        }
        if (!go) {
          return i;
        }
      }
      return -1;
    }

    /** Calls handleFault going out, from {@code from} to {@code to}, on the fault's message. */
    void fault(Fault f, int from, int to) throws IOException {
      properties.putApplication(MessageContext.MESSAGE_OUTBOUND_PROPERTY, true);
      try (HandlerMessage m = new HandlerMessage(codec.parse(f.toEnvelope(codec)).toMessage(),
          codec)) {
        for (int i = from; i < to; i++) {
          Handler h = chain.get(i);
          ran.add(h);
          if (!h.handleFault(context(h, m))) {
            return;
          }
        }
      }
    }

    /** Calls handleFault coming in, on a fault the peer answered with. */
    void faultInbound(HandlerMessage m) {
      properties.putApplication(MessageContext.MESSAGE_OUTBOUND_PROPERTY, false);
      for (int i = chain.size() - 1; i >= 0; i--) {
        Handler h = chain.get(i);
        ran.add(h);
        if (!h.handleFault(context(h, m))) {
          return;
        }
      }
    }

    private MessageContext context(Handler h, HandlerMessage m) {
      return h instanceof LogicalHandler ? new HandlerContexts.Logical(properties, m)
          : new HandlerContexts.Soap(properties, m, binding.getRoles());
    }

    void close() {
      for (Handler h : ran) {
        h.close(properties);
      }
    }
  }
}
