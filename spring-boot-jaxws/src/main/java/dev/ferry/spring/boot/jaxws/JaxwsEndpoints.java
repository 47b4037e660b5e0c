package dev.ferry.spring.boot.jaxws;

import java.net.URI;
import java.util.List;

/**
 * The JAX-WS endpoints the starter serves: a bean, filled when the endpoints start (with the
 * servlet container, or with Ferry's own server).
 */
public interface JaxwsEndpoints {
  /** One endpoint: its bean's name, its path on the server, and its implementation's class. */
  record Served(String bean, String path, Class<?> implementation) {}

  /** The endpoints served, in the order they were found; empty before they start. */
  List<Served> endpoints();

  /**
   * Where Ferry's own server answers {@code path} (its port, with the scheme it listens with),
   * or null where the endpoints are in the application's servlet container, or before start.
   */
  URI ownServerUri(String path);
}
