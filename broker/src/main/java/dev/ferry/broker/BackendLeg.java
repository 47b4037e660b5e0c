package dev.ferry.broker;

import dev.ferry.broker.internal.HttpForms;
import dev.ferry.client.internal.ChannelOutputStream;
import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.ReplyHandler;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapBinding;
import dev.ferry.tracing.internal.SoapSpans;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import javax.xml.namespace.QName;

/**
 * One {@link Exchange}'s side toward its backend: the members its request may try
 * ({@link Attempts}), the connection to the one it is on, and the request sent there. A held
 * request is kept until its reply is judged and each send writes a duplicate of it: if a pooled
 * connection's peer had just closed it (no byte of a reply came), it goes once more on a new
 * one; if the member fails in a way that lets the request move, it goes to the next member. A
 * streamed request goes to the first member that takes a connection (one that refuses has seen
 * no byte) and, once a byte went, is never sent again.
 *
 * <p>Each member tried is an attempt, a client span (when the broker traces) under the
 * exchange's server span, whose context goes to the member; a retry on a new connection to the
 * same member is the same attempt, a move to the next member a new one.
 */
final class BackendLeg {
  /** The chunks a streamed request goes to its backend in. */
  private static final int CHUNK_BYTES = 64 * 1024;
  private static final AtomicReferenceFieldUpdater<BackendLeg, Context> ATTEMPT =
      AtomicReferenceFieldUpdater.newUpdater(BackendLeg.class, Context.class, "attempt");

  /** What goes to the backend: a held request's bytes and their Content-Type. */
  record Outgoing(String contentType, ByteBuf bytes) {}

  private final Exchange x;
  /** The members this request may try, and the one it is on. */
  volatile Attempts attempts;
  volatile Channel backend;
  volatile Backends.Backend member;
  /** The stream a streamed request goes out through, once its connection is made. */
  volatile ChannelOutputStream output;
  private volatile boolean requestSent;
  /** A held request kept for sending again until its reply is judged. */
  private Outgoing retry;
  /** Whether the held request was sent again on a new connection to the same member. */
  private boolean staleRetried;
  /** The client span of the member being tried, until it ends; null when not traced. */
  private volatile Context attempt;
  /** The bytes of the request sent to the member being tried: a held one's. */
  private volatile long requestBytes;
  /** The stream a streamed request goes out through: it counts its bytes. */
  private volatile MemberOutput sending;

  BackendLeg(Exchange x) {
    this.x = x;
  }

  /** Picks the members the request may try; false if every one is suspended. */
  boolean pick() {
    Attempts a = x.set.backends(x.route).attempts(x.route.idempotent());
    attempts = a;
    return a.next() != null;
  }

  /** Sends a held request to its member on a pooled connection, keeping it for a retry. */
  void sendHeld(Outgoing out) {
    retry = out; // kept until the reply is judged
    begin(attempts.current());
    send(x.set.connections(x.route).acquire(attempts.current().origin, x.loop));
  }

  /** Sends a duplicate of the held request on the connection {@code connecting} makes. */
  private void send(ChannelFuture connecting) {
    Backends.Backend m = attempts.current();
    connecting.addListener((ChannelFuture f) -> {
      if (!f.isSuccess()) {
        x.reply.failed(HttpForms.connectFailure(f.cause()));
        return;
      }
      Channel ch = f.channel();
      Outgoing out = retry;
      if (out == null || x.finished) { // answered meanwhile (the caller went away)
        ch.close();
        return;
      }
      attach(ch, m);
      ByteBuf bytes = out.bytes().retainedDuplicate();
      requestBytes = bytes.readableBytes();
      HttpHeaders h = headers(out.contentType(), m.url());
      h.setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.readableBytes());
      ch.writeAndFlush(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
          HttpForms.target(m.url()), bytes, h, EmptyHttpHeaders.INSTANCE)).addListener(w -> {
            if (w.isSuccess()) {
              requestSent = true;
            } else if (backend == ch) {
              HttpConnections.replies(ch).expect(null); // told here, not by its close
              ch.close();
              x.reply.failed(new IOException("the connection closed before the request went"
                  + " out", w.cause()));
            }
          });
    });
  }

  /** Sends the held request again on a new connection to the same member, if this allows it. */
  boolean retried(IOException cause) {
    Channel b = backend;
    if (retry == null || staleRetried || b == null || !HttpConnections.reused(b)
        || x.reply.started() || cause instanceof SocketTimeoutException || x.finished) {
      return false;
    }
    staleRetried = true; // once
    detach();
    send(x.set.connections(x.route).connect(attempts.current().origin, x.loop));
    return true;
  }

  /**
   * The member failed ({@code why}; {@code reached}: bytes of the request may have reached it):
   * counts it against the member and, if the request is held and may move, sends it to the
   * next member. Returns true if it went.
   */
  boolean failover(String why, boolean reached) {
    Attempts a = attempts;
    if (a == null || x.finished) {
      return false; // no member yet, or the failure is the exchange's own ending
    }
    if (retry == null || x.answered) {
      a.failed(why);
      return false;
    }
    Backends.Backend next = a.failover(why, reached);
    if (next == null) {
      return false;
    }
    x.cx.metrics().retried(x.route.name());
    detach();
    x.reply.forget();
    begin(next);
    send(x.set.connections(x.route).acquire(next.origin, x.loop));
    return true;
  }

  /**
   * On the request's reading thread: connects to the first member that takes a connection,
   * then streams the message to it.
   */
  void sendStreamed(Message message) throws IOException {
    Backends.Backend m = attempts.current();
    ChannelFuture f;
    while (true) {
      begin(m);
      f = x.set.connections(x.route).acquire(m.origin, x.loop);
      try {
        f.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while connecting");
      }
      if (f.isSuccess()) {
        break;
      }
      ConnectException failure = HttpForms.connectFailure(f.cause());
      end(0, 0, null, failure);
      m = attempts.failover("cannot connect: " + failure.getMessage(), false);
      if (m == null) {
        throw failure;
      }
      x.cx.metrics().retried(x.route.name());
    }
    ChannelOutputStream out = new ChannelOutputStream(f.channel(), CHUNK_BYTES);
    output = out;
    attach(f.channel(), m);
    Payload payload = x.copy.wrap(message.toPayload());
    HttpHeaders h = headers(payload.contentType(), m.url());
    h.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    f.channel().writeAndFlush(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
        HttpForms.target(m.url()), h));
    MemberOutput sent = new MemberOutput(out);
    sending = sent;
    payload.writeTo(sent);
    sent.close();
    requestSent = true;
  }

  /** A streamed request failed while read or sent: no last chunk goes out. */
  void abortOutput(Exception e) {
    ChannelOutputStream out = output;
    if (out != null) {
      out.abort(e); // the request is never whole
    }
  }

  private HttpHeaders headers(String type, URI to) {
    HttpHeaders h = new DefaultHttpHeaders();
    h.set(HttpHeaderNames.HOST, to.getRawAuthority());
    h.set(HttpHeaderNames.CONTENT_TYPE, type);
    if (x.soapAction != null) {
      h.set("SOAPAction", SoapBinding.soapActionHeader(x.soapAction));
    }
    x.cx.tracing().writeTo(h, attempt, x.request.headers());
    String identityHeader = x.route.policy().identityHeader();
    if (identityHeader != null && CallerRequest.of(x.request) != null) {
      h.set(identityHeader, CallerRequest.of(x.request).getName());
    }
    return h;
  }

  /** Makes {@code ch}, to {@code m}, the exchange's backend connection. */
  void attach(Channel ch, Backends.Backend m, ReplyHandler.Listener listener) {
    member = m;
    backend = ch;
    HttpConnections.replies(ch).expect(listener);
  }

  private void attach(Channel ch, Backends.Backend m) {
    attach(ch, m, x.reply);
  }

  /** Marks the request as sent whole (or not). */
  void sent(boolean whole) {
    requestSent = whole;
  }

  /** Leaves the backend connection without the exchange learning of its close. */
  void detach() {
    Channel b = backend;
    backend = null;
    if (b != null) {
      ReplyHandler r = HttpConnections.replies(b);
      if (r != null) {
        r.expect(null);
      }
      b.close();
    }
  }

  /**
   * The backend's reply ended: its connection goes back to the pool if the request did too
   * and the connection is {@code reusable} (its reply was read as it should be), else closes.
   */
  void done(boolean reusable) {
    Channel b = backend;
    if (b == null) {
      return;
    }
    backend = null;
    if (requestSent && reusable) {
      x.set.connections(x.route).release(b, member.origin, x.loop);
    } else {
      b.close();
    }
  }

  /** Drops the held request kept for sending again. */
  void dropRetry() {
    if (retry != null) {
      retry.bytes().release();
      retry = null;
    }
  }

  /** Starts the attempt on {@code m}: its client span, if the exchange has a server span. */
  private void begin(Backends.Backend m) {
    sending = null;
    requestBytes = 0;
    Context server = x.traced;
    if (server != null) {
      Context a = x.cx.tracing().startClient(server, m.url(), x.service, x.operation);
      SoapSpans.message(Span.fromContext(a), x.version, -1);
      attempt = a;
    }
  }

  /** Whether an attempt's span is open. */
  boolean attemptOpen() {
    return attempt != null;
  }

  /**
   * Ends the span of the member being tried, once: its reply's status ({@code 0}: none), the
   * bytes of it that came, the code of its fault, or what failed.
   */
  void end(int status, long replyBytes, QName faultCode, Throwable failure) {
    if (attempt == null) {
      return; // not traced (or ended): not even the atomic swap
    }
    Context a = ATTEMPT.getAndSet(this, null);
    if (a != null) {
      MemberOutput out = sending;
      SoapSpans.endClient(Span.fromContext(a), status, out != null ? out.written()
          : requestBytes, replyBytes, faultCode, failure);
    }
  }

  /** A backend failure in the log's and the metrics' words. */
  static String describe(IOException cause) {
    return cause instanceof SocketTimeoutException ? "timed out: " + cause.getMessage()
        : cause instanceof ConnectException ? "cannot connect: " + cause.getMessage()
        : "failed: " + cause.getMessage();
  }
}
