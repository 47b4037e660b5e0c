package dev.ferry.jaxws;

import dev.ferry.security.TlsSettings;
import dev.ferry.server.Metrics;
import dev.ferry.server.ServerOptions;
import jakarta.xml.ws.WebServiceFeature;
import java.util.Objects;

/**
 * The server a JAX-WS endpoint is published on: the TLS of its listener, how it treats callers
 * ({@link ServerOptions}: limits, timeouts, the authenticator of HTTP Basic and client
 * certificates, the public address), and the metrics it keeps. Given as the standard API takes
 * features:
 *
 * <pre>{@code
 * ServerFeature server = ServerFeature.builder()
 *     .tls(TlsSettings.builder().identity(KeyMaterial.pem(chain, key)).build())
 *     .options(ServerOptions.builder()
 *         .authenticator(Authenticator.basic(PasswordFile.load(users)))
 *         .maxRequests(256).build())
 *     .build();
 * Endpoint.publish("https://0.0.0.0:8443/orders", new OrdersImpl(), server);
 * }</pre>
 *
 * <p>Endpoints published on one host and port share one server, started by the first: every
 * other endpoint there must give the same feature (the same object) or, if the first gave
 * none, none; another is refused at publish, naming the address. Without TLS settings an
 * {@code https} address takes the key and trust the JDK's default {@code SSLContext} is
 * configured with: the system properties {@code javax.net.ssl.keyStore},
 * {@code javax.net.ssl.keyStorePassword} and {@code javax.net.ssl.trustStore}. The server
 * answers {@code /health} and {@code /metrics} (Prometheus) beside the endpoints and writes one
 * access log line per request (logger {@code dev.ferry.access}, INFO).
 *
 * <p>With {@code Endpoint.publish(HttpContext)} the container owns the listener: the options and
 * metrics apply, TLS settings are refused (give them to the container).
 */
public final class ServerFeature extends WebServiceFeature {
  /** The feature's ID. */
  public static final String ID = "dev.ferry.jaxws.ServerFeature";

  private final TlsSettings tls;
  private final ServerOptions options;
  private final Metrics metrics;

  private ServerFeature(Builder b) {
    this.tls = b.tls;
    this.options = b.options;
    this.metrics = b.metrics;
    this.enabled = true;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The listener's TLS, or null: plain HTTP, or for https the JDK's configuration. */
  public TlsSettings tls() {
    return tls;
  }

  /** How the server treats callers. */
  public ServerOptions options() {
    return options;
  }

  /** The metrics the server keeps (served at {@code /metrics}), or null for its own. */
  public Metrics metrics() {
    return metrics;
  }

  @Override
  public String getID() {
    return ID;
  }

  @Override
  public String toString() {
    return "ServerFeature[tls=" + tls + "]";
  }

  /** Configures a {@link ServerFeature}. */
  public static final class Builder {
    private TlsSettings tls;
    private ServerOptions options = ServerOptions.DEFAULTS;
    private Metrics metrics;

    private Builder() {}

    /** The listener's TLS (an {@code https} address needs it, or the JDK's properties). */
    public Builder tls(TlsSettings tls) {
      this.tls = tls;
      return this;
    }

    /** Limits, timeouts, the authenticator and the public address (default: the defaults). */
    public Builder options(ServerOptions options) {
      this.options = Objects.requireNonNull(options);
      return this;
    }

    /** The metrics to keep the server's meters in (default: a registry of its own). */
    public Builder metrics(Metrics metrics) {
      this.metrics = metrics;
      return this;
    }

    public ServerFeature build() {
      return new ServerFeature(this);
    }
  }
}
