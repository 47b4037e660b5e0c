package dev.ferry.spring.boot.jaxws.internal;

import dev.ferry.security.TlsSettings;
import dev.ferry.server.Metrics;
import dev.ferry.server.ServerOptions;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.springframework.context.SmartLifecycle;

/**
 * Serves the endpoints on Ferry's own server (Jetty) where the application has no servlet
 * container: started with the application context's lifecycle, stopped with it (requests in
 * flight get up to two seconds to finish), before Spring destroys the endpoints' beans.
 */
public final class OwnServer implements SmartLifecycle {
  private static final System.Logger LOG = System.getLogger("dev.ferry.spring.boot.jaxws");

  /** Where and how to listen. */
  public record Listener(String host, int port, TlsSettings tls) {}

  private final EndpointBeans beans;
  private final ServedEndpoints served;
  private final SoapCodec codec;
  private final Metrics metrics;
  private final ServerOptions options;
  private final Listener listener;
  private volatile SoapServer server;
  private volatile boolean running;

  public OwnServer(EndpointBeans beans, ServedEndpoints served, SoapCodec codec,
      Metrics metrics, ServerOptions options, Listener listener) {
    this.beans = beans;
    this.served = served;
    this.codec = codec;
    this.metrics = metrics;
    this.options = options;
    this.listener = listener;
  }

  @Override
  public synchronized void start() {
    List<EndpointBeans.Hosted> hosted = beans.host("");
    running = true;
    if (hosted.isEmpty()) {
      served.started(hosted, null);
      return; // no endpoint: no listener either
    }
    SoapServer.Builder b = SoapServer.builder().host(listener.host()).port(listener.port())
        .codec(codec).metrics(metrics).options(options).tls(listener.tls());
    hosted.forEach(h -> b.endpoint(h.path(), h.dispatcher()));
    try {
      server = b.build().start();
    } catch (IOException e) {
      hosted.forEach(h -> h.endpoint().stop());
      running = false;
      throw new UncheckedIOException("Ferry's server cannot listen on " + listener.host() + ":"
          + listener.port() + " (ferry.jaxws.server.host, ferry.jaxws.server.port): "
          + e.getMessage(), e);
    }
    served.started(hosted, server);
    for (EndpointBeans.Hosted h : hosted) {
      LOG.log(System.Logger.Level.INFO, "JAX-WS endpoint {0} ({1}) at {2}", h.bean(),
          h.implementation().getName(), server.uri(h.path()));
    }
  }

  @Override
  public synchronized void stop() {
    SoapServer s = server;
    server = null;
    running = false;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        LOG.log(System.Logger.Level.WARNING, "Ferry's server did not close cleanly", e);
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Whether the endpoints are served: there are none, or the server listens. */
  boolean serving() {
    return running && (server != null || served.hosted().isEmpty());
  }
}
