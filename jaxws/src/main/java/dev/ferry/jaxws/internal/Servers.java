package dev.ferry.jaxws.internal;

import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The embedded servers endpoints are published on: one {@link SoapServer} per host and port,
 * shared by every endpoint published there, started with the first and closed with the last.
 */
final class Servers {
  private static final Map<String, Shared> BY_ADDRESS = new HashMap<>();

  private Servers() {}

  private record Shared(SoapServer server, Set<String> paths) {}

  /** Serves {@code dispatcher} at {@code address}; returns the URL it answers at. */
  static synchronized URI publish(URI address, SoapCodec codec, Dispatcher dispatcher) {
    if (!"http".equalsIgnoreCase(address.getScheme()) || address.getHost() == null) {
      throw new IllegalArgumentException("expected an http:// address with a host, got "
          + address);
    }
    String path = address.getPath() == null || address.getPath().isEmpty() ? "/"
        : address.getPath();
    String key = address.getHost() + ":" + address.getPort();
    Shared shared = BY_ADDRESS.get(key);
    if (shared == null) {
      try {
        SoapServer server = SoapServer.builder().host(address.getHost())
            .port(address.getPort() < 0 ? 80 : address.getPort()).codec(codec).build().start();
        shared = new Shared(server, new HashSet<>());
      } catch (IOException e) {
        throw new WebServiceException("cannot listen at " + address + ": " + e.getMessage(), e);
      }
      BY_ADDRESS.put(key, shared);
    }
    if (!shared.paths().add(path)) {
      throw new WebServiceException("an endpoint is already published at " + address);
    }
    shared.server().addEndpoint(path, codec, dispatcher);
    URI at = shared.server().uri(path);
    return URI.create(address.getScheme() + "://" + address.getHost() + ":" + at.getPort()
        + path);
  }

  /** Stops serving {@code address}; closes its server if nothing else is served there. */
  static synchronized void unpublish(URI address) {
    String key = address.getHost() + ":" + address.getPort();
    Shared shared = BY_ADDRESS.get(key);
    if (shared == null) {
      return;
    }
    String path = address.getPath().isEmpty() ? "/" : address.getPath();
    shared.server().removeEndpoint(path);
    shared.paths().remove(path);
    if (shared.paths().isEmpty()) {
      BY_ADDRESS.remove(key);
      try {
        shared.server().close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
