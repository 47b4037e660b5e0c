package dev.ferry.jaxws.internal;

import jakarta.xml.ws.Holder;
import java.lang.reflect.Method;
import java.util.List;
import javax.xml.namespace.QName;

/**
 * One operation of a service endpoint interface: its name, SOAP action and style, the wrapper
 * elements (wrapped and RPC) and the parts of its request and response, and its declared faults.
 * Immutable once its model's JAXB context is made; shared by every call.
 */
public final class Operation {
  /** How parameters sit in the Body. */
  public enum Style {
    /** Document/literal wrapped: one element named after the operation holds the parameters. */
    WRAPPED,
    /** Document/literal bare: each parameter is a Body child of its own. */
    BARE,
    /** RPC/literal: like wrapped, the parts unqualified and typed by schema types. */
    RPC
  }

  private final Method method;
  private final String name;
  private final String action;
  private final Style style;
  private final boolean oneWay;
  private final QName requestWrapper;
  private final QName responseWrapper;
  private final List<Part> inParts;
  private final List<Part> outParts;
  private final List<FaultType> faults;
  private final String responseBeanClass;

  Operation(Method method, String name, String action, Style style, boolean oneWay,
      QName requestWrapper, QName responseWrapper, List<Part> parts, List<FaultType> faults,
      String responseBeanClass) {
    this.method = method;
    this.name = name;
    this.action = action;
    this.style = style;
    this.oneWay = oneWay;
    this.requestWrapper = requestWrapper;
    this.responseWrapper = responseWrapper;
    this.inParts = parts.stream().filter(Part::isIn).toList();
    this.outParts = parts.stream().filter(Part::isOut).toList();
    this.faults = List.copyOf(faults);
    this.responseBeanClass = responseBeanClass;
  }

  public Method method() {
    return method;
  }

  /** Returns the WSDL operation name. */
  public String name() {
    return name;
  }

  /** Returns the SOAP action ("" if none). */
  public String action() {
    return action;
  }

  public Style style() {
    return style;
  }

  public boolean isOneWay() {
    return oneWay;
  }

  /** Returns the element wrapping the request's parameters, or null (bare). */
  public QName requestWrapper() {
    return requestWrapper;
  }

  /** Returns the element wrapping the response's parts, or null (bare). */
  public QName responseWrapper() {
    return responseWrapper;
  }

  /**
   * Returns the element a request of this operation starts its Body with, by which a server
   * finds the operation: the wrapper, or for bare the first body part (null if it has none).
   */
  public QName requestElement() {
    if (requestWrapper != null) {
      return requestWrapper;
    }
    return inParts.stream().filter(p -> !p.isHeader()).map(Part::element).findFirst()
        .orElse(null);
  }

  public List<Part> inParts() {
    return inParts;
  }

  public List<Part> outParts() {
    return outParts;
  }

  public List<FaultType> faults() {
    return faults;
  }

  /** Returns the response wrapper's class name (for asynchronous calls), or null. */
  String responseBeanClass() {
    return responseBeanClass;
  }

  /** The request's part values from a call's arguments (a Holder's value for a Holder). */
  public Object[] requestValues(Object[] args) {
    Object[] values = new Object[inParts.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = argValue(inParts.get(i), args);
    }
    return values;
  }

  /** The arguments to invoke the method with, from the request's part values. */
  public Object[] arguments(Object[] requestValues) {
    Class<?>[] types = method.getParameterTypes();
    Object[] args = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      if (types[i] == Holder.class) {
        args[i] = new Holder<>();
      } else if (types[i].isPrimitive()) {
        args[i] = Primitives.zero(types[i]);
      }
    }
    for (int i = 0; i < requestValues.length; i++) {
      set(inParts.get(i), args, requestValues[i]);
    }
    return args;
  }

  /** The response's part values: the result, and each OUT or INOUT Holder's value. */
  public Object[] responseValues(Object[] args, Object result) {
    Object[] values = new Object[outParts.size()];
    for (int i = 0; i < values.length; i++) {
      Part p = outParts.get(i);
      values[i] = p.index() == Part.RETURN ? result : argValue(p, args);
    }
    return values;
  }

  /** Puts the response's values into the call's Holders; returns the result. */
  public Object applyResponse(Object[] responseValues, Object[] args) {
    Object result = null;
    for (int i = 0; i < responseValues.length; i++) {
      Part p = outParts.get(i);
      if (p.index() == Part.RETURN) {
        result = responseValues[i];
      } else {
        set(p, args, responseValues[i]);
      }
    }
    Class<?> returns = method.getReturnType();
    return result == null && returns.isPrimitive() ? Primitives.zero(returns) : result;
  }

  private static Object argValue(Part p, Object[] args) {
    Object arg = args[p.index()];
    return p.isHolder() ? (arg == null ? null : ((Holder<?>) arg).value) : arg;
  }

  @SuppressWarnings("unchecked")
  private static void set(Part p, Object[] args, Object value) {
    if (p.isHolder()) {
      if (args[p.index()] == null) {
        args[p.index()] = new Holder<>();
      }
      ((Holder<Object>) args[p.index()]).value = value;
    } else if (value != null) {
      args[p.index()] = value;
    }
  }

  @Override
  public String toString() {
    return "Operation[" + name + ", " + style + "]";
  }
}
