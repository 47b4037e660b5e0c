package dev.ferry.client.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AttributeKey;
import java.net.URI;
import java.time.Duration;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;

/**
 * HTTP/1.1 connections to origins, kept alive and reused: one exchange at a time each, the most
 * recently used taken first (its TCP window is open). The pool is kept per origin and per event
 * loop when a loop is asked for, so that a broker's exchange finds a backend connection on the
 * thread it runs on. A connection that idles for the timeout closes itself.
 */
public final class HttpConnections implements AutoCloseable {
  /** Connections kept idle per origin and loop; more are closed as they come back. */
  private static final int MAX_IDLE = 256;

  /** Where a request goes: scheme (TLS or not), host and port of a URL. */
  public record Origin(boolean tls, String host, int port) {
    /** The origin of an {@code http} or {@code https} URL. */
    public static Origin of(URI uri) {
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
        throw new IllegalArgumentException("expected an http:// or https:// URL, got " + uri);
      }
      boolean tls = scheme.equals("https");
      return new Origin(tls, uri.getHost(), uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80);
    }
  }

  private static final String IDLE = "idle";

  /** The attribute that carries a new connection's origin to its initializer. */
  private static final AttributeKey<Origin> ORIGIN = AttributeKey.valueOf("ferry.origin");
  /** Set on a connection taken from the pool: it may have been closed by its peer meanwhile. */
  private static final AttributeKey<Boolean> REUSED = AttributeKey.valueOf("ferry.reused");

  private record Key(Origin origin, EventLoop loop) {}

  /**
   * The socket send buffer of Ferry's Netty connections (these and the broker's callers'). Set,
   * because Netty's epoll transport sizes its gathering writes from it: left to the kernel
   * (16 KiB when a connection opens), a message's head and a body over 32 KiB went out in two
   * system calls and two TCP segments, the head alone first, which cost the broker a fifth of
   * its CPU per call at 32 KiB. The kernel doubles it to 2 MiB; autotuning's ceiling is 4 MiB.
   */
  public static final int SEND_BUFFER_BYTES = 1024 * 1024;

  /**
   * The allocator of the client's connections, and of the request bodies it holds before a
   * connection is picked (Netty's pooled one): a body is written once, into memory the socket
   * sends from.
   */
  public static final ByteBufAllocator ALLOCATOR = ByteBufAllocator.DEFAULT;

  private final Bootstrap bootstrap;
  private final SslContext tls;
  private final long timeoutMillis;
  private final Map<Key, Deque<Channel>> idle = new ConcurrentHashMap<>();
  /** Once closed, connections given back are closed, not kept. */
  private volatile boolean closed;

  /**
   * Connections on {@code transport}'s loops. {@code timeout}: no progress for this long fails
   * an exchange, and closes an idle connection.
   */
  public HttpConnections(Transport transport, Duration connectTimeout, Duration timeout) {
    this(transport, connectTimeout, timeout, defaultTls());
  }

  /** As the other constructor, with {@code tls} for {@code https} origins. */
  public HttpConnections(Transport transport, Duration connectTimeout, Duration timeout,
      SslContext tls) {
    this.tls = tls;
    this.timeoutMillis = timeout.toMillis();
    this.bootstrap = new Bootstrap().group(transport.group()).channel(transport.socketChannel())
        .option(ChannelOption.ALLOCATOR, ALLOCATOR)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.SO_SNDBUF, SEND_BUFFER_BYTES)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
        .option(ChannelOption.WRITE_BUFFER_WATER_MARK,
            new WriteBufferWaterMark(64 * 1024, 256 * 1024))
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            Origin o = ch.attr(ORIGIN).get();
            if (o != null && o.tls()) {
              SslHandler ssl = tls.newHandler(ch.alloc(), o.host(), o.port());
              SSLParameters p = ssl.engine().getSSLParameters();
              p.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate names the host
              ssl.engine().setSSLParameters(p);
              ch.pipeline().addLast(ssl);
            }
            ch.pipeline().addLast(IDLE, idle(timeoutMillis));
            ch.pipeline().addLast(
                new HttpClientCodec(new HttpDecoderConfig().setMaxInitialLineLength(4096)
                    .setMaxHeaderSize(16 * 1024).setMaxChunkSize(64 * 1024), false, false),
                new ReplyHandler(timeoutMillis));
          }
        });
  }

  /**
   * Returns an idle connection to {@code origin} on {@code loop} (any loop if null), or starts a
   * new one; the future completes when it is connected. Its {@link #replies} takes the next
   * exchange.
   */
  public ChannelFuture acquire(Origin origin, EventLoop loop) {
    Deque<Channel> pool = idle.get(new Key(origin, loop));
    if (pool != null) {
      for (Channel ch; (ch = pool.pollFirst()) != null; ) {
        if (ch.isActive() && !replies(ch).busy()) {
          ch.attr(REUSED).set(true);
          return ch.newSucceededFuture();
        }
        ch.close();
      }
    }
    return connect(origin, loop);
  }

  /** Starts a new connection to {@code origin} on {@code loop} (any loop if null). */
  public ChannelFuture connect(Origin origin, EventLoop loop) {
    Bootstrap b = (loop == null ? bootstrap.clone() : bootstrap.clone(loop))
        .attr(ORIGIN, origin);
    ChannelFuture connect = b.connect(origin.host(), origin.port());
    return origin.tls() ? handshaken(connect) : connect;
  }

  /**
   * A future that completes when {@code connect}'s TLS handshake did: a certificate the trust
   * refuses, or another host's, fails the connection, not the first exchange on it.
   */
  private static ChannelFuture handshaken(ChannelFuture connect) {
    ChannelPromise ready = connect.channel().newPromise();
    connect.addListener((ChannelFuture f) -> {
      if (!f.isSuccess()) {
        ready.setFailure(f.cause());
        return;
      }
      f.channel().pipeline().get(SslHandler.class).handshakeFuture().addListener(h -> {
        if (h.isSuccess()) {
          ready.setSuccess();
        } else {
          ready.setFailure(h.cause());
          f.channel().close();
        }
      });
    });
    return ready;
  }

  /**
   * Whether {@code ch} came from the pool: its peer may have closed it just as it was taken, so
   * a request it could not carry (no byte of a reply came) may be sent once more on a new one.
   */
  public static boolean reused(Channel ch) {
    return Boolean.TRUE.equals(ch.attr(REUSED).get());
  }

  /** TLS 1.2 and 1.3 with the JDK's trusted certificates. */
  private static SslContext defaultTls() {
    return NettyTls.client(dev.ferry.security.TlsSettings.jdkDefault());
  }

  private static IdleStateHandler idle(long timeoutMillis) {
    return new IdleStateHandler(true, 0, 0, timeoutMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * Sets the timeout of progress of the exchange about to start on {@code ch} (whose replies
   * {@code r} hands over); the connection has the pool's again when it comes back.
   */
  public void timeout(Channel ch, ReplyHandler r, long millis) {
    if (r.timeoutMillis() == millis) {
      return;
    }
    try {
      ch.pipeline().replace(IDLE, IDLE, idle(millis));
      r.timeoutMillis(millis);
    } catch (NoSuchElementException e) {
      // closed meanwhile: its handlers are gone, and the exchange fails as it starts
    }
  }

  /** Takes back a connection whose exchange ended cleanly, to be reused. */
  public void release(Channel ch, Origin origin, EventLoop loop) {
    ReplyHandler r = replies(ch);
    if (closed || !ch.isActive() || r == null || r.busy()) { // no handlers: it closed meanwhile
      ch.close();
      return;
    }
    timeout(ch, r, timeoutMillis);
    Deque<Channel> pool = idle.computeIfAbsent(new Key(origin, loop),
        k -> new ConcurrentLinkedDeque<>());
    if (pool.size() >= MAX_IDLE) {
      ch.close();
      return;
    }
    // an exchange may have paused its reading for a slow consumer and ended while paused
    ch.config().setAutoRead(true);
    pool.offerFirst(ch);
    if (closed) {
      close(); // closed as it was offered: not left idle in a closed pool
    }
  }

  /** The handler that hands a connection's replies to their exchanges. */
  public static ReplyHandler replies(Channel ch) {
    return ch.pipeline().get(ReplyHandler.class);
  }

  /** The timeout: an exchange without progress for this long fails. */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /**
   * Closes the idle connections; those in use close as they are given back ({@link #release}),
   * or with their exchanges.
   */
  @Override
  public void close() {
    closed = true;
    for (Deque<Channel> pool : idle.values()) {
      for (Channel ch; (ch = pool.pollFirst()) != null; ) {
        ch.close();
      }
    }
  }
}
