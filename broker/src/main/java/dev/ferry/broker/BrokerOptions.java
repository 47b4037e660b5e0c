package dev.ferry.broker;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Broker} treats its callers and holds their bytes: one immutable object, with safe
 * defaults (see {@code docs/limits.md}). The backends' timeout is the routing table's
 * ({@link Routes#timeout()}).
 *
 * <table>
 *   <caption>Settings and their defaults</caption>
 *   <tr><th>setting</th><th>default</th></tr>
 *   <tr><td>{@code holdBytes}</td><td>64 KiB</td></tr>
 *   <tr><td>{@code maxExchanges}</td><td>1,024</td></tr>
 *   <tr><td>{@code maxConnections}</td><td>10,000</td></tr>
 *   <tr><td>{@code requestTimeout}</td><td>30 s</td></tr>
 *   <tr><td>{@code idleTimeout}</td><td>120 s</td></tr>
 *   <tr><td>{@code ioThreads}</td><td>the processors</td></tr>
 *   <tr><td>{@code publicAddress}</td><td>none: the local address</td></tr>
 *   <tr><td>{@code drainDelay}</td><td>0 s</td></tr>
 *   <tr><td>{@code drainTimeout}</td><td>30 s</td></tr>
 * </table>
 */
public final class BrokerOptions {
  /** The defaults. */
  public static final BrokerOptions DEFAULTS = builder().build();

  private final int holdBytes;
  private final int maxExchanges;
  private final int maxConnections;
  private final Duration requestTimeout;
  private final Duration idleTimeout;
  private final int ioThreads;
  private final URI publicAddress;
  private final Duration drainDelay;
  private final Duration drainTimeout;

  private BrokerOptions(Builder b) {
    this.holdBytes = b.holdBytes;
    this.maxExchanges = b.maxExchanges;
    this.maxConnections = b.maxConnections;
    this.requestTimeout = b.requestTimeout;
    this.idleTimeout = b.idleTimeout;
    this.ioThreads = b.ioThreads;
    this.publicAddress = b.publicAddress;
    this.drainDelay = b.drainDelay;
    this.drainTimeout = b.drainTimeout;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A request up to this is held whole and sent on in one piece, whether it came with a
   * Content-Length or chunked (a chunked one is held until it ends or grows past this, then
   * streams with what was held first); a longer one streams. A reply up to this is held whole
   * before it goes back (with a Content-Length, and a fault if it breaks); a longer one streams.
   */
  public int holdBytes() {
    return holdBytes;
  }

  /**
   * Exchanges forwarded to backends at once; a request past it is answered at once with 503 and
   * a SOAP fault. A caller still sending its request does not count: it holds only its bytes.
   */
  public int maxExchanges() {
    return maxExchanges;
  }

  /** Caller connections open at once; one past it is closed as it is accepted. */
  public int maxConnections() {
    return maxConnections;
  }

  /**
   * A caller that sends no byte of its request (head or body) for this long is disconnected:
   * a stalled upload holds nothing a normal caller needs for longer.
   */
  public Duration requestTimeout() {
    return requestTimeout;
  }

  /** A kept-alive caller connection idle between requests for this long is closed. */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /** The event loops that move every byte (callers' and backends' connections alike). */
  public int ioThreads() {
    return ioThreads;
  }

  /**
   * The broker's address as its callers know it ({@code http://gateway.example}), put into the
   * WSDLs it serves; null for the address it listens on. Never taken from a request's Host.
   */
  public URI publicAddress() {
    return publicAddress;
  }

  /**
   * How long a closing broker ({@code close()}, and so SIGTERM for {@code ferry broker}) goes on
   * taking new connections and serving them after its readiness probe turned false, so that a
   * load balancer stops sending it calls before it stops listening.
   */
  public Duration drainDelay() {
    return drainDelay;
  }

  /**
   * How long, once it stopped listening, a closing broker lets the exchanges in flight finish
   * (streamed uploads and replies included); the connections of those still running then are
   * reset, so that no caller takes a reply cut short for a whole one.
   */
  public Duration drainTimeout() {
    return drainTimeout;
  }

  /** Configures {@link BrokerOptions}. */
  public static final class Builder {
    private int holdBytes = 64 * 1024;
    private int maxExchanges = 1024;
    private int maxConnections = 10_000;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration idleTimeout = Duration.ofSeconds(120);
    private int ioThreads = Runtime.getRuntime().availableProcessors();
    private URI publicAddress;
    private Duration drainDelay = Duration.ZERO;
    private Duration drainTimeout = Duration.ofSeconds(30);

    private Builder() {}

    public Builder drainDelay(Duration d) {
      this.drainDelay = notNegative("drainDelay", d);
      return this;
    }

    public Builder drainTimeout(Duration d) {
      this.drainTimeout = notNegative("drainTimeout", d);
      return this;
    }

    private static Duration notNegative(String name, Duration d) {
      if (d.isNegative()) {
        throw new IllegalArgumentException(name + " must not be negative: " + d);
      }
      return d;
    }

    public Builder holdBytes(int bytes) {
      this.holdBytes = positive("holdBytes", bytes);
      return this;
    }

    public Builder maxExchanges(int n) {
      this.maxExchanges = positive("maxExchanges", n);
      return this;
    }

    public Builder maxConnections(int n) {
      this.maxConnections = positive("maxConnections", n);
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

    public Builder ioThreads(int n) {
      this.ioThreads = positive("ioThreads", n);
      return this;
    }

    public Builder publicAddress(URI address) {
      this.publicAddress = address;
      return this;
    }

    private static int positive(String name, int v) {
      if (v < 1) {
        throw new IllegalArgumentException(name + " must be at least 1, got " + v);
      }
      return v;
    }

    public BrokerOptions build() {
      return new BrokerOptions(this);
    }
  }
}
