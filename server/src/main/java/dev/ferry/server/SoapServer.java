package dev.ferry.server;

import dev.ferry.security.TlsSettings;
import dev.ferry.server.internal.JettyHost;
import dev.ferry.soap.SoapCodec;
import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An embedded SOAP server: Jetty 12 on virtual threads, one {@link SoapServlet} per endpoint
 * path, {@code /health}, Kubernetes' probes ({@code /health/live}, {@code /health/ready}: started,
 * an endpoint to serve and not draining; {@code /health/started}) and {@code /metrics}
 * (Prometheus). Binds to loopback unless told otherwise. {@link #close} drains: see
 * {@link ServerOptions#drainDelay} and {@link ServerOptions#drainTimeout}.
 *
 * <pre>{@code
 * try (SoapServer server = SoapServer.builder().port(8080)
 *     .endpoint("/echo", EchoService.dispatcher()).build().start()) {
 *   System.out.println(server.uri("/echo"));
 *   ...
 * }
 * }</pre>
 */
public final class SoapServer implements AutoCloseable {
  private final JettyHost host;
  private final Metrics metrics;
  private final SoapCodec codec;
  private final ServerOptions options;

  private SoapServer(Builder b) {
    this.metrics = b.metrics != null ? b.metrics : Metrics.create("ferry.server");
    this.codec = b.codec;
    this.options = b.options;
    Map<String, HttpServlet> servlets = new LinkedHashMap<>();
    b.endpoints.forEach((path, dispatcher) ->
        servlets.put(path, new SoapServlet(b.codec, dispatcher, metrics, b.options)));
    this.host = new JettyHost(b.host, b.port, servlets, metrics::scrape, b.options, b.tls);
    metrics.certificate(b.tls);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts listening; returns this. */
  public SoapServer start() throws IOException {
    host.start();
    return this;
  }

  /**
   * Serves {@code dispatcher}'s endpoints at {@code path} from now on, while running too: for a
   * runtime that publishes endpoints one by one on a shared port (JAX-WS's
   * {@code Endpoint.publish}). A path already served is replaced.
   */
  public void addEndpoint(String path, Dispatcher dispatcher) {
    addEndpoint(path, codec, dispatcher);
  }

  /** As {@link #addEndpoint(String, Dispatcher)}, reading requests with {@code codec}. */
  public void addEndpoint(String path, SoapCodec codec, Dispatcher dispatcher) {
    Objects.requireNonNull(dispatcher);
    Objects.requireNonNull(codec);
    if (JettyHost.OWN_PATHS.contains(path)) {
      throw new IllegalArgumentException(path + " is the server's own");
    }
    host.removeServlet(path);
    host.addServlet(path, new SoapServlet(codec, dispatcher, metrics, options));
  }

  /** Stops serving {@code path} (later requests to it get 404); returns false if none was. */
  public boolean removeEndpoint(String path) {
    return !JettyHost.OWN_PATHS.contains(path) && host.removeServlet(path);
  }

  public int port() {
    return host.port();
  }

  /** Request bodies' bytes gathered now before their endpoints run (for tests). */
  long gatheredBodyBytes() {
    return host.gatheredBodyBytes();
  }

  /** Returns the URL of {@code path} on this server. */
  public URI uri(String path) {
    return host.uri(path);
  }

  public Metrics metrics() {
    return metrics;
  }

  /** Whether the server is draining (closing). */
  public boolean draining() {
    return host.probes().isDraining();
  }

  /**
   * Stops gracefully: the readiness probe fails at once; new connections are still served for
   * {@link ServerOptions#drainDelay}; then the listener closes, requests arriving on open
   * connections get 503, and those in flight, uploads included, may finish for
   * {@link ServerOptions#drainTimeout}. What still runs then is cut (its connection closed, so
   * its caller never sees a clean short reply).
   */
  @Override
  public void close() throws IOException {
    host.drain(options.drainDelay(), options.drainTimeout());
  }

  /** Configures a {@link SoapServer}. */
  public static final class Builder {
    private final Map<String, Dispatcher> endpoints = new LinkedHashMap<>();
    private String host = "127.0.0.1";
    private int port;
    private SoapCodec codec = SoapCodec.create();
    private Metrics metrics;
    private ServerOptions options = ServerOptions.DEFAULTS;
    private TlsSettings tls;

    private Builder() {}

    /**
     * Listens with TLS (1.3 and 1.2): the server's key and chain, and whether and against what
     * client certificates are checked. Files are read again when they change (see
     * {@link TlsSettings}). Null (the default): plain HTTP.
     */
    public Builder tls(TlsSettings tls) {
      this.tls = tls;
      return this;
    }

    /** How callers are treated (see {@link ServerOptions}). */
    public Builder options(ServerOptions options) {
      this.options = Objects.requireNonNull(options);
      return this;
    }

    /** The address to bind: loopback by default; {@code 0.0.0.0} for every interface. */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host);
      return this;
    }

    /** The port; 0 (the default) picks a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** The codec (limits, leniency) requests are read with. */
    public Builder codec(SoapCodec codec) {
      this.codec = Objects.requireNonNull(codec);
      return this;
    }

    /** Serves {@code dispatcher}'s endpoints at {@code path} (exact, such as {@code /echo}). */
    public Builder endpoint(String path, Dispatcher dispatcher) {
      endpoints.put(path, Objects.requireNonNull(dispatcher));
      return this;
    }

    public Builder metrics(Metrics metrics) {
      this.metrics = metrics;
      return this;
    }

    public SoapServer build() {
      return new SoapServer(this);
    }
  }
}
