package dev.ferry.jaxws.internal;

import jakarta.xml.ws.WebFault;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.xml.namespace.QName;
import org.glassfish.jaxb.runtime.api.TypeReference;

/**
 * A checked exception an operation declares, and the fault detail element it travels as. With a
 * {@code getFaultInfo()} method (what wsimport and wsdl2java generate) the detail is that bean,
 * bound by JAXB. Without (an exception written code-first), the detail is the bean Jakarta XML
 * Web Services section 3.7 derives from the exception: an element named after it with one child
 * per property (each getter but those of {@code Throwable} other than {@code getMessage}), in
 * lexicographic order, as Metro writes it; CXF writes the same properties.
 */
public final class FaultType {
  /** Getters of Throwable that are not fault properties. */
  private static final Set<String> NOT_PROPERTIES = Set.of("getCause", "getLocalizedMessage",
      "getStackTrace", "getSuppressed", "getClass");

  private final Class<? extends Exception> exception;
  private final QName element;
  private final Method faultInfo;
  private final Part bean;
  private final List<Method> getters;
  private final List<Part> properties;

  private FaultType(Class<? extends Exception> exception, QName element, Method faultInfo) {
    this.exception = exception;
    this.element = element;
    this.faultInfo = faultInfo;
    this.bean = faultInfo == null ? null : new Part(element, Part.RETURN, Part.Mode.OUT, false,
        false, new TypeReference(element, faultInfo.getGenericReturnType()));
    this.getters = faultInfo == null ? getters(exception) : List.of();
    List<Part> parts = new ArrayList<>();
    for (int i = 0; i < getters.size(); i++) {
      Method g = getters.get(i);
      parts.add(SeiReader.wrapperChild(new QName("", propertyName(g)), i,
          g.getGenericReturnType(), g.getAnnotations()));
    }
    this.properties = List.copyOf(parts);
  }

  /** Returns the fault type of {@code exception}, declared in a SEI of namespace {@code ns}. */
  static FaultType of(Class<? extends Exception> exception, String ns) {
    WebFault wf = exception.getAnnotation(WebFault.class);
    String local = wf != null && !wf.name().isEmpty() ? wf.name() : exception.getSimpleName();
    String elementNs = wf != null && !wf.targetNamespace().isEmpty() ? wf.targetNamespace() : ns;
    Method info;
    try {
      info = exception.getMethod("getFaultInfo");
    } catch (NoSuchMethodException e) {
      info = null;
    }
    return new FaultType(exception, new QName(elementNs, local), info);
  }

  private static List<Method> getters(Class<?> exception) {
    List<Method> getters = new ArrayList<>();
    for (Method m : exception.getMethods()) {
      String n = m.getName();
      boolean getter = n.startsWith("get") && n.length() > 3
          || n.startsWith("is") && n.length() > 2 && m.getReturnType() == boolean.class;
      if (getter && m.getParameterCount() == 0 && m.getReturnType() != void.class
          && !Modifier.isStatic(m.getModifiers()) && !NOT_PROPERTIES.contains(n)) {
        getters.add(m);
      }
    }
    getters.sort(Comparator.comparing(FaultType::propertyName));
    return getters;
  }

  /** A getter's property name, as java.beans decapitalizes it ({@code getURL} is URL). */
  private static String propertyName(Method getter) {
    String n = getter.getName();
    String p = n.substring(n.startsWith("is") ? 2 : 3);
    if (p.length() > 1 && Character.isUpperCase(p.charAt(1))) {
      return p;
    }
    return p.substring(0, 1).toLowerCase(Locale.ROOT) + p.substring(1);
  }

  public Class<? extends Exception> exception() {
    return exception;
  }

  /** Returns the detail element's name. */
  public QName element() {
    return element;
  }

  /** Returns the bean part, or null when the detail is the exception's properties. */
  Part bean() {
    return bean;
  }

  /** Returns the parts of a code-first exception's properties (empty with a bean). */
  List<Part> properties() {
    return properties;
  }

  /** Returns the fault bean {@code e} carries (null for a code-first exception). */
  Object faultInfo(Exception e) {
    if (faultInfo == null) {
      return null;
    }
    return get(faultInfo, e);
  }

  /**
   * Returns the values of a code-first exception's properties, aligned with them; the message
   * is left out (null), since the fault's reason carries it and CXF's clients refuse a detail
   * that repeats it (they have no setter for it), as CXF's own services never send it.
   */
  Object[] propertyValues(Exception e) {
    Object[] values = new Object[getters.size()];
    for (int i = 0; i < values.length; i++) {
      Method g = getters.get(i);
      values[i] = g.getName().equals("getMessage") ? null : get(g, e);
    }
    return values;
  }

  private static Object get(Method m, Object target) {
    try {
      return m.invoke(target);
    } catch (IllegalAccessException | InvocationTargetException x) {
      throw new IllegalStateException("cannot call " + m, x);
    }
  }

  /** Makes the exception a client throws for this fault, from its bean. */
  Exception create(String message, Object info) {
    try {
      Constructor<? extends Exception> c = exception.getConstructor(String.class,
          faultInfo.getReturnType());
      return c.newInstance(message, info);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a " + exception.getName() + " for fault "
          + element + ": it needs a public constructor (String, "
          + faultInfo.getReturnType().getSimpleName() + ")", e);
    }
  }

  /**
   * Makes the exception a client throws for this code-first fault, from its properties' values:
   * by a constructor that takes the message and the other properties (matched by type, in
   * property order where types repeat), else by one that takes the message or nothing, then
   * each property that has a setter set.
   */
  Exception createFromProperties(String message, Object[] values) {
    try {
      for (Constructor<?> c : exception.getConstructors()) {
        Object[] args = arguments(c, message, values);
        if (args != null) {
          return (Exception) c.newInstance(args);
        }
      }
      Exception e;
      try {
        e = exception.getConstructor(String.class).newInstance(message);
      } catch (NoSuchMethodException x) {
        e = exception.getConstructor().newInstance();
      }
      setProperties(e, values);
      return e;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a " + exception.getName() + " for fault "
          + element + ": it needs a public constructor (String) or (String, its properties)", e);
    }
  }

  /** Sets each property that has a setter (as CXF and Metro fill such an exception). */
  private void setProperties(Exception e, Object[] values) throws ReflectiveOperationException {
    for (int i = 0; i < getters.size(); i++) {
      Method g = getters.get(i);
      String name = "set" + g.getName().substring(g.getName().startsWith("is") ? 2 : 3);
      if (values[i] == null || g.getName().equals("getMessage")) {
        continue;
      }
      try {
        exception.getMethod(name, g.getReturnType()).invoke(e, values[i]);
      } catch (NoSuchMethodException x) {
        // read-only: the constructor had its chance
      }
    }
  }

  /** The arguments for {@code c} (message first, then the other properties), or null. */
  private Object[] arguments(Constructor<?> c, String message, Object[] values) {
    Class<?>[] types = c.getParameterTypes();
    if (types.length != getters.size() || types.length < 2 || types[0] != String.class) {
      return null;
    }
    Object[] args = new Object[types.length];
    args[0] = message;
    boolean[] used = new boolean[getters.size()];
    for (int i = 1; i < types.length; i++) {
      int match = -1;
      for (int j = 0; j < getters.size() && match < 0; j++) {
        Method g = getters.get(j);
        if (!used[j] && !g.getName().equals("getMessage")
            && boxed(types[i]) == boxed(g.getReturnType())) {
          match = j;
        }
      }
      if (match < 0) {
        return null;
      }
      used[match] = true;
      args[i] = values[match] != null || !types[i].isPrimitive() ? values[match]
          : Primitives.zero(types[i]);
    }
    return args;
  }

  private static Class<?> boxed(Class<?> c) {
    return !c.isPrimitive() ? c : java.lang.invoke.MethodType.methodType(c).wrap().returnType();
  }

  @Override
  public String toString() {
    return "FaultType[" + exception.getSimpleName() + " as " + element + "]";
  }
}
