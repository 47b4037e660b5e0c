package dev.ferry.broker;

import dev.ferry.client.SoapClient;
import dev.ferry.server.Metrics;
import dev.ferry.server.internal.JettyHost;
import dev.ferry.soap.SoapCodec;
import jakarta.servlet.http.HttpServlet;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;

/**
 * A copy-and-forward SOAP gateway: Jetty 12 on virtual threads, forwarding each request to the
 * backend its {@link Routes} name, with wsa:To rewritten and a {@code ferry:Trace} header added,
 * attachments streamed through as they arrive in both directions (see {@code BrokerServlet}),
 * small requests taken without a thread waiting on them (see {@code BrokerFastPath}),
 * an optional audit copy, and {@code /health} and {@code /metrics}.
 *
 * <pre>{@code
 * try (Broker broker = Broker.builder().port(8080)
 *     .routes(Routes.load(Path.of("routes.yaml"))).build().start()) { ... }
 * }</pre>
 */
public final class Broker implements AutoCloseable {
  private final JettyHost host;
  private final SoapClient client;
  private final BackendClient backend;
  private final Audit audit;
  private final Metrics metrics;
  private final BrokerFastPath fastPath;

  private Broker(Builder b) {
    this.metrics = b.metrics != null ? b.metrics : Metrics.create("ferry.broker");
    this.client = SoapClient.builder().codec(b.codec).timeout(b.routes.timeout())
        .connectTimeout(b.routes.timeout()).bufferBytes(64 * 1024).build();
    this.backend = new BackendClient(b.routes.timeout(), b.routes.timeout(), 64 * 1024);
    this.audit = new Audit(client);
    Forwarding forwarding = new Forwarding(b.routes, b.name);
    HttpServlet servlet = new BrokerServlet(b.codec, backend, forwarding, metrics, audit);
    this.fastPath = new BrokerFastPath(b.codec, backend, forwarding, audit, metrics);
    this.host = new JettyHost(b.host, b.port, Map.of("/*", servlet), metrics::scrape, fastPath);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts listening; returns this. */
  public Broker start() throws IOException {
    host.start();
    return this;
  }

  public int port() {
    return host.port();
  }

  /** Returns the URL of {@code path} on this broker. */
  public URI uri(String path) {
    return host.uri(path);
  }

  public Metrics metrics() {
    return metrics;
  }

  /** How many exchanges went by the fast path for small requests. */
  long fastPathExchanges() {
    return fastPath.exchanges();
  }

  @Override
  public void close() throws IOException {
    try {
      host.close();
    } finally {
      audit.close();
      backend.close();
      client.close();
    }
  }

  /** Configures a {@link Broker}. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port;
    private Routes routes;
    private SoapCodec codec = SoapCodec.create();
    private Metrics metrics;
    private String name = "ferry-broker";

    private Builder() {}

    /** The address to bind: loopback by default. */
    public Builder host(String host) {
      this.host = Objects.requireNonNull(host);
      return this;
    }

    /** The port; 0 (the default) picks a free one. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public Builder routes(Routes routes) {
      this.routes = Objects.requireNonNull(routes);
      return this;
    }

    /** The codec (limits) callers' requests and backends' replies are read with. */
    public Builder codec(SoapCodec codec) {
      this.codec = Objects.requireNonNull(codec);
      return this;
    }

    public Builder metrics(Metrics metrics) {
      this.metrics = metrics;
      return this;
    }

    /** The name written into the trace header (default {@code ferry-broker}). */
    public Builder name(String name) {
      this.name = Objects.requireNonNull(name);
      return this;
    }

    public Broker build() {
      if (routes == null) {
        throw new IllegalStateException("a broker needs routes");
      }
      return new Broker(this);
    }
  }
}
