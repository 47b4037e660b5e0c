package dev.ferry.broker;

import dev.ferry.broker.internal.HeldBytes;
import dev.ferry.broker.internal.HttpForms;
import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.DecodeException;
import dev.ferry.client.internal.ChannelInputStream;
import dev.ferry.mime.MediaType;
import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapVersion;
import dev.ferry.tracing.internal.SoapSpans;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * One request through the broker and its reply: the one path every request takes, whatever its
 * size. Everything but the parse of a streamed request runs on the caller connection's event
 * loop, which the backend connection shares, so no thread waits and no byte changes threads.
 * This class is the caller's side: it takes the request, chooses its route and member, and
 * answers; {@link BackendLeg} sends the request to the member (and on to the next one where it
 * may), {@link ReplyRelay} brings the reply back, {@link Answers} makes what the broker answers
 * itself (faults, refusals, health and metrics), {@link WsdlFetch} answers {@code ?wsdl}.
 *
 * <p>The request: one up to {@link BrokerOptions#holdBytes} is held whole, read, routed and
 * changed on the loop, and sent on in one write, a multipart one as the changed envelope with
 * the caller's bytes before it, then the caller's own buffers after it
 * ({@link Message#spliceInto}). A chunked one is held until it ends or grows past
 * {@code holdBytes}, when what was held streams first. A longer one is
 * read as it arrives by a virtual thread, which sends the changed envelope and streams the
 * attachments on behind it (chunked), never holding them whole.
 *
 * <p>Failures before the reply starts are SOAP faults; once bytes of the reply went back, a
 * failure resets the caller's connection, so the caller always sees a broken transfer, never a
 * clean end of a short message (HTTP/1.0 callers too). A caller is answered only once its
 * request came to its end (the rest of a refused one is dropped, up to a bound).
 *
 * <p>When the broker traces, a SOAP POST is a server span, a child of the context the caller
 * sent, named after the Body's element once a route took it; each member tried is a client
 * span under it ({@link BackendLeg}). When it does not, no span or context is made.
 */
final class Exchange {
  /** Room kept before a held request's bytes for a grown envelope to splice into. */
  static final int HEADROOM = HeldBytes.HEADROOM;
  /**
   * The most of a request's rest dropped before its answer goes out anyway (and the connection
   * closes): a fault for a large upload does not wait for all of it.
   */
  private static final int DROP_BYTES = 1024 * 1024;
  /** Bytes of a streamed request waiting to be parsed beyond this stop the caller's reading. */
  private static final int PAUSE_BYTES = 256 * 1024;
  static final System.Logger LOG = System.getLogger("dev.ferry.broker");
  /** The paths the broker answers itself, whatever the routes say. */
  static final Set<String> OWN_PATHS = Set.of("/health", "/health/live", "/health/ready",
      "/health/started", "/metrics");

  final BrokerContext cx;
  private final CallerHandler caller;
  final ChannelHandlerContext ctx;
  final EventLoop loop;
  final HttpRequest request;
  final String path;
  private final long start = System.nanoTime();
  boolean keepAlive;

  private String contentType;
  private MediaType type;
  SoapVersion version = SoapVersion.SOAP_11;
  String soapAction;
  private List<ByteBuf> held;
  private int heldBytes;
  private ChannelInputStream streamed;
  private boolean requestRead;
  /** The answer, waiting for the request's end (a caller is never answered mid-request). */
  private Runnable pendingAnswer;
  /** Whether the rest of the request is dropped, and how much of it was. */
  private boolean dropping;
  private long dropped;
  private long bytesIn;

  /** The routes this exchange uses from start to end, whatever the broker swaps in meanwhile. */
  final RouteSet set;
  volatile Route route;
  volatile Audit.Copy copy = Audit.NONE;
  final ReplyRelay reply;
  final BackendLeg leg;
  final Answers answers;
  private boolean admitted;
  /** The share of the route's limits this exchange holds, given back as it ends. */
  private volatile RouteLimiter.Permit permit;
  private volatile boolean ended;

  boolean answered;
  long bytesOut;
  boolean finished;

  /** The server span's context; null when not traced. */
  volatile Context traced;
  /** The operation, as the client spans name it: the Body element's namespace and name. */
  volatile String service;
  volatile String operation;
  /** The code of the fault answered, for the server span (set only when traced). */
  volatile QName faultCode;
  /** What cut the exchange short, for the server span (set only when traced). */
  private Throwable failure;
  /** The request and its answer as the message log sees them (a POST's only). */
  ExchangeMessages messages = ExchangeMessages.OFF;

  Exchange(BrokerContext cx, CallerHandler caller, ChannelHandlerContext ctx, HttpRequest request) {
    this.cx = cx;
    this.caller = caller;
    this.ctx = ctx;
    this.loop = ctx.channel().eventLoop();
    this.request = request;
    this.set = cx.enterRoutes();
    this.path = new QueryStringDecoder(request.uri()).path();
    this.keepAlive = HttpUtil.isKeepAlive(request);
    this.reply = new ReplyRelay(this);
    this.leg = new BackendLeg(this);
    this.answers = new Answers(this);
  }

  // ---- the request ----

  /** Looks at the request's head: answers what is not a SOAP POST, or starts taking its body. */
  void start() {
    if (request.decoderResult().isFailure()) {
      answers.plain(HttpResponseStatus.BAD_REQUEST, "malformed request: "
          + request.decoderResult().cause().getMessage());
      return;
    }
    HttpMethod method = request.method();
    if (OWN_PATHS.contains(path)) {
      answers.own(method);
      return;
    }
    if (HttpMethod.GET.equals(method) && "wsdl".equalsIgnoreCase(HttpForms.query(request.uri()))) {
      new WsdlFetch(this).start();
      return;
    }
    if (!HttpMethod.POST.equals(method)) {
      answers.notAllowed("SOAP endpoints take POST (or GET ?wsdl)");
      return;
    }
    if (cx.tracing().on()) {
      traced = cx.tracing().startServer(request.headers(), path, cx.scheme(), remoteHost());
    }
    messages = ExchangeMessages.open(cx.messageLog(), request, ctx.channel().remoteAddress());
    String coding = HttpForms.unknownTransferCoding(request.headers());
    if (coding != null) { // RFC 9112: not read as if it were the message
      answers.plain(HttpResponseStatus.NOT_IMPLEMENTED, "Transfer-Encoding " + coding
          + " is not implemented: send the message with chunked or a Content-Length only");
      return;
    }
    contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
    type = HttpForms.mediaType(contentType);
    SoapVersion v = type == null ? null : SoapBinding.version(type);
    if (v == null) {
      answers.plain(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "expected text/xml (SOAP 1.1),"
          + " application/soap+xml (SOAP 1.2) or multipart/related, got " + contentType);
      return;
    }
    String encoding = request.headers().get(HttpHeaderNames.CONTENT_ENCODING);
    if (encoding != null && !encoding.equalsIgnoreCase("identity")) {
      answers.plain(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Encoding " + encoding
          + " is not accepted: send the message uncompressed");
      return;
    }
    version = v;
    soapAction = SoapBinding.soapAction(request.headers().get("SOAPAction"), type);
    long expected = HttpUtil.getContentLength(request, -1L);
    if (expected <= cx.options().holdBytes()) { // chunked (-1): held until it outgrows that
      held = new ArrayList<>(4);
    } else {
      stream();
    }
  }

  /** Streams the request: a virtual thread reads it as it arrives. */
  private void stream() {
    streamed = new ChannelInputStream(ctx.channel(), PAUSE_BYTES);
    Thread.ofVirtual().name("ferry-broker-exchange").start(this::forwardStreamed);
  }

  /**
   * A chunked request held so far that grew past {@code holdBytes} streams from here on: what
   * was held goes first, in order, handed over with its references.
   */
  private void streamWhatWasHeld() {
    List<ByteBuf> source = held;
    held = null;
    stream();
    source.forEach(streamed::offer);
  }

  /** Whether the request streams (read by its own thread) rather than being held. */
  boolean streamedRequest() {
    return streamed != null;
  }

  /** Takes a piece of the request's body; the caller's handler releases {@code c} after. */
  void content(HttpContent c) {
    ByteBuf b = c.content();
    int n = b.readableBytes();
    bytesIn += n;
    boolean last = c instanceof LastHttpContent;
    messages.request(b); // as it came, before it is held or streamed
    if (last) {
      messages.requestEnded();
    }
    if (held != null && n > cx.options().holdBytes() - heldBytes) {
      streamWhatWasHeld();
    }
    if (held != null) {
      if (n > 0) {
        held.add(b.retain());
        heldBytes += n;
      }
    } else if (streamed != null) {
      if (n > 0) {
        streamed.offer(b.retain()); // dropped by a closed stream
      }
      if (last) {
        streamed.end();
      }
    }
    if (dropping && pendingAnswer != null && (dropped += n) > DROP_BYTES) {
      keepAlive = false; // the rest is not worth reading: answer, then close
      answerNow();
    }
    if (last) {
      requestRead = true;
      if (held != null) {
        forwardHeld();
      }
      answerNow();
    }
  }

  /**
   * Answers with {@code answer} once the request came to its end: many HTTP/1.1 clients read
   * the answer only once they have sent everything, and one that is answered (and disconnected)
   * mid-request fails writing instead of reading the answer. Until then the rest is dropped.
   */
  void whenRequestRead(Runnable answer) {
    if (pendingAnswer != null || finished) {
      return; // the first answer decided stands
    }
    if (requestRead) {
      answer.run();
      return;
    }
    pendingAnswer = answer;
  }

  /** Whether an answer waits for the request's end. */
  boolean answerWaiting() {
    return pendingAnswer != null;
  }

  /**
   * As {@link #whenRequestRead}, for an answer that refuses the request: the rest of it is
   * dropped as it comes, and after {@link #DROP_BYTES} of it the answer goes anyway.
   */
  void refuse(Runnable answer) {
    if (pendingAnswer != null || finished) {
      return;
    }
    dropping = true;
    if (streamed != null) {
      streamed.close();
    }
    if (held != null) {
      held.forEach(ByteBuf::release);
      held = null;
    }
    whenRequestRead(answer);
  }

  private void answerNow() {
    Runnable a = pendingAnswer;
    pendingAnswer = null;
    if (a != null) {
      a.run();
    }
  }

  /** Whether the whole request came. */
  boolean requestRead() {
    return requestRead;
  }

  /** The request is taken as read whole (a GET, which has no body to wait for). */
  void requestReadNow() {
    requestRead = true;
  }

  /** A held request came whole: read, route, change and send it on, all on the loop. */
  private void forwardHeld() {
    List<ByteBuf> source = held;
    held = null;
    byte[] body = HeldBytes.gather(source, heldBytes);
    try (MessageBuffer buffer = cx.codec().read(
        ByteString.takeOwnership(body, HEADROOM, heldBytes), type)) {
      Message message = buffer.toMessage();
      version = message.version();
      Route r = set.forwarding().prepare(request, path, message, soapAction);
      if (r == null) {
        answers.fault(Forwarding.noRoute(path, message, soapAction));
        return;
      }
      route = r;
      named(message);
      if (r.fault() != null) {
        answers.fault(r.fault().toFault(version));
        return;
      }
      if (!withinLimits(set.limit(r, callerName())) || !pickMember() || !admit()) {
        return;
      }
      copy = cx.audit().open(r);
      leg.sendHeld(outgoing(message, body, source));
    } catch (IOException e) {
      copy.discard();
      answers.fault(route == null && e instanceof DecodeException d
          ? Fault.forBadInput(version, d)
          : e instanceof FaultException f ? f.fault() : Forwarding.failed(version, route, e));
    } finally {
      source.forEach(ByteBuf::release);
    }
  }

  /**
   * The caller's bytes around the changed envelope where that can be done (not with an audit
   * copy, which tees what is written out), else the message written out whole. {@code body}
   * holds a copy of {@code source}, the request's buffers as they came, behind
   * {@link #HEADROOM} bytes of room.
   */
  private BackendLeg.Outgoing outgoing(Message message, byte[] body, List<ByteBuf> source)
      throws IOException {
    if (route.audit() == null) {
      ByteBuffer head = message.spliceInto(body, HEADROOM, heldBytes);
      if (head != null) {
        return new BackendLeg.Outgoing(contentType, HeldBytes.spliced(ctx.alloc(), head,
            source));
      }
    }
    Payload payload = copy.wrap(message.toPayload());
    return new BackendLeg.Outgoing(payload.contentType(),
        HeldBytes.written(ctx.alloc(), payload, heldBytes + HEADROOM));
  }

  /**
   * Names the operation a route took, if traced: the Body's element (namespace and local name),
   * else the request's wsa:Action or SOAPAction. Read from the envelope's index, never built.
   */
  private void named(Message message) {
    Context t = traced;
    if (t == null) {
      return;
    }
    QName element = message.buffer().bodyElement();
    if (element != null) {
      service = element.getNamespaceURI();
      operation = element.getLocalPart();
    } else {
      String action = message.addressing().action();
      operation = action != null ? action : soapAction;
    }
    SoapSpans.operation(Span.fromContext(t), service, operation);
  }

  /** The caller's address, as the server span names it. */
  private String remoteHost() {
    return ctx.channel().remoteAddress() instanceof InetSocketAddress a
        ? a.getAddress().getHostAddress() : null;
  }

  /**
   * Who the caller is for its route's limits: its authenticated name, else its address (an
   * authenticated name and an address never share a limit: they are told apart by a prefix).
   */
  private String callerName() {
    Principal who = CallerRequest.of(request);
    if (who != null) {
      return "id:" + who.getName();
    }
    return ctx.channel().remoteAddress() instanceof InetSocketAddress a
        ? "ip:" + a.getAddress().getHostAddress() : "ip:" + ctx.channel().remoteAddress();
  }

  /**
   * Keeps {@code taken}'s permit, or answers its refusal ({@link Answers#limited}). Returns
   * whether the request may go on.
   */
  private boolean withinLimits(RouteLimiter.Taken taken) {
    if (taken instanceof RouteLimiter.Permit p) {
      hold(p);
      return true;
    }
    answers.limited((RouteLimiter.Refusal) taken);
    return false;
  }

  /** Holds {@code p} until the exchange ends (at once if it has). */
  private void hold(RouteLimiter.Permit p) {
    permit = p;
    if (ended) {
      p.release();
    }
  }

  /**
   * The members the request may try; false, with the caller answered, if every member of the
   * route's group is suspended.
   */
  private boolean pickMember() {
    if (leg.pick()) {
      return true;
    }
    answers.allSuspended(leg.attempts.backends());
    return false;
  }

  private boolean admit() {
    if (!cx.admit()) {
      answers.busy();
      return false;
    }
    admitted = true;
    return true;
  }

  /**
   * A streamed request, on its own virtual thread: reads the envelope as it arrives, routes and
   * changes it, and streams the message on to the backend; the reply is relayed by the loop.
   */
  private void forwardStreamed() {
    try (MessageBuffer buffer = cx.codec().read(streamed, type)) {
      messages.requestRead(); // the envelope went by; the attachments follow as they come
      Message message = buffer.toMessage();
      version = message.version();
      Route r = set.forwarding().prepare(request, path, message, soapAction);
      if (r == null) {
        onLoop(() -> answers.fault(Forwarding.noRoute(path, message, soapAction)));
        return;
      }
      route = r;
      named(message);
      if (r.fault() != null) {
        onLoop(() -> answers.fault(r.fault().toFault(version)));
        return;
      }
      RouteLimiter.Taken taken = set.limit(r, callerName());
      if (taken instanceof RouteLimiter.Refusal no) {
        onLoop(() -> withinLimits(no));
        return;
      }
      hold((RouteLimiter.Permit) taken);
      if (!leg.pick()) {
        Backends group = leg.attempts.backends();
        onLoop(() -> answers.allSuspended(group));
        return;
      }
      if (!cx.admit()) {
        onLoop(answers::busy);
        return;
      }
      onLoop(() -> admitted = true);
      copy = cx.audit().open(r);
      leg.sendStreamed(message);
      copy.complete();
    } catch (IOException | RuntimeException e) {
      leg.abortOutput(e);
      copy.discard();
      IOException io = e instanceof IOException x ? x : new IOException(e.toString(), e);
      onLoop(() -> {
        leg.end(0, 0, null, io);
        leg.detach(); // the cause is this failure, not the close
        if (io instanceof MemberOutput.Failed && !finished) {
          leg.attempts.failed("sending the request failed: " + io.getCause());
        }
        streamFailed(io);
      });
      return;
    }
    drainRequest();
  }

  /**
   * Reads what follows the message in the request (a line end, an epilogue), within a bound:
   * the answer waits for the request's end. A caller that sends more, or never ends its
   * request, is left to the request timeout.
   */
  private void drainRequest() {
    InputStream in = streamed;
    byte[] skip = new byte[4096];
    int max = cx.codec().limits().xop().mime().maxEpilogueBytes();
    try {
      for (int left = max, n; left > 0; left -= n) {
        n = in.read(skip, 0, Math.min(skip.length, left));
        if (n < 0) {
          return;
        }
      }
    } catch (IOException e) {
      // the caller's connection broke or the exchange was answered: nothing left to do here
    }
  }

  /** On the loop: a streamed request failed while read or sent. */
  private void streamFailed(IOException e) {
    if (finished) {
      return;
    }
    if (answered) {
      abortCaller("request broken mid-reply: " + e.getMessage());
      return;
    }
    if (e instanceof FaultException f) {
      answers.fault(f.fault());
    } else if (route == null && e instanceof DecodeException d) {
      answers.fault(Fault.forBadInput(version, d));
    } else if (route == null) {
      abortCaller("request broken: " + e.getMessage());
    } else {
      log(e);
      answers.fault(Forwarding.failed(version, route, e));
    }
  }

  /** The caller can take more: the backend may send on. */
  void callerWritable() {
    reply.callerWritable();
  }

  void log(IOException cause) {
    Backends.Backend m = leg.member;
    LOG.log(System.Logger.Level.WARNING, "exchange on " + (route == null ? path : route.name())
        + " with " + (m == null ? "no backend" : m.label) + " failed: " + cause);
  }

  // ---- answers ----

  /** Counts the exchange, then writes {@code out}, the whole answer. */
  void respond(FullHttpResponse out, int status, String why) {
    answered = true;
    connectionHeader(out);
    messages.reply(out);
    messages.reply(out.content()); // seen before the write, which may release it
    // counted and logged once the answer is on its way, not on the caller's wait; the next
    // exchange starts after that (its listener is added after)
    ChannelFuture written = ctx.writeAndFlush(out);
    finish(status, why);
    written.addListener(f -> replied(f.isSuccess()));
  }

  /** The answer is out: the connection takes the next request, or closes. */
  void replied(boolean ok) {
    caller.exchangeDone(this, keepAlive && ok && requestRead);
  }

  void connectionHeader(HttpResponse out) {
    if (!requestRead) {
      keepAlive = false; // answered before the request's end: the rest is not read
    }
    if (cx.draining()) {
      keepAlive = false; // the caller's next call goes to a connection that stays
    }
    if (!keepAlive) {
      out.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    } else if (request.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
      out.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
    }
  }

  /**
   * Ends the exchange by resetting the caller's connection: the caller sees a broken transfer,
   * whatever its framing, never a clean end of a message cut short.
   */
  void abortCaller(String why) {
    if (traced != null) {
      failure = new IOException(why);
    }
    finish(answered ? 200 : 502, why);
    if (ctx.channel().isActive()) {
      ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
      ctx.close();
    }
    caller.exchangeDone(this, false);
  }

  /** The caller closed its connection: whatever is in flight is dropped. */
  void callerGone() {
    if (streamed != null) {
      streamed.fail(new IOException("the caller closed the connection"));
    }
    leg.detach(); // not the member's failure
    if (held != null) {
      held.forEach(ByteBuf::release);
      held = null;
    }
    finish(answered ? 200 : 499, "the caller went away");
  }

  /** Counts the exchange in the metrics and the access log, once. */
  void finish(int status, String why) {
    if (finished) {
      return;
    }
    finished = true;
    ended = true;
    messages.finish();
    RouteLimiter.Permit p = permit;
    if (p != null) {
      p.release();
    }
    reply.release();
    leg.dropRetry();
    long nanos = System.nanoTime() - start;
    if (admitted) {
      cx.release();
    }
    Route r = route;
    cx.metrics().finished(r == null ? BrokerMetrics.NONE : r.name(), status, nanos, bytesIn,
        bytesOut, admitted);
    Backends.Backend m = leg.member;
    Context t = traced;
    if (t == null) {
      AccessLog.line(ctx.channel().remoteAddress(), request.method().name(), request.uri(),
          status, bytesIn, bytesOut, nanos, m == null ? null : m.label, why);
    } else {
      endSpans(t, status, why);
      try (Scope s = t.makeCurrent()) { // the line carries the trace and span ids
        AccessLog.line(ctx.channel().remoteAddress(), request.method().name(), request.uri(),
            status, bytesIn, bytesOut, nanos, m == null ? null : m.label, why);
      }
    }
    set.leave(); // the last exchange of a reloaded-away set closes it
  }

  /** Ends the member's span if it is still open (the caller went away), then the server's. */
  private void endSpans(Context t, int status, String why) {
    if (leg.attemptOpen()) {
      leg.end(reply.status(), reply.received(), null, reply.started() ? null
          : new IOException("the exchange ended before the member answered: " + why));
    }
    Span span = Span.fromContext(t);
    SoapSpans.message(span, version, -1);
    SoapSpans.endServer(span, status, bytesIn, bytesOut, faultCode, failure);
  }

  private void onLoop(Runnable task) {
    loop.execute(task);
  }
}
