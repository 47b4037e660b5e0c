package dev.ferry.jaxws.internal;

import java.lang.reflect.Proxy;

/**
 * An implementation of an interface whose every method throws, naming itself: the base an
 * adapter wraps (servlet API wrappers need one), so that a method the adapter left out fails
 * loudly instead of answering something wrong.
 */
final class Unsupported {
  private Unsupported() {}

  static <T> T of(Class<T> type, String what) {
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
        (proxy, method, args) -> {
          throw new UnsupportedOperationException(type.getSimpleName() + "." + method.getName()
              + " is not available " + what);
        }));
  }
}
