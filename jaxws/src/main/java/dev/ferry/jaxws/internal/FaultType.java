package dev.ferry.jaxws.internal;

import jakarta.xml.ws.WebFault;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import javax.xml.namespace.QName;
import org.glassfish.jaxb.runtime.api.TypeReference;

/**
 * A checked exception an operation declares, and the fault detail element it travels as. With a
 * {@code getFaultInfo()} method (what wsimport and wsdl2java generate) the detail is that bean,
 * bound by JAXB; without (an exception written code-first), it is an element named after the
 * exception holding its {@code message}, the shape CXF and Metro give such exceptions.
 */
public final class FaultType {
  private final Class<? extends Exception> exception;
  private final QName element;
  private final Method faultInfo;
  private final Part bean;

  private FaultType(Class<? extends Exception> exception, QName element, Method faultInfo) {
    this.exception = exception;
    this.element = element;
    this.faultInfo = faultInfo;
    this.bean = faultInfo == null ? null : new Part(element, Part.RETURN, Part.Mode.OUT, false,
        false, new TypeReference(element, faultInfo.getGenericReturnType()));
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

  public Class<? extends Exception> exception() {
    return exception;
  }

  /** Returns the detail element's name. */
  public QName element() {
    return element;
  }

  /** Returns the bean part, or null when the detail is the exception's message. */
  Part bean() {
    return bean;
  }

  /** Returns the fault bean {@code e} carries (null for a code-first exception). */
  Object faultInfo(Exception e) {
    if (faultInfo == null) {
      return null;
    }
    try {
      return faultInfo.invoke(e);
    } catch (IllegalAccessException | InvocationTargetException x) {
      throw new IllegalStateException("cannot call " + faultInfo, x);
    }
  }

  /** Makes the exception a client throws for this fault. */
  Exception create(String message, Object info) {
    try {
      if (faultInfo != null) {
        Constructor<? extends Exception> c = exception.getConstructor(String.class,
            faultInfo.getReturnType());
        return c.newInstance(message, info);
      }
      try {
        return exception.getConstructor(String.class).newInstance(message);
      } catch (NoSuchMethodException e) {
        return exception.getConstructor().newInstance();
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make a " + exception.getName() + " for fault "
          + element + ": it needs a public constructor (String"
          + (faultInfo == null ? "" : ", " + faultInfo.getReturnType().getSimpleName()) + ")", e);
    }
  }

  @Override
  public String toString() {
    return "FaultType[" + exception.getSimpleName() + " as " + element + "]";
  }
}
