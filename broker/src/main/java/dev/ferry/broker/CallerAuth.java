package dev.ferry.broker;

import dev.ferry.security.AuthenticationException;
import dev.ferry.security.Authenticator;
import dev.ferry.security.Identity;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayDeque;
import java.util.Arrays;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Authenticates each request of a caller connection before it becomes an exchange: its head
 * goes on as a {@link CallerRequest} naming the caller, or the request is answered 401 (403
 * where only certificates count), after its body, which is dropped (beyond 1 MiB of it the
 * answer goes anyway and the connection closes). A password that must be hashed (one not
 * remembered) is checked by a virtual thread while the connection's reading waits, so the event
 * loop never hashes. {@code /health} and {@code /metrics} are let through.
 */
final class CallerAuth extends ChannelInboundHandlerAdapter {
  private static final int DROP_BYTES = 1024 * 1024;

  private final Authenticator auth;
  private final ArrayDeque<Object> queued = new ArrayDeque<>();
  private boolean checking;
  private FullHttpResponse refusal;
  private boolean keepAlive;
  private long dropped;

  CallerAuth(Authenticator auth) {
    this.auth = auth;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (checking) {
      queued.add(msg);
      return;
    }
    take(ctx, msg);
  }

  private void take(ChannelHandlerContext ctx, Object msg) {
    if (refusal != null) {
      drop(ctx, msg);
      return;
    }
    if (!(msg instanceof HttpRequest head) || isOwnPath(head)) {
      ctx.fireChannelRead(msg);
      return;
    }
    String authorization = head.headers().get(HttpHeaderNames.AUTHORIZATION);
    X509Certificate[] peer = peer(ctx);
    if (auth.isQuick(authorization)) {
      decide(ctx, head, check(authorization, peer));
      return;
    }
    checking = true;
    ctx.channel().config().setAutoRead(false);
    Thread.ofVirtual().name("ferry-broker-auth").start(() -> {
      Object outcome = check(authorization, peer);
      ctx.executor().execute(() -> {
        checking = false;
        decide(ctx, head, outcome);
        while (!checking && !queued.isEmpty()) {
          take(ctx, queued.poll());
        }
        ctx.channel().config().setAutoRead(true);
      });
    });
  }

  private static boolean isOwnPath(HttpRequest head) {
    String path = new QueryStringDecoder(head.uri()).path();
    return path.equals("/health") || path.equals("/metrics");
  }

  /** The identity, or the exception that refuses the caller. */
  private Object check(String authorization, X509Certificate[] peer) {
    try {
      return auth.authenticate(authorization, peer);
    } catch (AuthenticationException e) {
      return e;
    }
  }

  private void decide(ChannelHandlerContext ctx, HttpRequest head, Object outcome) {
    if (outcome instanceof Identity who) {
      ctx.fireChannelRead(new CallerRequest(head, who));
      return;
    }
    String challenge = auth.challenge();
    byte[] body = ("authentication failed: " + ((Exception) outcome).getMessage() + "\n")
        .getBytes(StandardCharsets.UTF_8);
    refusal = new DefaultFullHttpResponse(head.protocolVersion(), challenge == null
        ? HttpResponseStatus.FORBIDDEN : HttpResponseStatus.UNAUTHORIZED,
        Unpooled.wrappedBuffer(body));
    refusal.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
    HttpUtil.setContentLength(refusal, body.length);
    if (challenge != null) {
      refusal.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, challenge);
    }
    dropped = 0;
    keepAlive = HttpUtil.isKeepAlive(head);
    if (HttpUtil.getContentLength(head, -1L) == 0 && !HttpUtil.isTransferEncodingChunked(head)) {
      answer(ctx, true);
    }
  }

  /** Drops the refused request's body; answers at its end, or early (then closes). */
  private void drop(ChannelHandlerContext ctx, Object msg) {
    try {
      if (msg instanceof HttpContent c) {
        dropped += c.content().readableBytes();
        if (msg instanceof LastHttpContent) {
          answer(ctx, true);
        } else if (dropped > DROP_BYTES) {
          answer(ctx, false);
        }
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  private void answer(ChannelHandlerContext ctx, boolean reusable) {
    FullHttpResponse r = refusal;
    refusal = null;
    if (!reusable || !keepAlive) {
      r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
      return;
    }
    ctx.writeAndFlush(r);
  }

  private static X509Certificate[] peer(ChannelHandlerContext ctx) {
    SslHandler ssl = ctx.pipeline().get(SslHandler.class);
    if (ssl == null) {
      return null;
    }
    try {
      Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
      return Arrays.copyOf(chain, chain.length, X509Certificate[].class);
    } catch (SSLPeerUnverifiedException e) {
      return null;
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    queued.forEach(ReferenceCountUtil::release);
    queued.clear();
    ctx.fireChannelInactive();
  }
}
