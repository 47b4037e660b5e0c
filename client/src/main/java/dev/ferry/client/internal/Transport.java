package dev.ferry.client.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Netty's event loops and socket types for this platform: the native epoll transport where it
 * loads (Linux), else NIO. The broker and the client run on one of these; the broker's backend
 * connections share its loops, so an exchange stays on the thread that took the caller's request.
 */
public final class Transport implements AutoCloseable {
  private static final boolean NATIVE = Epoll.isAvailable();

  private final EventLoopGroup group;

  private Transport(EventLoopGroup group) {
    this.group = group;
  }

  /** Starts {@code threads} event loops (daemon threads named {@code name-n}). */
  public static Transport start(int threads, String name) {
    IoHandlerFactory io = NATIVE ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    return new Transport(new MultiThreadIoEventLoopGroup(threads,
        new DefaultThreadFactory(name, true), io));
  }

  /** Whether the native transport is used. */
  public static boolean isNative() {
    return NATIVE;
  }

  public EventLoopGroup group() {
    return group;
  }

  public Class<? extends SocketChannel> socketChannel() {
    return NATIVE ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  public Class<? extends ServerSocketChannel> serverChannel() {
    return NATIVE ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  /** Stops the loops, closing every channel on them; waits up to two seconds. */
  @Override
  public void close() {
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
  }
}
