package dev.ferry.spring.boot.broker.internal;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The broker under the application's lifecycle: it listens once the context has started
 * (publishing {@code local.ferry.broker.port}), and on shutdown waits, up to the drain
 * timeout, for the exchanges in flight before it closes.
 */
public final class ManagedBroker implements SmartLifecycle {
  private final Broker broker;
  private final Routes routes;
  private final Duration drainTimeout;
  private final ConfigurableEnvironment environment;
  private volatile boolean running;
  private boolean closed;
  private volatile boolean draining;

  public ManagedBroker(Broker broker, Routes routes, Duration drainTimeout,
      ConfigurableEnvironment environment) {
    this.broker = broker;
    this.routes = routes;
    this.drainTimeout = drainTimeout;
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

  @Override
  public void stop() {
    draining = true;
    drain();
    close();
  }

  /** True from the start of shutdown until the broker is closed. */
  public boolean draining() {
    return draining && running;
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

  /** Waits until no exchange is in flight, or the drain timeout has passed. */
  private void drain() {
    long deadline = System.nanoTime() + drainTimeout.toNanos();
    while (broker.inFlight() > 0 && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Closes the broker: its listener, connections and threads. Called again, does nothing. */
  public synchronized void close() {
    running = false;
    if (!closed) {
      closed = true;
      broker.close();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
