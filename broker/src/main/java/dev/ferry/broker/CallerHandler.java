package dev.ferry.broker;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * One caller connection: its requests become {@link Exchange}s, one at a time (a request that
 * arrives pipelined behind another waits for its turn). A caller that stops sending its request
 * for {@link BrokerOptions#requestTimeout} (its head or its body) is disconnected; one idle
 * between requests, after {@link BrokerOptions#idleTimeout}. Neither takes anything a normal
 * caller needs meanwhile: no thread waits for a caller, and what it sent is all it holds.
 */
final class CallerHandler extends ChannelInboundHandlerAdapter {
  private final BrokerContext cx;
  private final RawReads raw;
  private final ArrayDeque<HttpObject> waiting = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  private Exchange current;
  private int idleTicks;
  private long quietSince = System.nanoTime(); // the last read, or the last answer out

  CallerHandler(BrokerContext cx, RawReads raw) {
    this.cx = cx;
    this.raw = raw;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    idleTicks = 0;
    quietSince = System.nanoTime();
    if (current != null && current.requestRead() || !waiting.isEmpty()) {
      waiting.add((HttpObject) msg); // pipelined: after the exchange in progress
      return;
    }
    take((HttpObject) msg);
  }

  private void take(HttpObject msg) {
    try {
      if (msg instanceof HttpRequest request) {
        raw.reset();
        current = new Exchange(cx, this, ctx, request);
        current.start();
      }
      if (msg instanceof HttpContent c && current != null) {
        current.content(c);
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  /**
   * The exchange's answer is out: the connection takes the next request, or, if the exchange
   * could not leave it in a state for one, closes.
   */
  void exchangeDone(Exchange x, boolean reusable) {
    if (x != current) {
      return;
    }
    if (!reusable) { // during a drain, an answer says Connection: close and is not reusable
      ctx.close();
      return;
    }
    current = null;
    quietSince = System.nanoTime();
    raw.reset();
    while (!waiting.isEmpty() && (current == null || !current.requestRead())) {
      take(waiting.poll());
    }
  }

  /**
   * Closes the connection if it neither runs an exchange nor has one coming, and nothing was
   * read on it or answered for {@code quietNanos} (a drain's).
   */
  void closeIfIdle(long quietNanos) {
    if (current == null && waiting.isEmpty() && !raw.any()
        && System.nanoTime() - quietSince >= quietNanos) {
      ctx.close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (current != null) {
      current.callerGone();
    }
    waiting.forEach(ReferenceCountUtil::release);
    waiting.clear();
    ctx.fireChannelInactive();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (current != null) {
      current.callerWritable();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (!(event instanceof IdleStateEvent)) {
      ctx.fireUserEventTriggered(event);
      return;
    }
    if (current != null) {
      if (!current.requestRead()) {
        ctx.close(); // stalled in its body: the exchange learns it from channelInactive
      }
    } else if (raw.any()) {
      ctx.close(); // stalled in a request's head
    } else if (++idleTicks * cx.options().requestTimeout().toMillis()
        >= cx.options().idleTimeout().toMillis()) {
      ctx.close();
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }

  /** Notes whether bytes came since the last request's head: a head in progress. */
  static final class RawReads extends ChannelInboundHandlerAdapter {
    private boolean any;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      any = true;
      ctx.fireChannelRead(msg);
    }

    boolean any() {
      return any;
    }

    void reset() {
      any = false;
    }
  }
}
