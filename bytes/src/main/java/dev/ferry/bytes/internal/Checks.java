package dev.ferry.bytes.internal;

/** Argument checks with messages in the shape {@code "byteCount < 0: -3"}. */
public final class Checks {
  private Checks() {}

  /** Checks that {@code [offset, offset + byteCount)} lies within {@code [0, size)}. */
  public static void checkRange(long size, long offset, long byteCount) {
    if ((offset | byteCount) < 0 || offset > size || size - offset < byteCount) {
      throw new IndexOutOfBoundsException(
          "size=" + size + " offset=" + offset + " byteCount=" + byteCount);
    }
  }

  /** Checks that {@code index} lies within {@code [0, size)}. */
  public static void checkIndex(int size, int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("index=" + index + " size=" + size);
    }
  }

  /** Checks that {@code value} is not negative. */
  public static long checkNotNegative(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + " < 0: " + value);
    }
    return value;
  }

  /** Checks that {@code value} is at least 1. */
  public static long checkPositive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " < 1: " + value);
    }
    return value;
  }
}
