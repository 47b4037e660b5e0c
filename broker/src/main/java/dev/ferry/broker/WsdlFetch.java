package dev.ferry.broker;

import dev.ferry.broker.internal.HttpForms;
import dev.ferry.client.internal.ReplyHandler;
import dev.ferry.soap.SoapBinding;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET path?wsdl} as an {@link Exchange} answers it: the WSDL of the route's backend,
 * fetched from it, with the service address replaced by the broker's (clients that load the
 * WSDL from where they call need it).
 */
final class WsdlFetch implements ReplyHandler.Listener {
  /** The largest WSDL fetched from a backend. */
  private static final int MAX_WSDL_BYTES = 4 * 1024 * 1024;

  private final Exchange x;
  private CompositeByteBuf body;
  private int status;

  WsdlFetch(Exchange x) {
    this.x = x;
  }

  void start() {
    Route r = x.set.routes().forPath(x.path);
    if (r == null) {
      x.answers.plain(HttpResponseStatus.NOT_FOUND, "no service at " + x.path);
      return;
    }
    x.route = r;
    x.requestReadNow();
    Backends.Backend m = x.set.backends(r).attempts(false).next();
    if (m == null) {
      x.answers.plain(HttpResponseStatus.SERVICE_UNAVAILABLE, "every member of the service behind "
          + x.path + " is suspended");
      return;
    }
    URI wsdl = URI.create(m.url().toString().replaceAll("\\?.*$", "") + "?wsdl");
    x.set.connections(r).acquire(m.origin, x.loop).addListener((ChannelFuture f) -> {
      if (!f.isSuccess()) {
        failed(HttpForms.connectFailure(f.cause()));
        return;
      }
      x.leg.attach(f.channel(), m, this);
      HttpHeaders h = new DefaultHttpHeaders();
      h.set(HttpHeaderNames.HOST, m.url().getRawAuthority());
      f.channel().writeAndFlush(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
          HttpMethod.GET, HttpForms.target(wsdl), Unpooled.EMPTY_BUFFER, h,
          EmptyHttpHeaders.INSTANCE)).addListener(w -> x.leg.sent(w.isSuccess()));
    });
  }

  @Override
  public void head(HttpResponse head) {
    status = head.status().code();
    body = x.ctx.alloc().compositeBuffer(64);
  }

  @Override
  public void content(ByteBuf bytes, boolean last) {
    if (body.readableBytes() + bytes.readableBytes() > MAX_WSDL_BYTES) {
      failed(new IOException("the WSDL is over " + MAX_WSDL_BYTES + " bytes"));
      return;
    }
    body.addComponent(true, bytes.retain());
    if (!last) {
      return;
    }
    String text = body.toString(StandardCharsets.UTF_8);
    body.release();
    x.leg.done(true);
    if (status != 200) {
      x.answers.plain(HttpResponseStatus.BAD_GATEWAY, "the service behind " + x.path
          + " has no WSDL to serve (it answered HTTP " + status + ")");
      return;
    }
    byte[] wsdl = SoapBinding.withServiceAddress(text, x.cx.address() + x.path)
        .getBytes(StandardCharsets.UTF_8);
    FullHttpResponse out = new DefaultFullHttpResponse(x.request.protocolVersion(),
        HttpResponseStatus.OK, Unpooled.wrappedBuffer(wsdl));
    out.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/xml; charset=utf-8");
    HttpUtil.setContentLength(out, wsdl.length);
    x.bytesOut = wsdl.length;
    x.respond(out, 200, null);
  }

  @Override
  public void failed(IOException cause) {
    if (body != null && body.refCnt() > 0) {
      body.release();
    }
    Channel b = x.leg.backend;
    if (b != null) {
      b.close();
    }
    x.log(cause);
    x.answers.plain(HttpResponseStatus.BAD_GATEWAY, "the service behind " + x.path
        + " is unavailable");
  }
}
