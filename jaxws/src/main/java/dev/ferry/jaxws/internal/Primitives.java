package dev.ferry.jaxws.internal;

import java.util.Map;

/** The zero value of each primitive type, for a part that is missing from a message. */
final class Primitives {
  private static final Map<Class<?>, Object> ZERO = Map.of(boolean.class, false, byte.class,
      (byte) 0, short.class, (short) 0, char.class, (char) 0, int.class, 0, long.class, 0L,
      float.class, 0f, double.class, 0d);

  private Primitives() {}

  static Object zero(Class<?> type) {
    return ZERO.get(type);
  }
}
