package dev.ferry.broker;

import dev.ferry.broker.internal.HeldBytes;
import dev.ferry.broker.internal.HttpForms;
import dev.ferry.bytes.ByteString;
import dev.ferry.client.internal.ChannelOutputStream;
import dev.ferry.client.internal.ReplyHandler;
import dev.ferry.mime.MediaType;
import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapVersion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import javax.xml.namespace.QName;

/**
 * The reply of one {@link Exchange}'s backend, relayed to its caller, on the loop. It is not
 * parsed: its Content-Type is checked to be SOAP and it goes back as it came. One up to
 * {@link BrokerOptions#holdBytes} is held whole first (so it goes back with a Content-Length,
 * a 5xx is judged by its fault's code, and a backend breaking in it becomes a fault); a longer
 * one streams, the backend's reading paused while the caller is slow to take it. Neither goes
 * back before the request came to its end. What cannot be relayed (a reply that is not SOAP, a
 * member failing) moves the request to another member where {@link BackendLeg} may, else ends
 * the exchange with a fault, or, once bytes of the reply went back, a reset. A route with a
 * reply stylesheet ({@link Route#replyTransform}) has its 200 replies read whole (up to
 * {@code holdBytes}), transformed on the loop, and sent back with their new length.
 */
final class ReplyRelay implements ReplyHandler.Listener {
  private final Exchange x;
  private final ChannelHandlerContext ctx;
  private boolean discard;
  private HttpResponse head;
  private long length;
  private CompositeByteBuf held;
  private boolean ended;
  private boolean streaming;
  private boolean backendPaused;
  /** Whether pieces of a streamed reply were written and not flushed yet. */
  private boolean unflushed;
  /** The bytes of the reply that came from the member being tried. */
  private long received;

  ReplyRelay(Exchange x) {
    this.x = x;
    this.ctx = x.ctx;
  }

  /** Whether a head of a reply came from the member being tried. */
  boolean started() {
    return head != null;
  }

  /** The status of the reply of the member being tried, or 0 before its head came. */
  int status() {
    return head == null ? 0 : head.status().code();
  }

  /** The bytes of the reply of the member being tried that came. */
  long received() {
    return received;
  }

  /** Whether the reply is dropped as it comes (it will not go back). */
  boolean discarded() {
    return discard;
  }

  @Override
  public void head(HttpResponse reply) {
    if (x.finished || x.answerWaiting()) {
      discard = true;
      return;
    }
    int status = reply.status().code();
    String type = reply.headers().get(HttpHeaderNames.CONTENT_TYPE);
    if (status != 202 && status != 204) {
      MediaType t = HttpForms.mediaType(type);
      if (t == null || SoapBinding.version(t) == null) {
        String why = "answered HTTP " + status + " with " + (type == null ? "no Content-Type"
            : type) + ", not SOAP";
        Exchange.LOG.log(System.Logger.Level.WARNING, "the backend " + x.leg.member.label
            + " " + why);
        x.leg.end(status, 0, null, null);
        if (x.leg.failover(why, true)) {
          return;
        }
        discard = true;
        SoapVersion version = x.version;
        x.answers.fault(Fault.of(version, version.receiverFaultCode(), "the service behind "
            + x.route.path() + " answered with something that is not SOAP"));
        return;
      }
    }
    if (!x.route.idempotent()) {
      x.leg.dropRetry(); // else kept until the reply is judged: it may go to another member
    }
    if (!x.streamedRequest()) {
      x.copy.complete(); // a streamed request's copy completes when it was sent whole
    }
    received = 0;
    length = HttpUtil.getContentLength(reply, -1L);
    head = new DefaultHttpResponse(x.request.protocolVersion(), reply.status());
    if (type != null) {
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
    }
    held = ctx.alloc().compositeBuffer(64);
  }

  /**
   * Holds the reply's first {@code holdBytes} (all of a short reply, which then goes back whole
   * with its length, and turns a break into a fault), then streams the rest as it comes; neither
   * before the request came to its end.
   */
  @Override
  public void content(ByteBuf bytes, boolean last) {
    if (discard || x.finished && !streaming) {
      if (last) {
        x.leg.done(!discard);
      }
      return;
    }
    received += bytes.readableBytes();
    if (streaming) {
      relay(bytes, last);
      return;
    }
    if (bytes.isReadable()) {
      held.addComponent(true, bytes.retain());
    }
    ended = last;
    if (last) {
      x.leg.done(true);
    }
    if (!last && held.readableBytes() <= x.cx.options().holdBytes() || x.answerWaiting()) {
      return;
    }
    if (!last && !x.requestRead()) {
      pauseBackend(); // until the request's end, then the reply streams
    }
    x.whenRequestRead(this::answer);
  }

  /** The reply goes back: whole if it ended while held, else its head and what was held. */
  private void answer() {
    if (judgedAndMoved()) {
      return;
    }
    RouteTransform t = x.route.replyTransform();
    if (t != null && head.status().code() == 200) {
      transform(t);
    } else if (ended) {
      CompositeByteBuf body = held;
      held = null;
      sendWhole(body);
    } else {
      startStreaming();
      callerWritable();
    }
  }

  /**
   * Sends the reply held whole, its payload transformed by {@code t}, or a Receiver fault if it
   * cannot be: longer than {@code holdBytes}, not readable as SOAP, or the stylesheet failed.
   */
  private void transform(RouteTransform t) {
    SoapVersion v = x.version;
    if (!ended) { // past holdBytes: a stylesheet needs the reply whole
      IOException tooLong = new IOException("the reply is over " + x.cx.options().holdBytes()
          + " bytes");
      x.leg.end(head.status().code(), received, null, tooLong);
      x.leg.detach(); // the rest is not read
      discard = true;
      release();
      x.answers.fault(Fault.of(v, v.receiverFaultCode(), "the reply of the service behind "
          + x.route.path() + " is over " + x.cx.options().holdBytes() + " bytes, the most the"
          + " route's reply transformation reads (BrokerOptions.holdBytes)"));
      return;
    }
    CompositeByteBuf body = held;
    held = null;
    byte[] bytes = ByteBufUtil.getBytes(body);
    body.release();
    MediaType type = HttpForms.mediaType(head.headers().get(HttpHeaderNames.CONTENT_TYPE));
    try (MessageBuffer buffer = x.cx.codec().read(ByteString.takeOwnership(bytes, 0,
        bytes.length), type)) {
      Message reply = buffer.toMessage();
      t.apply(reply, x.route);
      Payload p = reply.toPayload();
      ByteBuf out = HeldBytes.written(ctx.alloc(), p, bytes.length + 256);
      head.headers().set(HttpHeaderNames.CONTENT_TYPE, p.contentType());
      sendWhole(out);
    } catch (FaultException e) {
      Fault f = e.fault();
      x.answers.fault(f.code().equals(v.senderFaultCode()) // the reply's Body is the service's
          ? Fault.of(v, v.receiverFaultCode(), "the reply of the service behind "
              + x.route.path() + " cannot be transformed: " + f.reason()) : f);
    } catch (IOException | RuntimeException e) {
      x.log(e instanceof IOException io ? io : new IOException(e.toString(), e));
      x.answers.fault(Fault.of(v, v.receiverFaultCode(), "the service behind " + x.route.path()
          + " answered a reply that cannot be read"));
    }
  }

  /** Sends a reply held whole, {@code body}, with its length, in one write. */
  private void sendWhole(ByteBuf body) {
    FullHttpResponse out = new DefaultFullHttpResponse(x.request.protocolVersion(),
        head.status(), body, head.headers(), EmptyHttpHeaders.INSTANCE);
    x.bytesOut = body.readableBytes();
    if (x.bytesOut > 0 || head.status().code() != 204) {
      HttpUtil.setContentLength(out, x.bytesOut);
    }
    x.respond(out, head.status().code(), null);
  }

  /** Sends the reply's head and what was held; the rest is relayed as it comes. */
  private void startStreaming() {
    HttpResponse out = head;
    if (length >= 0) {
      HttpUtil.setContentLength(out, length);
    } else if (x.request.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
      HttpUtil.setTransferEncodingChunked(out, true);
    } else {
      x.keepAlive = false; // HTTP/1.0 without a length: the end is the connection's close
    }
    x.connectionHeader(out);
    streaming = true;
    x.answered = true;
    CompositeByteBuf first = held;
    held = null;
    x.bytesOut += first.readableBytes();
    x.messages.reply(out);
    x.messages.reply(first);
    ctx.write(out);
    ctx.writeAndFlush(new DefaultHttpContent(first));
  }

  /**
   * Judges the member by its reply: a 5xx that blames the service counts against it (and sends
   * an idempotent route's held request to the next member: returns true), anything else is a
   * success. The held request is dropped after.
   */
  private boolean judgedAndMoved() {
    int status = head.status().code();
    String code = status >= 500 ? ReplyFault.localCode(x.cx.codec(), held) : null;
    QName traced = code != null && x.traced != null
        ? new QName(x.version.receiverFaultCode().getNamespaceURI(), code) : null;
    if (status >= 500 && ReplyFault.blamesService(code)) {
      x.leg.end(status, received, traced, null); // the member's part ends here either way
      if (x.leg.failover("answered a Receiver fault (HTTP " + status + ")", true)) {
        return true;
      }
    } else {
      x.leg.attempts.succeeded();
    }
    x.faultCode = traced;
    if (ended) {
      x.leg.end(status, received, traced, null);
    }
    x.leg.dropRetry();
    return false;
  }

  private void pauseBackend() {
    Channel b = x.leg.backend;
    if (b != null && !backendPaused) {
      backendPaused = true;
      b.config().setAutoRead(false);
    }
  }

  /**
   * Passes a piece of a streamed reply on; the backend waits while the caller is slow. The
   * pieces of one read from the backend go out in one flush, at its end ({@link #readComplete}):
   * a backend that sends small chunks would otherwise cost a write to the socket per chunk.
   */
  private void relay(ByteBuf bytes, boolean last) {
    x.bytesOut += bytes.readableBytes();
    x.messages.reply(bytes);
    if (!last) {
      ctx.write(new DefaultHttpContent(bytes.retain()));
      unflushed = true;
      if (!ctx.channel().isWritable()) {
        pauseBackend();
      }
      return;
    }
    unflushed = false;
    x.leg.done(true);
    x.leg.end(head.status().code(), received, null, null);
    ChannelFuture written = ctx.writeAndFlush(new DefaultLastHttpContent(bytes.retain()));
    x.finish(head.status().code(), null);
    written.addListener(f -> x.replied(f.isSuccess()));
  }

  /** The caller can take more: the backend may send on (not while the answer waits). */
  void callerWritable() {
    if (backendPaused && ctx.channel().isWritable() && !x.answerWaiting()) {
      backendPaused = false;
      Channel b = x.leg.backend;
      if (b != null) {
        b.config().setAutoRead(true);
      }
    }
  }

  @Override
  public void readComplete() {
    if (unflushed) {
      unflushed = false;
      ctx.flush();
    }
  }

  @Override
  public boolean paused() {
    return backendPaused; // waiting for the caller is not the backend's silence
  }

  @Override
  public void writabilityChanged() {
    ChannelOutputStream out = x.leg.output;
    if (out != null) {
      out.writabilityChanged();
    }
  }

  @Override
  public void failed(IOException cause) {
    BackendLeg leg = x.leg;
    if (leg.retried(cause)) {
      return;
    }
    leg.end(status(), received, null, cause);
    if (leg.failover(BackendLeg.describe(cause), !(cause instanceof java.net.ConnectException))) {
      return;
    }
    leg.dropRetry();
    ChannelOutputStream out = leg.output;
    if (out != null) {
      out.fail(cause);
    }
    Channel b = leg.backend;
    if (b != null) {
      b.close();
    }
    release();
    if (x.finished) {
      return;
    }
    x.copy.discard();
    x.log(cause);
    if (x.answered) {
      x.abortCaller("aborted mid-reply: " + cause.getMessage());
    } else {
      x.answers.fault(Forwarding.failed(x.version, x.route, cause));
    }
  }

  /** Drops what came of a reply that will not go back (its member failed). */
  void forget() {
    head = null;
    received = 0;
    ended = false;
    discard = false;
    release();
  }

  /** Gives back what is held of the reply. */
  void release() {
    if (held != null) {
      held.release();
      held = null;
    }
  }
}
