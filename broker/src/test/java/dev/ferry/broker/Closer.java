package dev.ferry.broker;

import java.util.ArrayList;
import java.util.List;

/** What a test started (servers, brokers, clients), closed last first when the test ends. */
final class Closer implements AutoCloseable {
  private final List<AutoCloseable> open = new ArrayList<>();

  /** Returns {@code c}, to be closed with the others. */
  <T extends AutoCloseable> T keep(T c) {
    open.add(c);
    return c;
  }

  @Override
  public void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    open.clear();
  }
}
