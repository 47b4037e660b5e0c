package dev.ferry.bench.http;

import dev.ferry.interop.CxfPeer;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The paths a call to the CXF echo service can take, side by side in one run: {@code direct},
 * through {@code ferry broker} ({@link RelayProcess}), through {@code nginx} ({@link Nginx},
 * {@code proxy_pass} with a kept-alive upstream and request bodies in memory), or through
 * {@code netty-relay} ({@link NettyRelay}, the broker's transport with no SOAP work: the floor
 * under the broker). The backend is not Ferry: CXF 4's JAX-WS echo (MTOM enabled), in the
 * benchmark's JVM. {@code ferry-broker-json}, {@code ferry-broker-traced},
 * {@code ferry-broker-messages} and the other variants of {@link OpsSettings} are further
 * brokers, each in its own process, started with the logging or tracing they name.
 */
final class Relays implements AutoCloseable {
  static final String[] PATHS = {"direct", "ferry-broker", "nginx", "netty-relay"};

  private final CxfPeer.EchoServer backend;
  private final Map<String, RelayProcess> brokers; // by path: ferry-broker and its variants
  private final Nginx nginx;
  private final RelayProcess relay;

  private Relays(CxfPeer.EchoServer backend, Map<String, RelayProcess> brokers, Nginx nginx,
      RelayProcess relay) {
    this.backend = backend;
    this.brokers = brokers;
    this.nginx = nginx;
    this.relay = relay;
  }

  /** Starts the backend and the relay {@code path} names (all of them for null). */
  static Relays start(String path) throws IOException, InterruptedException {
    return start(path == null ? List.of(PATHS) : List.of(path), null);
  }

  /**
   * Starts the backend and the relays {@code paths} name; a traced broker's spans go to
   * {@code spans}.
   */
  static Relays start(List<String> paths, OtlpSink spans)
      throws IOException, InterruptedException {
    CxfPeer.EchoServer backend = new CxfPeer.EchoServer();
    Map<String, RelayProcess> brokers = new LinkedHashMap<>();
    Nginx nginx = null;
    RelayProcess relay = null;
    try {
      for (String path : paths) {
        if (OpsSettings.isVariant(path, "ferry-broker")) {
          brokers.put(path, RelayProcess.broker(backend.uri(true),
              OpsSettings.of(path, "ferry-broker", spans)));
        }
      }
      if (paths.contains("nginx")) {
        nginx = Nginx.start(backend.uri(true).getPort(), true);
      }
      if (paths.contains("netty-relay")) {
        relay = RelayProcess.nettyRelay(backend.uri(true));
      }
      return new Relays(backend, brokers, nginx, relay);
    } catch (IOException | RuntimeException e) {
      new Relays(backend, brokers, nginx, relay).close();
      throw e;
    }
  }

  /** The echo's address by {@code path}. */
  URI uri(String path) {
    return switch (path) {
      case "direct" -> backend.uri(true);
      case "nginx" -> URI.create("http://127.0.0.1:" + nginx.port() + backend.uri(true).getPath());
      case "netty-relay" -> relay.uri("/echo");
      default -> {
        if (!brokers.containsKey(path)) {
          throw new IllegalArgumentException(path);
        }
        yield brokers.get(path).uri("/echo");
      }
    };
  }

  /** The relay's process (nginx's master, whose workers are its children), or null. */
  ProcessHandle process(String path) {
    return switch (path) {
      case "nginx" -> nginx.process();
      case "netty-relay" -> relay.process();
      default -> brokers.containsKey(path) ? brokers.get(path).process() : null;
    };
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      for (RelayProcess broker : brokers.values()) {
        broker.close();
      }
      if (nginx != null) {
        nginx.close();
      }
      if (relay != null) {
        relay.close();
      }
    } finally {
      backend.close();
    }
  }
}
