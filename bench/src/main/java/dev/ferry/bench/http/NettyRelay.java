package dev.ferry.bench.http;

import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.URI;

/**
 * The floor under {@code ferry broker}: a bare HTTP relay on the broker's transport (Netty, its
 * native epoll transport, the same socket options), in a JVM of its own, with no SOAP work at
 * all. Each caller connection gets one kept-alive backend connection on its own event loop; a
 * request is aggregated whole, given one header and sent on, and the reply goes back the same
 * way. What {@code ferry broker} costs beyond this is its SOAP work (reading, routing and
 * changing the message, checking the package) and its own bookkeeping.
 *
 * <p>{@code java -cp benchmarks.jar dev.ferry.bench.http.NettyRelay <backend URL>} prints
 * {@code relay at http://127.0.0.1:PORT/} once it listens; requests to {@code /echo} go to the
 * backend URL.
 */
public final class NettyRelay {
  private static final int MAX_BYTES = 64 * 1024 * 1024;

  private NettyRelay() {}

  public static void main(String[] args) throws InterruptedException {
    URI backend = URI.create(args[0]);
    Transport transport = Transport.start(Runtime.getRuntime().availableProcessors(),
        "netty-relay");
    Channel listener = new ServerBootstrap().group(transport.group())
        .channel(transport.serverChannel())
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_SNDBUF, HttpConnections.SEND_BUFFER_BYTES)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_BYTES),
                new Caller(transport, backend));
          }
        })
        .bind("127.0.0.1", 0).sync().channel();
    int port = ((java.net.InetSocketAddress) listener.localAddress()).getPort();
    System.out.println("relay at http://127.0.0.1:" + port + "/");
    System.out.flush();
    listener.closeFuture().sync();
  }

  /** One caller connection and the backend connection it uses. */
  private static final class Caller extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final Transport transport;
    private final URI backend;
    private Channel toBackend;

    Caller(Transport transport, URI backend) {
      this.transport = transport;
      this.backend = backend;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
      request.setUri(backend.getRawPath());
      request.headers().set(HttpHeaderNames.HOST, backend.getRawAuthority());
      request.headers().set("X-Relayed-By", "netty-relay"); // the one change on every call
      request.retain();
      if (toBackend != null) {
        toBackend.writeAndFlush(request);
        return;
      }
      new Bootstrap().group(ctx.channel().eventLoop()).channel(transport.socketChannel())
          .option(ChannelOption.TCP_NODELAY, true)
          .option(ChannelOption.SO_SNDBUF, HttpConnections.SEND_BUFFER_BYTES)
          .handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
              ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_BYTES),
                  new Replies(ctx));
            }
          })
          .connect(backend.getHost(), backend.getPort())
          .addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
              request.release();
              ctx.close();
              return;
            }
            toBackend = f.channel();
            toBackend.writeAndFlush(request);
          });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (toBackend != null) {
        toBackend.close();
      }
    }
  }

  /** The backend's replies, each written back to the caller as it came whole. */
  private static final class Replies extends SimpleChannelInboundHandler<FullHttpResponse> {
    private final ChannelHandlerContext caller;

    Replies(ChannelHandlerContext caller) {
      this.caller = caller;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse reply) {
      caller.writeAndFlush(reply.retain());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      caller.close();
    }
  }
}
