package dev.ferry.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.net.SocketTimeoutException;

/**
 * The end of a client connection's pipeline: hands the reply of the exchange in progress to its
 * {@link Listener}, piece by piece as it is decoded, on the connection's loop. A connection
 * carries one exchange at a time; between exchanges it waits in the pool, and whatever it
 * receives then (a reply nobody asked for) closes it.
 *
 * <p>The pipeline's idle handler fires when the connection neither sent nor received a byte for
 * the timeout: that fails the exchange in progress with a {@link SocketTimeoutException} (unless
 * the connection is only waiting for a slow reader of the reply), or closes an idle connection.
 */
public final class ReplyHandler extends ChannelInboundHandlerAdapter {
  /** Is told of one exchange's reply. Every method runs on the connection's loop. */
  public interface Listener {
    /** The status line and headers (informational 1xx replies are not passed on). */
    void head(HttpResponse head);

    /** Body bytes, valid during the call (retain them to keep them); then {@code last}. */
    void content(ByteBuf bytes, boolean last);

    /** The exchange failed: the connection broke, timed out, or sent a malformed reply. */
    void failed(IOException cause);

    /** The connection's writability changed. */
    default void writabilityChanged() {}

    /**
     * What the connection read from its socket this time has all been passed on: a relay that
     * wrote the pieces without flushing them flushes here, once per read instead of per piece.
     */
    default void readComplete() {}

    /** Whether the connection waits for a slow reader; then no progress is no timeout. */
    default boolean paused() {
      return false;
    }
  }

  private volatile long timeoutMillis;
  private volatile Listener listener;
  private boolean informational;

  /** {@code timeoutMillis} is the idle handler's, for the message of a timeout. */
  public ReplyHandler(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  /** The idle handler's timeout now (it changes with a call's own). */
  public long timeoutMillis() {
    return timeoutMillis;
  }

  /** Notes that the idle handler's timeout is now {@code millis}. */
  public void timeoutMillis(long millis) {
    this.timeoutMillis = millis;
  }

  /** Makes {@code l} the listener of the connection's next reply; before the request goes out. */
  public void expect(Listener l) {
    this.listener = l;
  }

  /** Whether an exchange is in progress on the connection. */
  public boolean busy() {
    return listener != null;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      Listener l = listener;
      if (l == null) {
        ctx.close(); // nobody asked: the connection is not in a state to be reused
        return;
      }
      HttpObject o = (HttpObject) msg;
      if (o.decoderResult().isFailure()) {
        fail(ctx, new IOException("malformed HTTP reply: " + o.decoderResult().cause(),
            o.decoderResult().cause()));
        return;
      }
      if (o instanceof HttpResponse head) {
        informational = head.status().codeClass() == io.netty.handler.codec.http.HttpStatusClass
            .INFORMATIONAL;
        if (!informational) {
          l.head(head);
        }
      }
      if (o instanceof HttpContent c && !informational) {
        boolean last = c instanceof LastHttpContent;
        if (last) {
          listener = null;
        }
        l.content(c.content(), last);
      } else if (o instanceof LastHttpContent) {
        informational = false;
      }
    } finally {
      io.netty.util.ReferenceCountUtil.release(msg);
    }
  }

  private void fail(ChannelHandlerContext ctx, IOException cause) {
    Listener l = listener;
    listener = null;
    if (l != null) {
      l.failed(cause);
    }
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    Listener l = listener;
    listener = null;
    if (l != null) {
      l.failed(new IOException("the connection closed before the reply ended"));
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    fail(ctx, cause instanceof IOException io ? io : new IOException(cause.toString(), cause));
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (!(event instanceof IdleStateEvent)) {
      ctx.fireUserEventTriggered(event);
      return;
    }
    Listener l = listener;
    if (l == null) {
      ctx.close(); // idle in the pool for the timeout
    } else if (!l.paused()) {
      fail(ctx, new SocketTimeoutException("no progress for " + timeoutMillis + " ms"));
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    Listener l = listener;
    if (l != null) {
      l.readComplete();
    }
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    Listener l = listener;
    if (l != null) {
      l.writabilityChanged();
    }
    ctx.fireChannelWritabilityChanged();
  }
}
