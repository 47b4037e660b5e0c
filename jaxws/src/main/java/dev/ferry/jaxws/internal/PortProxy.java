package dev.ferry.jaxws.internal;

import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import jakarta.xml.ws.AsyncHandler;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.WebServiceException;
import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * A port: the dynamic proxy of a service endpoint interface. Each call writes the request's
 * parts through JAXB into an MTOM package or plain envelope (as the binding says), sends it,
 * and reads the reply into the result and the Holders, or into the declared exception its fault
 * names. Attachments of the reply are handed out as DataHandlers over its spools.
 */
final class PortProxy implements InvocationHandler {
  private final SeiModel model;
  private final PortState state;

  private PortProxy(SeiModel model, PortState state) {
    this.model = model;
    this.state = state;
  }

  /** A proxy of {@code sei} that implements BindingProvider and Closeable too. */
  static <T> T create(Class<T> sei, SeiModel model, SoapBindingImpl binding, String address,
      Executor executor) {
    PortState state = new PortState(binding, address, executor);
    Object proxy = Proxy.newProxyInstance(sei.getClassLoader(),
        new Class<?>[] {sei, BindingProvider.class, Closeable.class},
        new PortProxy(model, state));
    return sei.cast(proxy);
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    Class<?> owner = method.getDeclaringClass();
    if (owner == Object.class) {
      return objectMethod(proxy, method, args);
    }
    if (owner == BindingProvider.class || owner == Closeable.class
        || owner == AutoCloseable.class) {
      try {
        return method.invoke(state, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    }
    Object[] a = args == null ? new Object[0] : args;
    Operation op = model.operation(method);
    if (op != null) {
      return call(op, op.requestValues(a), a, null);
    }
    AsyncOperation async = model.asyncOperation(method);
    if (async != null) {
      return callAsync(async, a);
    }
    throw new WebServiceException(method + " is not an operation of " + model.sei().getName());
  }

  private Object objectMethod(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default -> "Port[" + model.sei().getName() + " at "
          + state.getRequestContext().get(BindingProvider.ENDPOINT_ADDRESS_PROPERTY) + "]";
    };
  }

  /**
   * One call: {@code args} receive OUT and INOUT values (null for an asynchronous call, which
   * returns {@code bean}'s value if it has one, else the one response part's).
   */
  private Object call(Operation op, Object[] values, Object[] args, Part bean) throws Exception {
    Map<String, Object> context = state.snapshot();
    SoapCodec codec = state.codec(context);
    MessageBinder binder = new MessageBinder(codec);
    List<HeaderBlock> headers = binder.headers(op.inParts(), values);
    if (state.binding.addressing() != null) {
      headers.addAll(WsAddressing.request(String.valueOf(context.get(
          BindingProvider.ENDPOINT_ADDRESS_PROPERTY)), model.actions(op).input(),
          op.isOneWay()));
    }
    Payload request = codec.payload(state.binding.version(), state.binding.policy(), headers,
        body -> binder.writeBody(body, op.requestWrapper(), op.inParts(), values));
    PortState.Reply reply = state.send(request, op.action(), context,
        model.portTypeName(), op.name());
    try {
      if (op.isOneWay()) {
        return null;
      }
      Message m = reply.message();
      if (m == null) {
        throw new WebServiceException("no reply to " + op.name() + " (HTTP " + reply.status()
            + ")");
      }
      if (m.isFault()) {
        throw new Faults(codec).toException(m, op.faults(), reply.lease()::handler);
      }
      if (bean != null) {
        return binder.read(m, null, List.of(bean), reply.lease()::handler)[0];
      }
      Object[] out = binder.read(m, op.responseWrapper(), op.outParts(),
          reply.lease()::handler);
      if (args == null) {
        return single(op, out);
      }
      return op.applyResponse(out, args);
    } catch (IOException e) {
      reply.lease().release();
      throw new WebServiceException("cannot read the reply to " + op.name() + ": "
          + e.getMessage(), e);
    } finally {
      reply.lease().callDone();
    }
  }

  private static Object single(Operation op, Object[] out) {
    for (int i = 0; i < out.length; i++) {
      if (!op.outParts().get(i).isHeader()) {
        return out[i];
      }
    }
    return null;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private Object callAsync(AsyncOperation async, Object[] args) {
    Object[] values = async.requestValues(args);
    AsyncHandler handler = async.withHandler() ? (AsyncHandler) args[args.length - 1] : null;
    return AsyncResponse.start(state.executor, state,
        () -> call(async.operation(), values, null, async.bean()), handler);
  }
}
