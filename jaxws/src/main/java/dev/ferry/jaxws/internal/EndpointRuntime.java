package dev.ferry.jaxws.internal;

import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapFaultException;
import dev.ferry.server.WsdlDocuments;
import dev.ferry.soap.Fault;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import io.opentelemetry.context.Context;
import jakarta.activation.DataHandler;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import javax.xml.namespace.QName;

/**
 * A published SEI endpoint: reads each request's parts, calls the implementation, and writes
 * the response or the fault, all on the model, binding and codec made when it was published.
 * One {@link Endpoint} per operation goes into the {@link Dispatcher}, which finds it by its
 * request element and SOAP action.
 */
final class EndpointRuntime {
  private static final System.Logger LOG = System.getLogger("dev.ferry.jaxws");
  private final SeiModel model;
  private final Target target;
  private final SoapBindingImpl binding;
  private final SoapCodec codec;
  private final MessageBinder binder;
  private final Faults faults;
  private final Names names;
  private final Executor executor;
  private final HandlerRunner handlers;

  /** The WSDL names of the endpoint. */
  record Names(QName service, QName port, QName portType) {}

  EndpointRuntime(SeiModel model, Target target, SoapBindingImpl binding, SoapCodec codec,
      Names names, Executor executor) {
    this.model = model;
    this.target = target;
    this.binding = binding;
    this.codec = codec;
    this.binder = new MessageBinder(codec);
    this.faults = new Faults(codec);
    this.names = names;
    this.executor = executor;
    this.handlers = new HandlerRunner(binding, codec);
  }

  /** A dispatcher with one endpoint per operation, serving {@code wsdl} at {@code ?wsdl}. */
  Dispatcher dispatcher(WsdlDocuments wsdl) {
    Dispatcher.Builder d = Dispatcher.builder().wsdl(wsdl).guard(binding.guard())
        .versions(binding.version()).service(names.portType().getLocalPart());
    for (Operation op : model.operations()) {
      Endpoint e = new OperationEndpoint(op);
      if (op.requestElement() != null) {
        d.element(op.requestElement(), e);
      }
      if (!op.action().isEmpty()) {
        d.soapAction(op.action(), e);
      }
      if (binding.addressing() != null) {
        d.action(model.actions(op).input(), e);
      }
      op.inParts().stream().filter(Part::isHeader).forEach(p -> d.understands(p.element()));
    }
    handlers.understood().forEach(d::understands);
    return d.build();
  }

  /** The endpoint of one operation. */
  private final class OperationEndpoint implements Endpoint {
    private final Operation op;
    private final QName name; // the context's WSDL_OPERATION, the same for every call

    OperationEndpoint(Operation op) {
      this.op = op;
      this.name = new QName(model.targetNamespace(), op.name());
    }

    @Override
    public Payload handle(Message request) throws Exception {
      return handle(request, null);
    }

    @Override
    public String operation() {
      return op.name();
    }

    /** JAXB reads the whole Body, unless handlers (SAAJ's parser) read the message first. */
    @Override
    public boolean readsWholeBody() {
      return binding.chain().isEmpty();
    }

    @Override
    public Payload handle(Message request, HttpServletRequest http) throws Exception {
      MessageContextImpl context = MessageContextImpl.inbound(http, names.service(),
          names.port(), names.portType(), name);
      WsAddressing.Reply wsa = binding.addressing() == null ? null
          : WsAddressing.accept(binding.addressing(), request, op);
      try {
        return handlers.serve(request, context, replyPolicy(request, http),
            (message, policy) -> invoke(op, message, policy, context, wsa));
      } catch (SoapFaultException e) {
        if (wsa == null) {
          throw e;
        }
        throw new SoapFaultException(wsa.withHeaders(e.fault(), WsAddressing.SOAP_FAULT_ACTION));
      }
    }
  }

  /**
   * MTOM replies go to those who can read them: when MTOM is on, to a request that came as an
   * XOP package or that accepts one; a plain request gets a plain reply.
   */
  private MtomPolicy replyPolicy(Message request, HttpServletRequest http) {
    MtomPolicy policy = binding.policy();
    if (!policy.isMtom() || request.attachments() != null && request.attachments().isXop()) {
      return policy;
    }
    String accept = http == null ? null : http.getHeader("Accept");
    boolean accepts = accept != null && (accept.contains("multipart/related")
        || accept.contains("application/xop+xml"));
    return accepts ? policy : MtomPolicy.NEVER;
  }

  private Payload invoke(Operation op, Message request, MtomPolicy policy,
      MessageContextImpl context, WsAddressing.Reply wsa) throws Exception {
    SoapVersion version = request.version();
    Object[] args;
    try {
      args = op.arguments(binder.read(request, op.requestWrapper(), op.inParts(),
          a -> new DataHandler(new AttachmentDataSource(a))));
    } catch (WebServiceException e) {
      LOG.log(System.Logger.Level.INFO, "a request to " + op.name() + " does not bind", e);
      throw new SoapFaultException(Fault.of(version, version.senderFaultCode(),
          "cannot read the " + op.name() + " request: " + e.getMessage()));
    }
    Object result;
    try {
      result = call(op, args, context);
    } catch (InvocationTargetException e) {
      Fault f = faults.toFault(e.getCause(), version, op.faults());
      throw new SoapFaultException(wsa == null ? f
          : wsa.withHeaders(f, model.actions(op).fault(e.getCause())));
    }
    if (op.isOneWay()) {
      return null;
    }
    Object[] out = op.responseValues(args, result);
    List<HeaderBlock> headers = binder.headers(op.outParts(), out);
    if (wsa != null) {
      headers.addAll(wsa.headers(model.actions(op).output()));
    }
    return codec.payload(version, policy, headers,
        body -> binder.writeBody(body, op.responseWrapper(), op.outParts(), out));
  }

  private Object call(Operation op, Object[] args, MessageContextImpl context)
      throws InvocationTargetException, IOException {
    if (executor == null) {
      return callHere(op, args, context);
    }
    try {
      // the implementation runs in the request's trace context, on the executor's thread too
      return CompletableFuture.supplyAsync(Context.current().wrapSupplier(() -> {
        try {
          return callHere(op, args, context);
        } catch (InvocationTargetException e) {
          throw new CompletionException(e);
        }
      }), executor).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof InvocationTargetException ite) {
        throw ite;
      }
      throw new InvocationTargetException(e.getCause());
    }
  }

  private Object callHere(Operation op, Object[] args, MessageContextImpl context)
      throws InvocationTargetException {
    ServerContext.enter(context);
    try {
      return target.invoke(op.method(), args);
    } catch (IllegalAccessException e) {
      throw new WebServiceException("cannot call " + op.method() + ": " + e, e);
    } finally {
      ServerContext.leave();
    }
  }
}
