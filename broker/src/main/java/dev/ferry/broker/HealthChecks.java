package dev.ferry.broker;

import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.ReplyHandler;
import dev.ferry.client.internal.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A group's active checks: every interval, a {@code GET} on each member, on a connection of its
 * own (never a pooled one, so a check neither waits behind traffic nor leaves a connection
 * that a request might take). 2xx within the check's timeout is a success that brings a
 * suspended member back; anything else is a failure that counts as traffic's do, and keeps a
 * member it suspends (or finds suspended) out until a check passes. A check still
 * running when the next round comes is not started twice.
 */
final class HealthChecks implements AutoCloseable {
  private final Backends backends;
  private final HttpConnections connections;
  private final Transport transport;
  private final BackendGroup.HealthCheck check;
  private final AtomicBoolean[] running;
  private ScheduledFuture<?> rounds;

  HealthChecks(Backends backends, HttpConnections connections, Transport transport) {
    this.backends = backends;
    this.connections = connections;
    this.transport = transport;
    this.check = backends.group().check();
    this.running = new AtomicBoolean[backends.members().size()];
    for (int i = 0; i < running.length; i++) {
      running[i] = new AtomicBoolean();
    }
  }

  Backends backends() {
    return backends;
  }

  void start() {
    long every = check.interval().toMillis();
    rounds = transport.group().next().scheduleWithFixedDelay(this::round, every, every,
        TimeUnit.MILLISECONDS);
  }

  private void round() {
    for (int i = 0; i < running.length; i++) {
      if (running[i].compareAndSet(false, true)) {
        probe(backends.member(i), running[i]);
      }
    }
  }

  /** The URL a check asks: the check's path on the member's origin, else its URL ?wsdl. */
  private String target(Backends.Backend b) {
    if (check.path() != null) {
      return check.path();
    }
    URI u = b.url();
    return (u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath())
        + "?wsdl";
  }

  private void probe(Backends.Backend b, AtomicBoolean done) {
    long since = b.health.now();
    connections.connect(b.origin, null).addListener((ChannelFuture f) -> {
      if (!f.isSuccess()) {
        finish(b, done, null, since, "the check could not connect: " + f.cause());
        return;
      }
      Channel ch = f.channel();
      ReplyHandler replies = HttpConnections.replies(ch);
      if (replies == null) { // closed as it connected
        finish(b, done, null, since, "the check's connection closed at once");
        return;
      }
      connections.timeout(ch, replies, check.timeout().toMillis());
      replies.expect(new ReplyHandler.Listener() {
        private int status;

        @Override
        public void head(HttpResponse head) {
          status = head.status().code();
        }

        @Override
        public void content(ByteBuf bytes, boolean last) {
          if (last) {
            finish(b, done, ch, since, status >= 200 && status < 300 ? null
                : "the check was answered HTTP " + status);
          }
        }

        @Override
        public void failed(IOException cause) {
          finish(b, done, ch, since, "the check failed: " + cause);
        }
      });
      DefaultFullHttpRequest get = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
          HttpMethod.GET, target(b), Unpooled.EMPTY_BUFFER);
      get.headers().set(HttpHeaderNames.HOST, b.url().getRawAuthority());
      get.headers().set(HttpHeaderNames.CONNECTION, "close");
      ch.writeAndFlush(get);
    });
  }

  private void finish(Backends.Backend b, AtomicBoolean done, Channel ch, long since,
      String failure) {
    if (ch != null) {
      ReplyHandler r = HttpConnections.replies(ch);
      if (r != null) {
        r.expect(null);
      }
      ch.close();
    }
    if (failure == null) {
      backends.succeeded(b, since);
    } else {
      backends.checkFailed(b, failure);
    }
    done.set(false);
  }

  @Override
  public void close() {
    if (rounds != null) {
      rounds.cancel(false);
    }
  }
}
