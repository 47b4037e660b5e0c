package dev.ferry.jaxws.internal;

import jakarta.jws.WebService;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.ws.WebServiceException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.glassfish.jaxb.runtime.api.JAXBRIContext;
import org.glassfish.jaxb.runtime.api.TypeReference;

/**
 * A service endpoint interface read once: its namespace and port type, its operations, and the
 * one JAXB context (Glassfish's, with a bridge per part) every call of every operation shares.
 * Made when an endpoint is published or a port is made, never per call. Thread-safe.
 */
public final class SeiModel {
  private final Class<?> sei;
  private final String targetNamespace;
  private final String portTypeName;
  private final List<Operation> operations;
  private final Map<Method, Operation> byMethod = new HashMap<>();
  private final Map<Method, AsyncOperation> asyncByMethod = new HashMap<>();
  private final Map<Operation, Actions> actions = new HashMap<>();
  private final JAXBRIContext context;

  private SeiModel(SeiReader reader, Class<?>... seeAlsoFrom) {
    this.sei = reader.sei();
    this.targetNamespace = reader.targetNamespace();
    this.portTypeName = reader.portTypeName();
    this.operations = reader.operations();
    for (Operation op : operations) {
      byMethod.put(op.method(), op);
      actions.put(op, Actions.of(targetNamespace, portTypeName, op));
    }
    for (AsyncOperation a : reader.asyncOperations(byMethod)) {
      asyncByMethod.put(a.method(), a);
    }
    this.context = createContext(seeAlsoFrom);
  }

  /**
   * Reads {@code sei} (an interface or, code-first, the implementation class itself); classes
   * named by {@code @XmlSeeAlso} on it and on {@code others} join the JAXB context.
   *
   * @throws WebServiceException if the class is not a {@code @WebService} or its types do not
   *     bind
   */
  public static SeiModel of(Class<?> sei, Class<?>... others) {
    if (!sei.isAnnotationPresent(WebService.class)) {
      throw new WebServiceException(sei.getName() + " is not annotated @WebService");
    }
    Class<?>[] seeAlso = new Class<?>[others.length + 1];
    seeAlso[0] = sei;
    System.arraycopy(others, 0, seeAlso, 1, others.length);
    return new SeiModel(new SeiReader(sei), seeAlso);
  }

  private JAXBRIContext createContext(Class<?>[] seeAlsoFrom) {
    Set<Class<?>> classes = new LinkedHashSet<>();
    for (Class<?> c : seeAlsoFrom) {
      XmlSeeAlso also = c.getAnnotation(XmlSeeAlso.class);
      if (also != null) {
        Collections.addAll(classes, also.value());
      }
    }
    List<TypeReference> refs = new ArrayList<>();
    List<Part> parts = allParts();
    for (Part p : parts) {
      refs.add(p.typeReference());
      Class<?> raw = SeiReader.raw(p.valueType());
      if (raw.isArray() && raw != byte[].class) {
        classes.add(raw); // an array part (RPC) binds as JAXB's array type, which must be known
      }
      while (raw.isArray()) {
        raw = raw.getComponentType();
      }
      if (isBean(raw)) {
        classes.add(raw); // a type only a TypeReference names is not bound by it
      }
    }
    try {
      JAXBRIContext c = JAXBRIContext.newInstance(classes.toArray(new Class<?>[0]), refs, null,
          targetNamespace, false, null);
      StrictUnmarshallers unmarshallers = new StrictUnmarshallers(c);
      parts.forEach(p -> p.bind(c.createBridge(p.typeReference()), unmarshallers));
      return c;
    } catch (JAXBException e) {
      throw new WebServiceException("the types of " + sei.getName() + " do not bind to XML: "
          + e, e);
    }
  }

  /** A class of the application's own, which JAXB binds as a bean (not a built-in). */
  static boolean isBean(Class<?> c) {
    String n = c.getName();
    return !c.isPrimitive() && !n.startsWith("java.") && !n.startsWith("javax.")
        && !n.startsWith("jakarta.");
  }

  private List<Part> allParts() {
    List<Part> parts = new ArrayList<>();
    for (Operation op : operations) {
      parts.addAll(op.inParts());
      parts.addAll(op.outParts());
      op.faults().stream().filter(f -> f.bean() != null).forEach(f -> parts.add(f.bean()));
      op.faults().forEach(f -> parts.addAll(f.properties()));
    }
    asyncByMethod.values().stream().filter(a -> a.bean() != null)
        .forEach(a -> parts.add(a.bean()));
    return parts;
  }

  public Class<?> sei() {
    return sei;
  }

  public String targetNamespace() {
    return targetNamespace;
  }

  /** Returns the WSDL port type's local name. */
  public String portTypeName() {
    return portTypeName;
  }

  public List<Operation> operations() {
    return operations;
  }

  /** Returns the operation {@code method} calls, or null if it is not one. */
  public Operation operation(Method method) {
    return byMethod.get(method);
  }

  /** Returns the asynchronous variant {@code method} is, or null. */
  public AsyncOperation asyncOperation(Method method) {
    return asyncByMethod.get(method);
  }

  /** Returns the WS-Addressing actions of {@code op}, one of this model's operations. */
  Actions actions(Operation op) {
    return actions.get(op);
  }

  public JAXBRIContext context() {
    return context;
  }

  @Override
  public String toString() {
    return "SeiModel[" + sei.getName() + ", " + operations.size() + " operations]";
  }
}
