package dev.ferry.broker;

import dev.ferry.broker.internal.ExchangeTracing;
import dev.ferry.client.SoapClient;
import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.NettyTls;
import dev.ferry.client.internal.Transport;
import dev.ferry.logging.MessageLog;
import dev.ferry.security.Authenticator;
import dev.ferry.security.TlsSettings;
import dev.ferry.soap.SoapCodec;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerExpectContinueHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A copy-and-forward SOAP gateway on Netty: each request goes to the backend its {@link Routes}
 * name, with wsa:To rewritten and a {@code ferry:Trace} header added, attachments streamed
 * through in both directions as they arrive (see {@code Exchange}, the one path every request
 * takes), an optional audit copy, {@code GET ?wsdl} served from the backend with the broker's
 * address, {@code /health}, Kubernetes' probes ({@code /health/live}, {@code /health/ready}:
 * false while draining; {@code /health/started}) and {@code /metrics}. Callers' and backends'
 * connections share the event loops; no thread waits for a caller or a backend. {@link #close}
 * drains: see {@link BrokerOptions#drainDelay} and {@link BrokerOptions#drainTimeout}.
 *
 * <pre>{@code
 * try (Broker broker = Broker.builder().port(8080)
 *     .routes(Routes.load(Path.of("routes.yaml"))).build().start()) { ... }
 * }</pre>
 */
public final class Broker implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.ferry.broker");
  /**
   * How long a connection must have been idle and silent before a drain closes it: longer than
   * a caller takes between opening a connection (its TLS handshake included) and sending on it.
   */
  private static final long QUIET_BEFORE_CLOSE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
  private static final long IDLE_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  private final Builder config;
  private final Transport transport;
  private final AtomicReference<RouteSet> routeSet = new AtomicReference<>();
  private final SslContext tls;
  private final BrokerMetrics metrics;
  private final SoapClient auditClient;
  private final Audit audit;
  private final ExchangeTracing tracing;
  private final AtomicInteger connections = new AtomicInteger();
  private final ChannelGroup callers = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
  private final AtomicBoolean draining = new AtomicBoolean();
  private Channel listener;
  private BrokerContext context;

  private Broker(Builder b) {
    this.config = b;
    this.transport = Transport.start(b.options.ioThreads(), "ferry-broker");
    this.tls = b.tls == null ? null : NettyTls.server(b.tls);
    this.metrics = new BrokerMetrics(b.routes.routes(), b.meterRegistry);
    this.routeSet.set(new RouteSet(b.routes, b.name, transport, metrics));
    if (b.tls != null && b.tls.identity() != null) {
      metrics.registry().gauge("ferry.tls.certificate.expiry.seconds", b.tls,
          TlsSettings::certificateSecondsLeft);
    }
    this.auditClient = SoapClient.builder().codec(b.codec).timeout(b.routes.timeout()).build();
    this.audit = new Audit(auditClient);
    this.tracing = ExchangeTracing.of(b.openTelemetry);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Starts listening; returns this. */
  public Broker start() throws IOException {
    ServerBootstrap b = new ServerBootstrap().group(transport.group())
        .channel(transport.serverChannel())
        .option(ChannelOption.SO_BACKLOG, 1024)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_SNDBUF, HttpConnections.SEND_BUFFER_BYTES)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
            new WriteBufferWaterMark(64 * 1024, 256 * 1024))
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            accept(ch);
          }
        });
    try {
      listener = b.bind(config.host, config.port).sync().channel();
    } catch (Exception e) {
      close();
      throw new IOException("cannot listen on " + config.host + ":" + config.port + ": "
          + e.getMessage(), e);
    }
    InetSocketAddress at = (InetSocketAddress) listener.localAddress();
    context = new BrokerContext(config.codec, routeSet, config.options, metrics, audit,
        new AtomicInteger(), (tls == null ? "http" : "https") + "://" + hostForUrl(config.host)
        + ":" + at.getPort(), draining, tracing, config.messageLog);
    return this;
  }

  /** Sets up a caller's connection, or closes it past {@link BrokerOptions#maxConnections}. */
  private void accept(Channel ch) {
    if (connections.incrementAndGet() > config.options.maxConnections()) {
      connections.decrementAndGet();
      ch.close();
      return;
    }
    ch.closeFuture().addListener(f -> connections.decrementAndGet());
    callers.add(ch); // and out of it as it closes
    CallerHandler.RawReads raw = new CallerHandler.RawReads();
    if (tls != null) {
      ch.pipeline().addLast(tls.newHandler(ch.alloc()));
    }
    ch.pipeline().addLast(raw,
        new IdleStateHandler(config.options.requestTimeout().toMillis(), 0, 0,
            TimeUnit.MILLISECONDS),
        new HttpServerCodec(new HttpDecoderConfig().setMaxInitialLineLength(8192)
            .setMaxHeaderSize(16 * 1024).setMaxChunkSize(64 * 1024)),
        new HttpServerExpectContinueHandler());
    if (config.authenticator != null) {
      ch.pipeline().addLast(new CallerAuth(config.authenticator));
    }
    ch.pipeline().addLast(new CallerHandler(context, raw));
  }

  private static String hostForUrl(String host) {
    return host.contains(":") ? "[" + host + "]" : host;
  }

  public int port() {
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** Returns the URL of {@code path} on this broker. */
  public URI uri(String path) {
    return URI.create(context.localAddress() + path);
  }

  /** The broker's meters (to add a binder, or read them in a test). */
  public PrometheusMeterRegistry registry() {
    return metrics.registry();
  }

  /** Returns every meter in the Prometheus text format, as {@code /metrics} serves it. */
  public String scrape() {
    return metrics.scrape();
  }

  /** Exchanges being forwarded now. */
  public long inFlight() {
    return metrics.inFlight();
  }

  /**
   * Swaps in {@code routes} at once: exchanges starting from now on take them; those in flight
   * finish on the routes they started with, whose connections and health checks close as the
   * last of them ends. Members' health starts afresh (a reloaded group's members are available
   * until they fail). Metrics of the new routes are registered; those of routes gone stay.
   */
  public synchronized void reload(Routes routes) {
    if (draining.get()) {
      throw new IllegalStateException("the broker is closing: routes are not reloaded");
    }
    RouteSet next = new RouteSet(Objects.requireNonNull(routes), config.name, transport, metrics);
    routeSet.getAndSet(next).retire();
    metrics.reloaded(true);
  }

  /**
   * Reads {@code file} again and swaps its routes in ({@link #reload(Routes)}); a file that
   * cannot be read or is not a valid table changes nothing: the reason (with its line, for a
   * table that is wrong) is logged, counted in {@code ferry.broker.route.reloads{result=failed}},
   * and returned. So is a reload asked of a closing broker.
   *
   * @return null if the routes were swapped in, else why not
   */
  public String reload(Path file) {
    Routes routes;
    try {
      routes = Routes.load(file);
      reload(routes);
    } catch (IOException | IllegalArgumentException | IllegalStateException e) {
      String why = e instanceof IOException ? file + ": cannot be read: " + e : e.getMessage();
      metrics.reloaded(false);
      LOG.log(System.Logger.Level.WARNING, "routes not reloaded, the "
          + routeSet.get().routes().routes().size() + " in use stay: " + why);
      return why;
    }
    LOG.log(System.Logger.Level.INFO, "routes reloaded from " + file + ": "
        + routes.routes().size() + " routes");
    return null;
  }

  /** The route set exchanges starting now take. */
  RouteSet routeSet() {
    return routeSet.get();
  }

  /** Whether the broker is draining (closing). */
  public boolean draining() {
    return draining.get();
  }

  /**
   * Stops gracefully, then waits for audit copies in flight: the readiness probe fails at once;
   * new connections are still served for {@link BrokerOptions#drainDelay} (every reply then
   * closes its connection, so callers move to another broker); then the listener closes, idle
   * connections close, and exchanges in flight, uploads included, may finish for
   * {@link BrokerOptions#drainTimeout}. The connections of those still running then are reset:
   * their callers never see a clean short reply.
   */
  @Override
  public void close() {
    try {
      if (listener != null) {
        drain(config.options.drainDelay(), config.options.drainTimeout());
      }
      routeSet.get().close(); // older ones closed as their exchanges ended, or were reset
      transport.close();
    } finally {
      audit.close();
      auditClient.close();
    }
  }

  private void drain(Duration delay, Duration timeout) {
    draining.set(true);
    // idle connections stay open for the delay: a balancer that does not follow readiness
    // (nginx) still sends calls on them, and one closed as a call is sent on it is lost (a
    // POST is not sent again); each is retired by the Connection: close of its next answer
    pause(delay.toNanos());
    listener.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!callers.isEmpty() && deadline - System.nanoTime() > 0) {
      // each busy connection closes as its exchange is answered; an idle one once it has been
      // quiet for a moment, so that one accepted just before the listener closed is not
      // closed under the request its caller is sending
      closeIdleCallers(QUIET_BEFORE_CLOSE_NANOS);
      if (!pause(IDLE_CHECK_NANOS)) {
        break;
      }
    }
    for (Channel ch : callers) {
      ch.config().setOption(ChannelOption.SO_LINGER, 0); // a reset, not a clean end
    }
    callers.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
  }

  private void closeIdleCallers(long quietNanos) {
    for (Channel ch : callers) { // on its event loop: the handler's state is the loop's
      ch.eventLoop().execute(() -> {
        CallerHandler caller = ch.pipeline().get(CallerHandler.class);
        if (caller != null) { // null: closed meanwhile
          caller.closeIfIdle(quietNanos);
        }
      });
    }
  }

  /** Sleeps; false if interrupted (asked to hurry), the interrupt kept. */
  private static boolean pause(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Configures a {@link Broker}. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port;
    private Routes routes;
    private SoapCodec codec = SoapCodec.create();
    private BrokerOptions options = BrokerOptions.DEFAULTS;
    private String name = "ferry-broker";
    private TlsSettings tls;
    private Authenticator authenticator;
    private io.micrometer.core.instrument.MeterRegistry meterRegistry;
    private OpenTelemetry openTelemetry;
    private MessageLog messageLog;

    private Builder() {}

    /**
     * Logs each SOAP request as the caller sent it and the answer the broker sends back (the
     * member's reply, or the broker's own fault), masked and capped as {@code log} says, held
     * and streamed alike; attachments are listed by Content-ID, type and size, counted as they
     * pass, never held for the log. Null (the default): messages are not logged.
     */
    public Builder messageLog(MessageLog log) {
      this.messageLog = log;
      return this;
    }

    /**
     * Where the broker's spans go: a server span per exchange, a child of the context the
     * caller sent ({@code traceparent}, {@code tracestate}, {@code baggage}), and a client span
     * per member tried as its child, whose context goes to the member (see
     * {@code dev.ferry.tracing.SoapAttributes}). Null (the default): {@code GlobalOpenTelemetry}
     * as an SDK or the Java agent registered it before {@link #build}. An OpenTelemetry that
     * traces nothing (the API's no-op) makes the broker do no trace work at all: the caller's
     * trace headers then go to the member as they came.
     */
    public Builder openTelemetry(OpenTelemetry otel) {
      this.openTelemetry = otel;
      return this;
    }

    /**
     * Registers every meter ({@code ferry.broker.*}) in {@code registry} too, such as Spring
     * Boot's, as well as in the Prometheus registry {@code /metrics} serves.
     */
    public Builder meterRegistry(io.micrometer.core.instrument.MeterRegistry registry) {
      this.meterRegistry = Objects.requireNonNull(registry);
      return this;
    }

    /**
     * Listens with TLS (1.3 and 1.2): the broker's key and chain, and whether and against what
     * client certificates are checked; files are read again when they change. Null (the
     * default): plain HTTP.
     */
    public Builder tls(TlsSettings tls) {
      this.tls = tls;
      return this;
    }

    /**
     * Who may call: requests of callers it does not authenticate are answered 401 (403 where
     * only certificates count) and never forwarded; a route may then require some of them
     * ({@link RoutePolicy}). {@code /health} and {@code /metrics} answer everyone. Null (the
     * default): everyone, unauthenticated.
     */
    public Builder authenticator(Authenticator authenticator) {
      this.authenticator = authenticator;
      return this;
    }

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

    /** The codec (limits) callers' requests are read with. */
    public Builder codec(SoapCodec codec) {
      this.codec = Objects.requireNonNull(codec);
      return this;
    }

    /** How callers are treated and bytes held (see {@link BrokerOptions}). */
    public Builder options(BrokerOptions options) {
      this.options = Objects.requireNonNull(options);
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
