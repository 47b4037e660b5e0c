package dev.ferry.server;

import dev.ferry.logging.MessageLog;
import dev.ferry.security.Authenticator;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link SoapServer} treats its callers: one immutable object with safe defaults (see
 * {@code docs/limits.md}).
 *
 * <table>
 *   <caption>Settings and their defaults</caption>
 *   <tr><th>setting</th><th>default</th></tr>
 *   <tr><td>{@code maxRequests}</td><td>1,024</td></tr>
 *   <tr><td>{@code requestTimeout}</td><td>30 s</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>120 s</td></tr>
 *   <tr><td>{@code publicAddress}</td><td>none: the local address</td></tr>
 *   <tr><td>{@code authenticator}</td><td>none: every caller is served</td></tr>
 *   <tr><td>{@code drainDelay}</td><td>0 s</td></tr>
 *   <tr><td>{@code drainTimeout}</td><td>30 s</td></tr>
 *   <tr><td>{@code messageLog}</td><td>none: messages are not logged</td></tr>
 *   <tr><td>{@code openTelemetry}</td><td>the global one, if an SDK or the Java agent
 *       registered one before the endpoints were made; else none</td></tr>
 * </table>
 */
public final class ServerOptions {
  /** The defaults. */
  public static final ServerOptions DEFAULTS = builder().build();

  private final int maxRequests;
  private final Duration requestTimeout;
  private final Duration idleTimeout;
  private final URI publicAddress;
  private final Authenticator authenticator;
  private final OpenTelemetry openTelemetry;
  private final Duration drainDelay;
  private final Duration drainTimeout;
  private final MessageLog messageLog;

  private ServerOptions(Builder b) {
    this.maxRequests = b.maxRequests;
    this.requestTimeout = b.requestTimeout;
    this.idleTimeout = b.idleTimeout;
    this.publicAddress = b.publicAddress;
    this.authenticator = b.authenticator;
    this.openTelemetry = b.openTelemetry;
    this.drainDelay = b.drainDelay;
    this.drainTimeout = b.drainTimeout;
    this.messageLog = b.messageLog;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * SOAP requests served at once; one past it is answered at once with 503 and a SOAP fault
   * ({@code /health} and {@code /metrics} always answer).
   */
  public int maxRequests() {
    return maxRequests;
  }

  /**
   * A request whose body sends no byte for this long, while the server waits for it, fails
   * and its connection closes: a stalled upload holds its slot no longer.
   */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** A kept-alive connection idle between requests for this long is closed. */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /**
   * The server's address as its callers know it ({@code https://soap.example}), put into the
   * WSDLs it serves; null for the address the request came in on. Never a request's Host.
   */
  public URI publicAddress() {
    return publicAddress;
  }

  /**
   * Who may call the SOAP endpoints (and read their WSDLs): callers it does not authenticate
   * get 401 with its challenge (403 where only certificates are taken) and never reach an
   * endpoint, which sees the caller as the request's user principal. Null: everyone.
   * {@code /health} and {@code /metrics} answer everyone.
   */
  public Authenticator authenticator() {
    return authenticator;
  }

  /**
   * Where the server's spans go (a span per request, its parent the context the caller sent in
   * {@code traceparent}; see {@code dev.ferry.tracing.SoapAttributes}); null for
   * {@code GlobalOpenTelemetry} as registered when an endpoint is added.
   */
  public OpenTelemetry openTelemetry() {
    return openTelemetry;
  }

  /**
   * How long a closing server ({@code close()}, and so SIGTERM for {@code ferry serve}) goes on
   * taking new connections and serving them after its readiness probe turned false, so that a
   * load balancer stops sending it calls before it stops listening.
   */
  public Duration drainDelay() {
    return drainDelay;
  }

  /**
   * How long, once it stopped listening, a closing server lets the requests in flight finish
   * (streamed uploads included); what still runs then is cut, its connection closed.
   */
  public Duration drainTimeout() {
    return drainTimeout;
  }

  /**
   * Where each request and reply is logged for support (envelope and headers, masked and
   * capped; attachments named, never read), or null (the default): not logged.
   */
  public MessageLog messageLog() {
    return messageLog;
  }

  /** Configures {@link ServerOptions}. */
  public static final class Builder {
    private int maxRequests = 1024;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration idleTimeout = Duration.ofSeconds(120);
    private URI publicAddress;
    private Authenticator authenticator;
    private OpenTelemetry openTelemetry;
    private Duration drainDelay = Duration.ZERO;
    private Duration drainTimeout = Duration.ofSeconds(30);
    private MessageLog messageLog;

    private Builder() {}

    /** Logs each request and reply through {@code log} (null: none are logged). */
    public Builder messageLog(MessageLog log) {
      this.messageLog = log;
      return this;
    }

    public Builder drainDelay(Duration d) {
      if (d.isNegative()) {
        throw new IllegalArgumentException("drainDelay must not be negative: " + d);
      }
      this.drainDelay = d;
      return this;
    }

    public Builder drainTimeout(Duration d) {
      if (d.isNegative()) {
        throw new IllegalArgumentException("drainTimeout must not be negative: " + d);
      }
      this.drainTimeout = d;
      return this;
    }

    /** Traces through {@code otel} (null: the global one). */
    public Builder openTelemetry(OpenTelemetry otel) {
      this.openTelemetry = otel;
      return this;
    }

    public Builder authenticator(Authenticator authenticator) {
      this.authenticator = authenticator;
      return this;
    }

    public Builder maxRequests(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("maxRequests must be at least 1, got " + n);
      }
      this.maxRequests = n;
      return this;
    }

    public Builder requestTimeout(Duration d) {
      this.requestTimeout = Objects.requireNonNull(d);
      return this;
    }

    public Builder idleTimeout(Duration d) {
      this.idleTimeout = Objects.requireNonNull(d);
      return this;
    }

    public Builder publicAddress(URI address) {
      this.publicAddress = address;
      return this;
    }

    public ServerOptions build() {
      return new ServerOptions(this);
    }
  }
}
