package dev.ferry.client;

import dev.ferry.bytes.internal.Streams;
import dev.ferry.client.internal.ChannelInputStream;
import dev.ferry.client.internal.ChannelOutputStream;
import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.ReplyHandler;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One call of {@link SoapClient} on one connection: the reply's head is awaited, its body read
 * from the connection as it comes, by the calling thread (a blocking call) or by whoever
 * {@link #whenReadable} names (an asynchronous one). When the reply was read to its end (or a
 * little of its rest drained) and the request went out whole, the connection goes back to the
 * pool; otherwise it is closed, which is how a call is aborted.
 */
final class Call implements ReplyHandler.Listener, AutoCloseable {
  /** Reply bytes waiting unread beyond this stop the connection's reading. */
  private static final int PAUSE_BYTES = 256 * 1024;
  /** The most of an unread rest that is read on close so that the connection can be reused. */
  private static final int DRAIN_BYTES = 64 * 1024;
  /**
   * An asynchronous call's reply up to this is read whole before it is parsed (on the event
   * loop, with nothing to wait for); a longer one is parsed as it comes by a virtual thread.
   */
  static final int HOLD_BYTES = 64 * 1024;

  private final HttpConnections connections;
  private final HttpConnections.Origin origin;
  private final Channel channel;
  private final URI uri;
  private final CompletableFuture<HttpResponse> head = new CompletableFuture<>();
  private final ChannelInputStream body;
  private volatile ChannelOutputStream sending;
  private volatile boolean sent;
  private volatile long sentBytes;
  private boolean keepAlive;
  private boolean closed;
  /** For an asynchronous call: told once the reply can be read, and whether it is all here. */
  private Readable readable;
  private volatile long arrived;

  /** Told, on the event loop, that a reply can be read. */
  interface Readable {
    /** {@code whole}: the reply ended (or failed) and reading it will not wait. */
    void ready(Call call, boolean whole);
  }

  /** A call on {@code channel}; {@code timeoutMillis} is its timeout of progress. */
  Call(HttpConnections connections, HttpConnections.Origin origin, Channel channel, URI uri,
      long timeoutMillis) throws IOException {
    this.connections = connections;
    this.origin = origin;
    this.channel = channel;
    this.uri = uri;
    this.body = new ChannelInputStream(channel, PAUSE_BYTES);
    // A connection can close as it is handed over (a TLS server refusing after the handshake, a
    // peer closing an idle one): its handlers are then gone, and no reply would ever come.
    ReplyHandler replies = HttpConnections.replies(channel);
    if (replies == null) {
      throw closedBeforeSending();
    }
    replies.expect(this);
    connections.timeout(channel, replies, timeoutMillis);
    if (!channel.isActive()) { // closed before expect: its end was told to nobody
      throw closedBeforeSending();
    }
  }

  private IOException closedBeforeSending() {
    return new IOException("the connection to " + uri + " closed before the request went out");
  }

  /**
   * Has {@code r} told, once, when the reply ended or failed (reading will not wait), or when
   * more than {@link #HOLD_BYTES} of it arrived (reading may wait for the rest). Before the
   * request goes out.
   */
  void whenReadable(Readable r) {
    this.readable = r;
  }

  private void ready(boolean whole) {
    Readable r = readable;
    if (r != null) {
      readable = null;
      r.ready(this, whole);
    }
  }

  URI uri() {
    return uri;
  }

  Channel channel() {
    return channel;
  }

  /** The stream a long request is written through, after its head went out. */
  ChannelOutputStream stream(int chunkBytes) {
    sending = new ChannelOutputStream(channel, chunkBytes);
    return sending;
  }

  /** The request went out whole: {@code bytes} of body. */
  void sent(long bytes) {
    sentBytes = bytes;
    sent = true;
  }

  /** The bytes of the request's body, once it went out. */
  long sentBytes() {
    return sentBytes;
  }

  /** The bytes of the reply's body that arrived so far. */
  long received() {
    return arrived;
  }

  /** Writes a request held whole; a write that fails fails the call (nothing else would). */
  void send(io.netty.handler.codec.http.FullHttpRequest request) {
    channel.writeAndFlush(request).addListener(f -> {
      if (!f.isSuccess()) {
        HttpConnections.replies(channel).expect(null); // told here, not by its close
        channel.close();
        failed(new IOException("the connection closed before the request went out",
            f.cause()));
      }
    });
  }

  /**
   * Whether the call failed on a connection taken from the pool before any byte of a reply came:
   * its peer may have closed it just then, so the request may go once more on a new one.
   */
  boolean retryable(IOException failure) {
    return HttpConnections.reused(channel) && head.isCompletedExceptionally()
        && !(failure instanceof java.net.SocketTimeoutException);
  }

  /** Waits for the reply's head. */
  HttpResponse awaitHead() throws IOException {
    try {
      HttpResponse h = head.get();
      keepAlive = HttpUtil.isKeepAlive(h);
      return h;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      channel.close();
      throw new InterruptedIOException("interrupted while waiting for " + uri);
    } catch (ExecutionException e) {
      throw failure(e.getCause());
    }
  }

  /** The reply's body as it comes from the connection. */
  InputStream body() {
    return body;
  }

  /** The exception for a failed call, naming the URL. */
  IOException failure(Throwable cause) {
    if (cause instanceof java.net.SocketTimeoutException t) {
      java.net.SocketTimeoutException e = new java.net.SocketTimeoutException(t.getMessage()
          + " in the exchange with " + uri);
      e.initCause(t);
      return e;
    }
    String m = cause.getMessage();
    return new IOException("the exchange with " + uri + " failed: "
        + (m == null ? cause.getClass().getSimpleName() : m), cause);
  }

  @Override
  public void head(HttpResponse h) {
    head.complete(h);
  }

  @Override
  public void content(ByteBuf bytes, boolean last) {
    arrived += bytes.readableBytes();
    if (bytes.isReadable()) {
      body.offer(bytes.retain());
    }
    if (last) {
      body.end();
      ready(true);
    } else if (arrived > HOLD_BYTES) {
      ready(false);
    }
  }

  @Override
  public void failed(IOException cause) {
    head.completeExceptionally(cause);
    body.fail(cause);
    ChannelOutputStream s = sending;
    if (s != null) {
      s.fail(cause);
    }
    ready(true);
  }

  @Override
  public void writabilityChanged() {
    ChannelOutputStream s = sending;
    if (s != null) {
      s.writabilityChanged();
    }
  }

  @Override
  public boolean paused() {
    return body.paused();
  }

  /** Aborts the call: the connection is closed, so neither side sees a whole message. */
  void abort(Throwable cause) {
    ChannelOutputStream s = sending;
    if (s != null) {
      s.abort(cause);
    }
    channel.close();
    failed(cause instanceof IOException io ? io : new IOException(cause));
  }

  /**
   * Ends the call: a reply read to its end, or whose rest was short enough to drain, leaves its
   * connection for the next call; any other is closed.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (sent && keepAlive && head.isDone() && !head.isCompletedExceptionally() && drain()) {
      body.close();
      connections.release(channel, origin, null);
      return;
    }
    body.close();
    channel.close();
  }

  /** Reads what is left of the reply, up to a bound; true if it ended. */
  private boolean drain() {
    try {
      return Streams.discard(body, DRAIN_BYTES) || body.drained();
    } catch (IOException e) {
      return false;
    }
  }
}
