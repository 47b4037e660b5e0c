package dev.ferry.bench.http;

import dev.ferry.interop.CxfPeer;
import java.io.IOException;
import java.net.URI;

/**
 * The paths a call to the CXF echo service can take, side by side in one run: {@code direct},
 * through {@code ferry broker} ({@link RelayProcess}), through {@code nginx} ({@link Nginx},
 * {@code proxy_pass} with a kept-alive upstream and request bodies in memory), or through
 * {@code netty-relay} ({@link NettyRelay}, the broker's transport with no SOAP work: the floor
 * under the broker). The backend is not Ferry: CXF 4's JAX-WS echo (MTOM enabled), in the
 * benchmark's JVM.
 */
final class Relays implements AutoCloseable {
  static final String[] PATHS = {"direct", "ferry-broker", "nginx", "netty-relay"};

  private final CxfPeer.EchoServer backend;
  private final RelayProcess broker;
  private final Nginx nginx;
  private final RelayProcess relay;

  private Relays(CxfPeer.EchoServer backend, RelayProcess broker, Nginx nginx,
      RelayProcess relay) {
    this.backend = backend;
    this.broker = broker;
    this.nginx = nginx;
    this.relay = relay;
  }

  /** Starts the backend and the relay {@code path} names (all of them for null). */
  static Relays start(String path) throws IOException, InterruptedException {
    CxfPeer.EchoServer backend = new CxfPeer.EchoServer();
    RelayProcess broker = null;
    Nginx nginx = null;
    RelayProcess relay = null;
    try {
      if (path == null || path.equals("ferry-broker")) {
        broker = RelayProcess.broker(backend.uri(true));
      }
      if (path == null || path.equals("nginx")) {
        nginx = Nginx.start(backend.uri(true).getPort(), true);
      }
      if (path == null || path.equals("netty-relay")) {
        relay = RelayProcess.nettyRelay(backend.uri(true));
      }
      return new Relays(backend, broker, nginx, relay);
    } catch (IOException | RuntimeException e) {
      new Relays(backend, broker, nginx, relay).close();
      throw e;
    }
  }

  /** The echo's address by {@code path}. */
  URI uri(String path) {
    return switch (path) {
      case "direct" -> backend.uri(true);
      case "ferry-broker" -> broker.uri("/echo");
      case "nginx" -> URI.create("http://127.0.0.1:" + nginx.port() + backend.uri(true).getPath());
      case "netty-relay" -> relay.uri("/echo");
      default -> throw new IllegalArgumentException(path);
    };
  }

  /** The relay's process (nginx's master, whose workers are its children), or null. */
  ProcessHandle process(String path) {
    return switch (path) {
      case "ferry-broker" -> broker.process();
      case "nginx" -> nginx.process();
      case "netty-relay" -> relay.process();
      default -> null;
    };
  }

  @Override
  public void close() throws IOException, InterruptedException {
    try {
      if (broker != null) {
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
