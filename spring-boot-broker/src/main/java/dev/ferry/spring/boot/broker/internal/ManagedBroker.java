package dev.ferry.spring.boot.broker.internal;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.Map;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The broker under the application's lifecycle: it listens once the context has started
 * (publishing {@code local.ferry.broker.port}), and on shutdown drains as
 * {@link Broker#close()} does, beside Boot's own graceful shutdown of its web server: its
 * readiness turns false at once, new connections are taken for its drain delay, then its
 * listener closes and the exchanges in flight may finish for its drain timeout. The drain runs
 * on a thread of its own, so the context's other beans stop meanwhile; Boot waits for it up to
 * {@code spring.lifecycle.timeout-per-shutdown-phase}.
 */
public final class ManagedBroker implements SmartLifecycle {
  private final Broker broker;
  private final Routes routes;
  private final ConfigurableEnvironment environment;
  private volatile boolean running;
  private boolean closed;

  public ManagedBroker(Broker broker, Routes routes, ConfigurableEnvironment environment) {
    this.broker = broker;
    this.routes = routes;
    this.environment = environment;
  }

  /** The broker (its port, meters, exchanges in flight). */
  public Broker broker() {
    return broker;
  }

  /** The routing table it forwards by. */
  public Routes routes() {
    return routes;
  }

  /** The URL of {@code path} on the broker. */
  public URI uri(String path) {
    return broker.uri(path);
  }

  @Override
  public void start() {
    try {
      broker.start();
    } catch (IOException e) {
      throw new UncheckedIOException("the broker (ferry.broker.*) cannot start: "
          + e.getMessage(), e);
    }
    environment.getPropertySources().addFirst(new MapPropertySource("ferryBroker",
        Map.of("local.ferry.broker.port", broker.port())));
    running = true;
  }

  /** Drains the broker and closes it. */
  @Override
  public void stop() {
    close();
  }

  /** True from the start of shutdown until the broker is closed. */
  public boolean draining() {
    return running && broker.draining();
  }

  @Override
  public void stop(Runnable callback) {
    Thread.ofVirtual().name("ferry-broker-drain").start(() -> {
      try {
        stop();
      } finally {
        callback.run();
      }
    });
  }

  /**
   * Drains and closes the broker: its listener, connections and threads. Called again, does
   * nothing.
   */
  public synchronized void close() {
    try {
      if (!closed) {
        closed = true;
        broker.close();
      }
    } finally {
      running = false;
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
