package dev.ferry.ldap;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * An immutable list the decoder fills and then freezes, so that records can keep it without the
 * defensive copy they make of lists from callers ({@link #trusted}). Not exposed: callers see a
 * {@link List} whose mutators throw.
 */
final class FrozenList<E> extends AbstractList<E> implements RandomAccess {
  private Object[] elements;
  private int size;
  private boolean frozen;

  FrozenList() {
    this(8);
  }

  /** Creates a list with room for {@code capacity} elements before it grows. */
  FrozenList(int capacity) {
    elements = new Object[Math.max(capacity, 1)];
  }

  void add0(E e) {
    if (frozen) {
      throw new IllegalStateException("frozen");
    }
    if (size == elements.length) {
      elements = Arrays.copyOf(elements, size * 2);
    }
    elements[size++] = e;
  }

  FrozenList<E> freeze() {
    frozen = true;
    return this;
  }

  @Override
  @SuppressWarnings("unchecked")
  public E get(int index) {
    java.util.Objects.checkIndex(index, size);
    return (E) elements[index];
  }

  @Override
  public int size() {
    return size;
  }

  /** Returns {@code list} itself if it is a frozen list of ours, else an immutable copy. */
  static <E> List<E> trusted(List<E> list) {
    return list instanceof FrozenList<E> f && f.frozen ? f : List.copyOf(list);
  }
}
