package dev.ferry.jaxws.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** What a server calls an operation's method on: the implementor, or a container's Invoker. */
@FunctionalInterface
interface Target {
  Object invoke(Method method, Object[] args)
      throws InvocationTargetException, IllegalAccessException;

  static Target of(Object implementor) {
    return (m, args) -> m.invoke(implementor, args);
  }

  static Target of(jakarta.xml.ws.spi.Invoker invoker) {
    return invoker::invoke;
  }
}
