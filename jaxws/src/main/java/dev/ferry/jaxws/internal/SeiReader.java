package dev.ferry.jaxws.internal;

import jakarta.jws.Oneway;
import jakarta.jws.WebMethod;
import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.jws.WebService;
import jakarta.jws.soap.SOAPBinding;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.RequestWrapper;
import jakarta.xml.ws.Response;
import jakarta.xml.ws.ResponseWrapper;
import jakarta.xml.ws.WebServiceException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import javax.xml.namespace.QName;
import org.glassfish.jaxb.runtime.api.TypeReference;

/**
 * Reads a service endpoint interface's annotations into operations, with the defaults of
 * Jakarta XML Web Services 4 (sections 3.6 and 7.11, and Web Services Metadata): element names
 * {@code argN} and {@code return}, wrapper children unqualified, bare and header parts in the
 * service's namespace, {@code Holder} parameters INOUT.
 */
final class SeiReader {
  private final Class<?> sei;
  private final String targetNamespace;
  private final String portTypeName;
  private final SOAPBinding classBinding;

  SeiReader(Class<?> sei) {
    this.sei = sei;
    WebService ws = sei.getAnnotation(WebService.class);
    this.targetNamespace = !ws.targetNamespace().isEmpty() ? ws.targetNamespace()
        : namespaceOf(sei);
    this.portTypeName = !ws.name().isEmpty() ? ws.name() : sei.getSimpleName();
    this.classBinding = sei.getAnnotation(SOAPBinding.class);
  }

  /** The namespace JAX-WS derives from a package: {@code a.b.c} is {@code http://c.b.a/}. */
  static String namespaceOf(Class<?> type) {
    String[] names = type.getPackageName().split("\\.");
    StringBuilder ns = new StringBuilder("http://");
    for (int i = names.length - 1; i >= 0; i--) {
      ns.append(names[i]).append(i > 0 ? "." : "/");
    }
    return ns.toString();
  }

  Class<?> sei() {
    return sei;
  }

  String targetNamespace() {
    return targetNamespace;
  }

  String portTypeName() {
    return portTypeName;
  }

  List<Operation> operations() {
    List<Operation> ops = new ArrayList<>();
    for (Method m : webMethods()) {
      if (!isAsync(m)) {
        ops.add(operation(m));
      }
    }
    return ops;
  }

  /** The methods an endpoint offers: an interface's all, a class's own public ones. */
  private List<Method> webMethods() {
    List<Method> methods = new ArrayList<>();
    if (sei.isInterface()) {
      for (Method m : sei.getMethods()) {
        methods.add(m);
      }
    } else {
      for (Class<?> c = sei; c != null && c != Object.class; c = c.getSuperclass()) {
        if (c != sei && !c.isAnnotationPresent(WebService.class)) {
          continue;
        }
        for (Method m : c.getDeclaredMethods()) {
          int mod = m.getModifiers();
          if (Modifier.isPublic(mod) && !Modifier.isStatic(mod) && !m.isSynthetic()) {
            methods.add(m);
          }
        }
      }
    }
    methods.removeIf(m -> m.getDeclaringClass() == Object.class || excluded(m));
    methods.sort(Comparator.comparing(Method::getName).thenComparing(Method::toGenericString));
    return methods;
  }

  private static boolean excluded(Method m) {
    WebMethod wm = m.getAnnotation(WebMethod.class);
    return wm != null && wm.exclude();
  }

  private static boolean isAsync(Method m) {
    Class<?> r = m.getReturnType();
    return m.getName().endsWith("Async") && (r == Response.class || r == Future.class);
  }

  private Operation operation(Method m) {
    WebMethod wm = m.getAnnotation(WebMethod.class);
    String name = wm != null && !wm.operationName().isEmpty() ? wm.operationName() : m.getName();
    String action = wm != null ? wm.action() : "";
    Operation.Style style = style(m);
    boolean oneWay = m.isAnnotationPresent(Oneway.class);
    QName request = null;
    QName response = null;
    String responseBean = null;
    if (style == Operation.Style.WRAPPED) {
      RequestWrapper rq = m.getAnnotation(RequestWrapper.class);
      ResponseWrapper rs = m.getAnnotation(ResponseWrapper.class);
      request = new QName(rq != null && !rq.targetNamespace().isEmpty() ? rq.targetNamespace()
          : targetNamespace, rq != null && !rq.localName().isEmpty() ? rq.localName() : name);
      response = new QName(rs != null && !rs.targetNamespace().isEmpty() ? rs.targetNamespace()
          : targetNamespace, rs != null && !rs.localName().isEmpty() ? rs.localName()
          : name + "Response");
      responseBean = rs != null && !rs.className().isEmpty() ? rs.className() : null;
    } else if (style == Operation.Style.RPC) {
      request = new QName(targetNamespace, name);
      response = new QName(targetNamespace, name + "Response");
    }
    List<Part> parts = parameters(m, name, style);
    if (m.getReturnType() != void.class && !oneWay) {
      parts.add(result(m, name, style));
    }
    return new Operation(m, name, action, style, oneWay, request, response, parts, faults(m),
        responseBean);
  }

  private Operation.Style style(Method m) {
    SOAPBinding b = m.getAnnotation(SOAPBinding.class);
    b = b != null ? b : classBinding;
    if (b == null) {
      return Operation.Style.WRAPPED;
    }
    if (b.use() == SOAPBinding.Use.ENCODED) {
      throw new WebServiceException(m + ": SOAP encoding (use=ENCODED) is not supported,"
          + " only literal");
    }
    if (b.style() == SOAPBinding.Style.RPC) {
      return Operation.Style.RPC;
    }
    return b.parameterStyle() == SOAPBinding.ParameterStyle.BARE ? Operation.Style.BARE
        : Operation.Style.WRAPPED;
  }

  private List<Part> parameters(Method m, String operation, Operation.Style style) {
    List<Part> parts = new ArrayList<>();
    Type[] types = m.getGenericParameterTypes();
    Annotation[][] annotations = m.getParameterAnnotations();
    for (int i = 0; i < types.length; i++) {
      WebParam wp = find(annotations[i], WebParam.class);
      boolean holder = raw(types[i]) == Holder.class;
      Type valueType = holder ? typeArgument(types[i], m) : types[i];
      Part.Mode mode = !holder ? Part.Mode.IN : wp == null || wp.mode() == WebParam.Mode.IN
          ? Part.Mode.INOUT : Part.Mode.valueOf(wp.mode().name());
      boolean header = wp != null && wp.header();
      String local = wp != null && !wp.name().isEmpty() ? wp.name()
          : style == Operation.Style.BARE && !header
          ? (mode == Part.Mode.OUT ? operation + "Response" : operation) : "arg" + i;
      String partName = wp != null && !wp.partName().isEmpty() ? wp.partName() : local;
      String ns = wp != null && !wp.targetNamespace().isEmpty() ? wp.targetNamespace()
          : style != Operation.Style.BARE && !header ? "" : targetNamespace;
      QName element = style == Operation.Style.RPC && !header ? new QName("", partName)
          : new QName(ns, local);
      parts.add(part(element, i, mode, header, holder, valueType, annotations[i], style));
    }
    return parts;
  }

  private Part result(Method m, String operation, Operation.Style style) {
    WebResult wr = m.getAnnotation(WebResult.class);
    boolean header = wr != null && wr.header();
    String local = wr != null && !wr.name().isEmpty() ? wr.name()
        : style == Operation.Style.BARE ? operation + "Response" : "return";
    String partName = wr != null && !wr.partName().isEmpty() ? wr.partName() : local;
    String ns = wr != null && !wr.targetNamespace().isEmpty() ? wr.targetNamespace()
        : style != Operation.Style.BARE && !header ? "" : targetNamespace;
    QName element = style == Operation.Style.RPC && !header ? new QName("", partName)
        : new QName(ns, local);
    return part(element, Part.RETURN, Part.Mode.OUT, header, false, m.getGenericReturnType(),
        m.getAnnotations(), style);
  }

  /** A child of a wrapper-like element (a code-first fault's property): repeated if a list. */
  static Part wrapperChild(QName element, int index, Type type, Annotation[] annotations) {
    return part(element, index, Part.Mode.OUT, false, false, type, annotations,
        Operation.Style.WRAPPED);
  }

  /**
   * A part; in a wrapper, a collection or an array (but {@code byte[]}, which is base64Binary)
   * is one element per item, as a wrapper bean's property of that type would be; in an RPC
   * operation element a collection is too, and an array is one part of JAXB's array type
   * ({@code jaxb.dev.java.net/array}), as in CXF and Metro.
   */
  private static Part part(QName element, int index, Part.Mode mode, boolean header,
      boolean holder, Type type, Annotation[] annotations, Operation.Style style) {
    Class<?> raw = raw(type);
    boolean collection = java.util.Collection.class.isAssignableFrom(raw);
    boolean array = raw.isArray() && raw != byte[].class;
    // RPC arrays are one part of JAXB's array type (<item>s), as CXF and Metro bind them
    if (!header && (style == Operation.Style.WRAPPED && (collection || array)
        || style == Operation.Style.RPC && collection)) {
      Type item = array ? raw.getComponentType() : typeArgument(type, raw);
      return new Part(element, index, mode, header, holder,
          new TypeReference(element, item, annotations), raw);
    }
    if (collection && find(annotations, jakarta.xml.bind.annotation.XmlList.class) == null) {
      throw new WebServiceException(element + ": a collection binds only inside a wrapper"
          + " (document/literal wrapped, RPC) or with @XmlList");
    }
    return new Part(element, index, mode, header, holder,
        new TypeReference(element, type, annotations));
  }

  private List<FaultType> faults(Method m) {
    List<FaultType> faults = new ArrayList<>();
    for (Class<?> e : m.getExceptionTypes()) {
      if (Exception.class.isAssignableFrom(e) && !RuntimeException.class.isAssignableFrom(e)
          && !isRemote(e)) {
        faults.add(FaultType.of(e.asSubclass(Exception.class), targetNamespace));
      }
    }
    return faults;
  }

  /** RMI's RemoteException (an old SEI may declare it) is no fault; java.rmi is not read. */
  private static boolean isRemote(Class<?> e) {
    for (Class<?> c = e; c != null; c = c.getSuperclass()) {
      if (c.getName().equals("java.rmi.RemoteException")) {
        return true;
      }
    }
    return false;
  }

  /** The asynchronous variants among the interface's methods, each tied to its operation. */
  List<AsyncOperation> asyncOperations(Map<Method, Operation> operations) {
    List<AsyncOperation> out = new ArrayList<>();
    if (!sei.isInterface()) {
      return out;
    }
    for (Method m : sei.getMethods()) {
      if (!isAsync(m) || excluded(m)) {
        continue;
      }
      Operation op = syncOf(m, operations);
      boolean withHandler = m.getReturnType() == Future.class;
      Type result = withHandler
          ? typeArgument(m.getGenericParameterTypes()[m.getParameterCount() - 1], m)
          : typeArgument(m.getGenericReturnType(), m);
      out.add(new AsyncOperation(m, op, withHandler, bean(op, result)));
    }
    return out;
  }

  private Operation syncOf(Method async, Map<Method, Operation> operations) {
    WebMethod wm = async.getAnnotation(WebMethod.class);
    String javaName = async.getName().substring(0, async.getName().length() - "Async".length());
    for (Operation op : operations.values()) {
      if (wm != null && !wm.operationName().isEmpty() ? op.name().equals(wm.operationName())
          : op.method().getName().equals(javaName)) {
        return op;
      }
    }
    throw new WebServiceException(async + " is asynchronous, but " + sei.getName()
        + " has no operation " + javaName + " for it");
  }

  /** The response bean part when T is not the type of the operation's one response part. */
  private static Part bean(Operation op, Type result) {
    List<Part> outs = op.outParts().stream().filter(p -> !p.isHeader()).toList();
    if (outs.size() == 1 && boxed(raw(outs.get(0).valueType())) == raw(result)) {
      return null;
    }
    QName wrapper = op.responseWrapper();
    if (wrapper == null) {
      throw new WebServiceException(op.method() + ": an asynchronous bare operation must have"
          + " one response part");
    }
    return new Part(wrapper, Part.RETURN, Part.Mode.OUT, false, false,
        new TypeReference(wrapper, result));
  }

  private static Class<?> boxed(Class<?> c) {
    return !c.isPrimitive() ? c : java.lang.invoke.MethodType.methodType(c).wrap().returnType();
  }

  static Class<?> raw(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    return Object.class;
  }

  private static Type typeArgument(Type t, Object where) {
    if (t instanceof ParameterizedType p && p.getActualTypeArguments().length == 1) {
      Type arg = p.getActualTypeArguments()[0];
      return arg instanceof java.lang.reflect.WildcardType w ? w.getUpperBounds()[0] : arg;
    }
    throw new WebServiceException(where + ": " + t + " needs its type argument");
  }

  private static <A extends Annotation> A find(Annotation[] annotations, Class<A> type) {
    for (Annotation a : annotations) {
      if (type.isInstance(a)) {
        return type.cast(a);
      }
    }
    return null;
  }
}
