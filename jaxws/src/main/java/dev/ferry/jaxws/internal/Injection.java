package dev.ferry.jaxws.internal;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.WebServiceException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * What a JAX-WS runtime does to an implementation before and after it serves: injects the
 * {@link WebServiceContext} into {@code @Resource} fields and setters, then calls its
 * {@code @PostConstruct} method; calls its {@code @PreDestroy} method when it stops.
 */
final class Injection {
  private Injection() {}

  /**
   * Injects {@code context}; calls {@code @PostConstruct} unless {@code lifecycle} is false (a
   * container such as Spring's has called it already).
   */
  static void inject(Object implementor, WebServiceContext context, boolean lifecycle) {
    for (Class<?> c = implementor.getClass(); c != null && c != Object.class;
        c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (f.isAnnotationPresent(Resource.class)
            && f.getType().isAssignableFrom(WebServiceContext.class)) {
          set(f, implementor, context);
        }
      }
      for (Method m : c.getDeclaredMethods()) {
        if (m.isAnnotationPresent(Resource.class) && m.getParameterCount() == 1
            && m.getParameterTypes()[0].isAssignableFrom(WebServiceContext.class)) {
          call(m, implementor, context);
        }
      }
    }
    if (lifecycle) {
      lifecycle(implementor, PostConstruct.class);
    }
  }

  static void destroy(Object implementor) {
    lifecycle(implementor, PreDestroy.class);
  }

  private static void lifecycle(Object implementor, Class<? extends Annotation> annotation) {
    for (Class<?> c = implementor.getClass(); c != null && c != Object.class;
        c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.isAnnotationPresent(annotation) && m.getParameterCount() == 0) {
          call(m, implementor);
        }
      }
    }
  }

  private static void set(Field f, Object target, Object value) {
    try {
      f.setAccessible(true);
      f.set(target, value);
    } catch (IllegalAccessException | RuntimeException e) {
      throw new WebServiceException("cannot inject " + f + ": " + e, e);
    }
  }

  private static void call(Method m, Object target, Object... args) {
    try {
      m.setAccessible(true);
      m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw new WebServiceException(m + " failed: " + e.getCause(), e.getCause());
    } catch (IllegalAccessException | RuntimeException e) {
      throw new WebServiceException("cannot call " + m + ": " + e, e);
    }
  }
}
