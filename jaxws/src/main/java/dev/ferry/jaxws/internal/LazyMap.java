package dev.ferry.jaxws.internal;

import java.util.AbstractMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A read-only map made by its supplier when first read: for the properties of a message
 * context that copy something (an exchange's HTTP headers) and that few callers look at, so that
 * a call that never reads them does not pay for the copy. Not thread-safe, as a context is not.
 */
final class LazyMap<K, V> extends AbstractMap<K, V> {
  private final Supplier<Map<K, V>> supplier;
  private Map<K, V> map;

  LazyMap(Supplier<Map<K, V>> supplier) {
    this.supplier = supplier;
  }

  private Map<K, V> map() {
    if (map == null) {
      map = supplier.get();
    }
    return map;
  }

  @Override
  public Set<Entry<K, V>> entrySet() {
    return map().entrySet();
  }

  @Override
  public V get(Object key) {
    return map().get(key);
  }

  @Override
  public boolean containsKey(Object key) {
    return map().containsKey(key);
  }

  @Override
  public int size() {
    return map().size();
  }
}
