package dev.ferry.broker;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.DecodeException;
import dev.ferry.client.internal.ChannelInputStream;
import dev.ferry.client.internal.ChannelOutputStream;
import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.ReplyHandler;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.soap.Fault;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapVersion;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One request through the broker and its reply: the one path every request takes, whatever its
 * size. Everything but the parse of a streamed request runs on the caller connection's event
 * loop, which the backend connection shares, so no thread waits and no byte changes threads.
 *
 * <p>The request: one up to {@link BrokerOptions#holdBytes} is held whole, read, routed and
 * changed on the loop, and sent on in one write, a multipart one as the changed envelope with
 * the caller's bytes before it, then the caller's own buffers after it
 * ({@link Message#spliceInto}). A chunked one is held until it ends or grows past
 * {@code holdBytes}, when what was held streams first. A longer one is
 * read as it arrives by a virtual thread, which sends the changed envelope and streams the
 * attachments on behind it (chunked), never holding them whole.
 *
 * <p>The reply is not parsed: its Content-Type is checked to be SOAP and it goes back as it came.
 * One up to {@code holdBytes} is held whole first (so it goes back with a Content-Length, and a
 * backend breaking in it becomes a fault); a longer one streams, the backend's reading paused
 * while the caller is slow to take it. Failures before the reply starts are SOAP faults; once
 * bytes of the reply went back, a failure resets the caller's connection, so the caller always
 * sees a broken transfer, never a clean end of a short message (HTTP/1.0 callers too).
 */
final class Exchange implements ReplyHandler.Listener {
  /** Room kept before a held request's bytes for a grown envelope to splice into. */
  static final int HEADROOM = 1024;
  /**
   * The most of a request's rest dropped before its answer goes out anyway (and the connection
   * closes): a fault for a large upload does not wait for all of it.
   */
  private static final int DROP_BYTES = 1024 * 1024;
  /** Bytes of a streamed request waiting to be parsed beyond this stop the caller's reading. */
  private static final int PAUSE_BYTES = 256 * 1024;
  /** The chunks a streamed request goes to its backend in. */
  private static final int CHUNK_BYTES = 64 * 1024;
  /** The largest WSDL fetched from a backend. */
  private static final int MAX_WSDL_BYTES = 4 * 1024 * 1024;
  private static final System.Logger LOG = System.getLogger("dev.ferry.broker");
  /**
   * The W3C trace context and baggage: passed on to the backend as they came, so that a trace
   * crosses the broker (whose own spans are not made yet) with its parent links whole.
   */
  private static final List<String> TRACE_HEADERS = List.of("traceparent", "tracestate",
      "baggage");
  /** The paths the broker answers itself, whatever the routes say. */
  static final Set<String> OWN_PATHS = Set.of("/health", "/health/live", "/health/ready",
      "/health/started", "/metrics");

  private final BrokerContext cx;
  private final CallerHandler caller;
  private final ChannelHandlerContext ctx;
  private final EventLoop loop;
  private final HttpRequest request;
  private final String path;
  private final long start = System.nanoTime();
  private boolean keepAlive;

  private String contentType;
  private MediaType type;
  private SoapVersion version = SoapVersion.SOAP_11;
  private String soapAction;
  private List<ByteBuf> held;
  private int heldBytes;
  private long expected;
  private ChannelInputStream streamed;
  private boolean requestRead;
  /** The answer, waiting for the request's end (a caller is never answered mid-request). */
  private Runnable pendingAnswer;
  /** Whether the rest of the request is dropped, and how much of it was. */
  private boolean dropping;
  private long dropped;
  private long bytesIn;

  /** The routes this exchange uses from start to end, whatever the broker swaps in meanwhile. */
  private final RouteSet set;
  private volatile Route route;
  private volatile Audit.Copy copy = Audit.NONE;
  /** The members this request may try, and the one it is on. */
  private volatile Attempts attempts;
  private volatile Channel backend;
  private volatile Backends.Backend member;
  private volatile ChannelOutputStream backendOut;
  private volatile boolean requestSent;
  private boolean admitted;
  /**
   * A held request kept for sending again (on a new connection, or to another member) until
   * its reply is judged; each send writes a duplicate of it.
   */
  private Outgoing retry;
  /** Whether the held request was sent again on a new connection to the same member. */
  private boolean staleRetried;
  /** The share of the route's limits this exchange holds, given back as it ends. */
  private volatile RouteLimiter.Permit permit;
  private volatile boolean ended;

  private boolean answered;
  private boolean discardReply;
  private CompositeByteBuf replyHeld;
  private boolean replyStreaming;
  private boolean backendPaused;
  private long bytesOut;
  private String note;
  private boolean finished;

  Exchange(BrokerContext cx, CallerHandler caller, ChannelHandlerContext ctx, HttpRequest request) {
    this.cx = cx;
    this.caller = caller;
    this.ctx = ctx;
    this.loop = ctx.channel().eventLoop();
    this.request = request;
    this.set = cx.enterRoutes();
    this.path = new QueryStringDecoder(request.uri()).path();
    this.keepAlive = HttpUtil.isKeepAlive(request);
  }

  // ---- the request ----

  /** Looks at the request's head: answers what is not a SOAP POST, or starts taking its body. */
  void start() {
    if (request.decoderResult().isFailure()) {
      plain(HttpResponseStatus.BAD_REQUEST, "malformed request: "
          + request.decoderResult().cause().getMessage());
      return;
    }
    HttpMethod method = request.method();
    if (OWN_PATHS.contains(path)) {
      own(method);
      return;
    }
    if (HttpMethod.GET.equals(method) && "wsdl".equalsIgnoreCase(query())) {
      new WsdlFetch().start();
      return;
    }
    if (!HttpMethod.POST.equals(method)) {
      notAllowed("SOAP endpoints take POST (or GET ?wsdl)");
      return;
    }
    String coding = unknownTransferCoding();
    if (coding != null) { // RFC 9112: not read as if it were the message
      plain(HttpResponseStatus.NOT_IMPLEMENTED, "Transfer-Encoding " + coding + " is not"
          + " implemented: send the message with chunked or a Content-Length only");
      return;
    }
    contentType = request.headers().get(HttpHeaderNames.CONTENT_TYPE);
    type = mediaType(contentType);
    SoapVersion v = type == null ? null : SoapBinding.version(type);
    if (v == null) {
      plain(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "expected text/xml (SOAP 1.1),"
          + " application/soap+xml (SOAP 1.2) or multipart/related, got " + contentType);
      return;
    }
    String encoding = request.headers().get(HttpHeaderNames.CONTENT_ENCODING);
    if (encoding != null && !encoding.equalsIgnoreCase("identity")) {
      plain(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Encoding " + encoding
          + " is not accepted: send the message uncompressed");
      return;
    }
    version = v;
    soapAction = SoapBinding.soapAction(request.headers().get("SOAPAction"), type);
    expected = HttpUtil.getContentLength(request, -1L);
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

  /** The first transfer coding of the request other than chunked, or null. */
  private String unknownTransferCoding() {
    for (String value : request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING)) {
      for (String coding : value.split(",")) {
        String c = coding.strip();
        if (!c.isEmpty() && !c.equalsIgnoreCase("chunked")) {
          return c;
        }
      }
    }
    return null;
  }

  private String query() {
    String uri = request.uri();
    int q = uri.indexOf('?');
    return q < 0 ? null : uri.substring(q + 1);
  }

  private static MediaType mediaType(String contentType) {
    try {
      return contentType == null ? null : MediaType.parse(contentType);
    } catch (MimeException e) {
      return null;
    }
  }

  /** Takes a piece of the request's body; the caller's handler releases {@code c} after. */
  void content(HttpContent c) {
    ByteBuf b = c.content();
    int n = b.readableBytes();
    bytesIn += n;
    boolean last = c instanceof LastHttpContent;
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
  private void whenRequestRead(Runnable answer) {
    if (pendingAnswer != null || finished) {
      return; // the first answer decided stands
    }
    if (requestRead) {
      answer.run();
      return;
    }
    pendingAnswer = answer;
  }

  /**
   * As {@link #whenRequestRead}, for an answer that refuses the request: the rest of it is
   * dropped as it comes, and after {@link #DROP_BYTES} of it the answer goes anyway.
   */
  private void refuse(Runnable answer) {
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

  /** A held request came whole: read, route, change and send it on, all on the loop. */
  private void forwardHeld() {
    List<ByteBuf> source = held;
    held = null;
    byte[] body = new byte[HEADROOM + heldBytes];
    int at = HEADROOM;
    for (ByteBuf b : source) {
      int n = b.readableBytes();
      b.getBytes(b.readerIndex(), body, at, n);
      at += n;
    }
    try (MessageBuffer buffer = cx.codec().read(
        ByteString.takeOwnership(body, HEADROOM, heldBytes), type)) {
      Message message = buffer.toMessage();
      version = message.version();
      Route r = set.forwarding().prepare(request, path, message, soapAction);
      if (r == null) {
        fault(Forwarding.noRoute(path, message, soapAction));
        return;
      }
      route = r;
      if (r.fault() != null) {
        fault(r.fault().toFault(version));
        return;
      }
      if (!withinLimits(set.limit(r, callerName())) || !pickMember() || !admit()) {
        return;
      }
      copy = cx.audit().open(r);
      Outgoing out = outgoing(message, body, source);
      sendHeld(out);
    } catch (IOException e) {
      copy.discard();
      fault(route == null && e instanceof DecodeException d ? Fault.forBadInput(version, d)
          : e instanceof FaultException f ? f.fault() : Forwarding.failed(version, route, e));
    } finally {
      source.forEach(ByteBuf::release);
    }
  }

  /** What goes to the backend: a held request's bytes and their Content-Type. */
  private record Outgoing(String contentType, ByteBuf bytes) {}

  /**
   * The caller's bytes around the changed envelope where that can be done (not with an audit
   * copy, which tees what is written out), else the message written out whole. {@code body}
   * holds a copy of {@code source}, the request's buffers as they came, behind
   * {@link #HEADROOM} bytes of room.
   */
  private Outgoing outgoing(Message message, byte[] body, List<ByteBuf> source)
      throws IOException {
    if (route.audit() == null) {
      ByteBuffer head = message.spliceInto(body, HEADROOM, heldBytes);
      if (head != null) {
        return new Outgoing(contentType, spliced(head, source));
      }
    }
    Payload payload = copy.wrap(message.toPayload());
    // written where the socket takes it from: a direct buffer, so Netty copies it no more
    ByteBuf out = ctx.alloc().directBuffer(heldBytes + HEADROOM);
    try {
      payload.writeTo(new ByteBufOutputStream(out));
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    return new Outgoing(payload.contentType(), out);
  }

  /**
   * The spliced package's head (up to the changed envelope's end, a few hundred bytes more than
   * the envelope), copied where the socket takes it from, then the rest as the caller's own
   * buffers: the attachments go on from where they came in, not copied.
   */
  private ByteBuf spliced(ByteBuffer head, List<ByteBuf> source) {
    CompositeByteBuf out = ctx.alloc().compositeDirectBuffer(source.size() + 1);
    out.addComponent(true, ctx.alloc().directBuffer(head.remaining()).writeBytes(head));
    int skip = head.limit() - HEADROOM; // the source's bytes up to the old envelope's end
    for (ByteBuf b : source) {
      int n = b.readableBytes();
      if (skip < n) {
        out.addComponent(true, b.retainedSlice(b.readerIndex() + skip, n - skip));
      }
      skip = Math.max(0, skip - n);
    }
    return out;
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
   * Keeps {@code taken}'s permit, or answers its refusal: {@code Retry-After} and a fault naming
   * the limit, 503 and Receiver for the route's limits, 429 and Sender for a caller's own (or
   * the status the SOAP binding gives the fault, if the route says so). Returns whether the
   * request may go on.
   */
  private boolean withinLimits(RouteLimiter.Taken taken) {
    if (taken instanceof RouteLimiter.Permit p) {
      hold(p);
      return true;
    }
    RouteLimiter.Refusal no = (RouteLimiter.Refusal) taken;
    cx.metrics().limited(route.name(), no.limit());
    Fault f = Fault.of(version, no.callers() ? version.senderFaultCode()
        : version.receiverFaultCode(), "too many requests: " + no.reason() + " (RouteLimits."
        + no.limit() + "); try again in " + no.retryAfterSeconds() + " s");
    int status = route.limits().soapStatus() ? SoapBinding.status(f) : no.status();
    refuse(() -> respondWith(f, status, Long.toString(no.retryAfterSeconds())));
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
    Attempts a = set.backends(route).attempts(route.idempotent());
    attempts = a;
    if (a.next() != null) {
      return true;
    }
    allSuspended(a.backends());
    return false;
  }

  /**
   * Sends a held request to its member on a pooled connection. If that connection's peer had
   * just closed it (no byte of a reply came), it goes once more on a new one: the request was
   * not seen. If the member fails in a way that lets the request move ({@link Attempts}), it
   * goes to the next member.
   */
  private void sendHeld(Outgoing out) {
    retry = out; // kept until the reply is judged
    send(set.connections(route).acquire(attempts.current().origin, loop));
  }

  /** Sends a duplicate of the held request on the connection {@code connecting} makes. */
  private void send(ChannelFuture connecting) {
    Backends.Backend m = attempts.current();
    connecting.addListener((ChannelFuture f) -> {
      if (!f.isSuccess()) {
        failed(connectFailure(f.cause()));
        return;
      }
      Channel ch = f.channel();
      Outgoing out = retry;
      if (out == null || finished) { // answered meanwhile (the caller went away)
        ch.close();
        return;
      }
      attach(ch, m);
      ByteBuf bytes = out.bytes().retainedDuplicate();
      HttpHeaders h = backendHeaders(out.contentType(), m.url());
      h.setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.readableBytes());
      ch.writeAndFlush(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
          target(m.url()), bytes, h, EmptyHttpHeaders.INSTANCE)).addListener(w -> {
            if (w.isSuccess()) {
              requestSent = true;
            } else if (backend == ch) {
              HttpConnections.replies(ch).expect(null); // told here, not by its close
              ch.close();
              failed(new IOException("the connection closed before the request went out",
                  w.cause()));
            }
          });
    });
  }

  /** Sends the held request again on a new connection to the same member, if this allows it. */
  private boolean retried(IOException cause) {
    Channel b = backend;
    if (retry == null || staleRetried || b == null || !HttpConnections.reused(b)
        || replyHead != null || cause instanceof java.net.SocketTimeoutException || finished) {
      return false;
    }
    staleRetried = true; // once
    detachBackend();
    send(set.connections(route).connect(attempts.current().origin, loop));
    return true;
  }

  /**
   * The member failed ({@code why}; {@code reached}: bytes of the request may have reached it):
   * counts it against the member and, if the request is held and may move, sends it to the
   * next member. Returns true if it went.
   */
  private boolean failover(String why, boolean reached) {
    Attempts a = attempts;
    if (a == null || finished) {
      return false; // no member yet, or the failure is the exchange's own ending
    }
    if (retry == null || answered) {
      a.failed(why);
      return false;
    }
    Backends.Backend next = a.failover(why, reached);
    if (next == null) {
      return false;
    }
    cx.metrics().retried(route.name());
    detachBackend();
    forgetReply();
    send(set.connections(route).acquire(next.origin, loop));
    return true;
  }

  /** Leaves the backend connection without this exchange learning of its close. */
  private void detachBackend() {
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

  /** Drops what came of a reply that will not go back (its member failed). */
  private void forgetReply() {
    replyHead = null;
    replyEnded = false;
    discardReply = false;
    if (replyHeld != null) {
      replyHeld.release();
      replyHeld = null;
    }
  }

  /** Makes {@code ch}, to {@code m}, this exchange's backend connection. */
  private void attach(Channel ch, Backends.Backend m) {
    member = m;
    backend = ch;
    HttpConnections.replies(ch).expect(this);
  }

  private boolean admit() {
    if (!cx.admit()) {
      busy();
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
      Message message = buffer.toMessage();
      version = message.version();
      Route r = set.forwarding().prepare(request, path, message, soapAction);
      if (r == null) {
        onLoop(() -> fault(Forwarding.noRoute(path, message, soapAction)));
        return;
      }
      route = r;
      if (r.fault() != null) {
        onLoop(() -> fault(r.fault().toFault(version)));
        return;
      }
      RouteLimiter.Taken taken = set.limit(r, callerName());
      if (taken instanceof RouteLimiter.Refusal no) {
        onLoop(() -> withinLimits(no));
        return;
      }
      hold((RouteLimiter.Permit) taken);
      Attempts a = set.backends(r).attempts(r.idempotent());
      attempts = a;
      if (a.next() == null) {
        onLoop(() -> allSuspended(a.backends()));
        return;
      }
      if (!cx.admit()) {
        onLoop(this::busy);
        return;
      }
      onLoop(() -> admitted = true);
      copy = cx.audit().open(r);
      sendStreamed(message);
      copy.complete();
    } catch (IOException | RuntimeException e) {
      ChannelOutputStream out = backendOut;
      if (out != null) {
        out.abort(e); // no last chunk goes out: the request is never whole
      }
      copy.discard();
      IOException io = e instanceof IOException x ? x : new IOException(e.toString(), e);
      onLoop(() -> {
        detachBackend(); // the cause is this failure, not the close
        if (io instanceof MemberOutput.Failed && !finished) {
          attempts.failed("sending the request failed: " + io.getCause());
        }
        streamFailed(io);
      });
      return;
    }
    drainRequest();
  }

  /**
   * Connects to the first member that takes a connection (one that refuses has seen no byte,
   * so the next is tried), then streams the message to it: once a byte went, it is never sent
   * again.
   */
  private void sendStreamed(Message message) throws IOException {
    Backends.Backend m = attempts.current();
    ChannelFuture f;
    while (true) {
      f = set.connections(route).acquire(m.origin, loop);
      try {
        f.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while connecting");
      }
      if (f.isSuccess()) {
        break;
      }
      ConnectException failure = connectFailure(f.cause());
      m = attempts.failover("cannot connect: " + failure.getMessage(), false);
      if (m == null) {
        throw failure;
      }
      cx.metrics().retried(route.name());
    }
    ChannelOutputStream out = new ChannelOutputStream(f.channel(), CHUNK_BYTES);
    backendOut = out;
    attach(f.channel(), m);
    Payload payload = copy.wrap(message.toPayload());
    HttpHeaders h = backendHeaders(payload.contentType(), m.url());
    h.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    f.channel().writeAndFlush(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
        target(m.url()), h));
    MemberOutput sent = new MemberOutput(out);
    payload.writeTo(sent);
    sent.close();
    requestSent = true;
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
      fault(f.fault());
    } else if (route == null && e instanceof DecodeException d) {
      fault(Fault.forBadInput(version, d));
    } else if (route == null) {
      abortCaller("request broken: " + e.getMessage());
    } else {
      log(e);
      fault(Forwarding.failed(version, route, e));
    }
  }

  private HttpHeaders backendHeaders(String type, URI to) {
    HttpHeaders h = new DefaultHttpHeaders();
    h.set(HttpHeaderNames.HOST, to.getRawAuthority());
    h.set(HttpHeaderNames.CONTENT_TYPE, type);
    if (soapAction != null) {
      h.set("SOAPAction", SoapBinding.soapActionHeader(soapAction));
    }
    for (String name : TRACE_HEADERS) {
      String value = request.headers().get(name);
      if (value != null) {
        h.set(name, value);
      }
    }
    String identityHeader = route.policy().identityHeader();
    if (identityHeader != null && CallerRequest.of(request) != null) {
      h.set(identityHeader, CallerRequest.of(request).getName());
    }
    return h;
  }

  private static String target(URI uri) {
    String p = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return uri.getRawQuery() == null ? p : p + "?" + uri.getRawQuery();
  }

  private static ConnectException connectFailure(Throwable cause) {
    ConnectException e = new ConnectException(String.valueOf(cause == null ? null
        : cause.getMessage()));
    e.initCause(cause);
    return e;
  }

  // ---- the reply (ReplyHandler.Listener: on the loop) ----

  @Override
  public void head(HttpResponse head) {
    if (finished || pendingAnswer != null) {
      discardReply = true;
      return;
    }
    int status = head.status().code();
    String type = head.headers().get(HttpHeaderNames.CONTENT_TYPE);
    if (status != 202 && status != 204) {
      MediaType t = mediaType(type);
      if (t == null || SoapBinding.version(t) == null) {
        String why = "answered HTTP " + status + " with " + (type == null ? "no Content-Type"
            : type) + ", not SOAP";
        LOG.log(System.Logger.Level.WARNING, "the backend " + member.label + " " + why);
        if (failover(why, true)) {
          return;
        }
        discardReply = true;
        fault(Fault.of(version, version.receiverFaultCode(), "the service behind "
            + route.path() + " answered with something that is not SOAP"));
        return;
      }
    }
    if (!route.idempotent()) {
      dropRetry(); // else kept until the reply is judged: it may go to another member
    }
    if (streamed == null) {
      copy.complete(); // a streamed request's copy completes when it was sent whole
    }
    replyLength = HttpUtil.getContentLength(head, -1L);
    replyHead = new DefaultHttpResponse(request.protocolVersion(), head.status());
    if (type != null) {
      replyHead.headers().set(HttpHeaderNames.CONTENT_TYPE, type);
    }
    replyHeld = ctx.alloc().compositeBuffer(64);
  }

  private HttpResponse replyHead;
  private long replyLength;
  private boolean replyEnded;

  /**
   * Holds the reply's first {@code holdBytes} (all of a short reply, which then goes back whole
   * with its length, and turns a break into a fault), then streams the rest as it comes; neither
   * before the request came to its end.
   */
  @Override
  public void content(ByteBuf bytes, boolean last) {
    if (discardReply || finished && !replyStreaming) {
      if (last) {
        backendDone();
      }
      return;
    }
    if (replyStreaming) {
      relay(bytes, last);
      return;
    }
    if (bytes.isReadable()) {
      replyHeld.addComponent(true, bytes.retain());
    }
    replyEnded = last;
    if (last) {
      backendDone();
    }
    if (!last && replyHeld.readableBytes() <= cx.options().holdBytes()
        || pendingAnswer != null) {
      return;
    }
    if (!last && !requestRead) {
      pauseBackend(); // until the request's end, then the reply streams
    }
    whenRequestRead(this::answerReply);
  }

  /** The reply goes back: whole if it ended while held, else its head and what was held. */
  private void answerReply() {
    if (judgedAndMoved()) {
      return;
    }
    if (replyEnded) {
      replyHeldWhole();
    } else {
      streamReply();
      callerWritable();
    }
  }

  /** Sends a reply held whole, with its length, in one write. */
  private void replyHeldWhole() {
    CompositeByteBuf body = replyHeld;
    replyHeld = null;
    FullHttpResponse out = new DefaultFullHttpResponse(request.protocolVersion(),
        replyHead.status(), body, replyHead.headers(), EmptyHttpHeaders.INSTANCE);
    bytesOut = body.readableBytes();
    if (bytesOut > 0 || replyHead.status().code() != 204) {
      HttpUtil.setContentLength(out, bytesOut);
    }
    respond(out, replyHead.status().code(), null);
  }

  /** Sends the reply's head and what was held; the rest is relayed as it comes. */
  private void streamReply() {
    HttpResponse out = replyHead;
    if (replyLength >= 0) {
      HttpUtil.setContentLength(out, replyLength);
    } else if (request.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
      HttpUtil.setTransferEncodingChunked(out, true);
    } else {
      keepAlive = false; // HTTP/1.0 without a length: the end is the connection's close
    }
    connectionHeader(out);
    replyStreaming = true;
    answered = true;
    CompositeByteBuf first = replyHeld;
    replyHeld = null;
    bytesOut += first.readableBytes();
    ctx.write(out);
    ctx.writeAndFlush(new DefaultHttpContent(first));
  }

  /**
   * Judges the member by its reply: a 5xx that blames the service counts against it (and sends
   * an idempotent route's held request to the next member: returns true), anything else is a
   * success. The held request is dropped after.
   */
  private boolean judgedAndMoved() {
    int status = replyHead.status().code();
    if (status >= 500 && ReplyFault.blamesService(cx.codec(), replyHeld)) {
      if (failover("answered a Receiver fault (HTTP " + status + ")", true)) {
        return true;
      }
    } else {
      attempts.succeeded();
    }
    dropRetry();
    return false;
  }

  private void pauseBackend() {
    Channel b = backend;
    if (b != null && !backendPaused) {
      backendPaused = true;
      b.config().setAutoRead(false);
    }
  }

  /** Passes a piece of a streamed reply on; the backend waits while the caller is slow. */
  private void relay(ByteBuf bytes, boolean last) {
    bytesOut += bytes.readableBytes();
    if (!last) {
      ctx.writeAndFlush(new DefaultHttpContent(bytes.retain()));
      if (!ctx.channel().isWritable()) {
        pauseBackend();
      }
      return;
    }
    backendDone();
    ChannelFuture written = ctx.writeAndFlush(new DefaultLastHttpContent(bytes.retain()));
    finish(replyHead.status().code(), null);
    written.addListener(f -> replied(f.isSuccess()));
  }

  /** The caller can take more: the backend may send on (not while the answer waits). */
  void callerWritable() {
    if (backendPaused && ctx.channel().isWritable() && pendingAnswer == null) {
      backendPaused = false;
      Channel b = backend;
      if (b != null) {
        b.config().setAutoRead(true);
      }
    }
  }

  @Override
  public boolean paused() {
    return backendPaused; // waiting for the caller is not the backend's silence
  }

  @Override
  public void writabilityChanged() {
    ChannelOutputStream out = backendOut;
    if (out != null) {
      out.writabilityChanged();
    }
  }

  @Override
  public void failed(IOException cause) {
    if (retried(cause) || failover(describe(cause), !(cause instanceof ConnectException))) {
      return;
    }
    dropRetry();
    ChannelOutputStream out = backendOut;
    if (out != null) {
      out.fail(cause);
    }
    Channel b = backend;
    if (b != null) {
      b.close();
    }
    if (replyHeld != null) {
      replyHeld.release();
      replyHeld = null;
    }
    if (finished) {
      return;
    }
    copy.discard();
    log(cause);
    if (answered) {
      abortCaller("aborted mid-reply: " + cause.getMessage());
    } else {
      fault(Forwarding.failed(version, route, cause));
    }
  }

  /** A backend failure in the log's and the metrics' words. */
  private static String describe(IOException cause) {
    return cause instanceof java.net.SocketTimeoutException ? "timed out: " + cause.getMessage()
        : cause instanceof ConnectException ? "cannot connect: " + cause.getMessage()
        : "failed: " + cause.getMessage();
  }

  private void dropRetry() {
    if (retry != null) {
      retry.bytes().release();
      retry = null;
    }
  }

  /** The backend's reply ended: its connection goes back to the pool if the request did too. */
  private void backendDone() {
    Channel b = backend;
    if (b == null) {
      return;
    }
    backend = null;
    if (requestSent && !discardReply) {
      set.connections(route).release(b, member.origin, loop);
    } else {
      b.close();
    }
  }

  private void log(IOException cause) {
    Backends.Backend m = member;
    LOG.log(System.Logger.Level.WARNING, "exchange on " + (route == null ? path : route.name())
        + " with " + (m == null ? "no backend" : m.label) + " failed: " + cause);
  }

  // ---- answers ----

  /** Answers {@code fault}, with the status its SOAP version's binding gives it. */
  private void fault(Fault fault) {
    refuse(() -> respondWith(fault, SoapBinding.status(fault), null));
  }

  /** Past {@link BrokerOptions#maxExchanges}: 503, a Receiver fault, and when to come back. */
  private void allSuspended(Backends group) {
    Fault f = Fault.of(version, version.receiverFaultCode(), "the service behind "
        + route.path() + " is unavailable: every member of " + group.group().name()
        + " is suspended after failing; try again");
    String retryAfter = Long.toString(group.secondsUntilOneReturns());
    refuse(() -> respondWith(f, 503, retryAfter));
  }

  private void busy() {
    Fault f = Fault.of(version, version.receiverFaultCode(), "the broker is busy: "
        + cx.options().maxExchanges() + " exchanges are in flight, the most it forwards at once"
        + " (BrokerOptions.maxExchanges); try again");
    refuse(() -> respondWith(f, 503, "1"));
  }

  private void respondWith(Fault fault, int status, String retryAfter) {
    if (answered) {
      abortCaller("fault after the reply began: " + fault.reason());
      return;
    }
    byte[] envelope;
    try {
      envelope = fault.toEnvelope(cx.codec()).toByteArray();
    } catch (IOException e) {
      abortCaller("fault unwritable: " + e.getMessage()); // an in-memory write: not expected
      return;
    }
    FullHttpResponse out = new DefaultFullHttpResponse(request.protocolVersion(),
        HttpResponseStatus.valueOf(status), Unpooled.wrappedBuffer(envelope));
    out.headers().set(HttpHeaderNames.CONTENT_TYPE, SoapBinding.contentType(fault.version()));
    HttpUtil.setContentLength(out, envelope.length);
    if (retryAfter != null) {
      out.headers().set(HttpHeaderNames.RETRY_AFTER, retryAfter);
    }
    bytesOut = envelope.length;
    respond(out, status, "fault: " + fault.reason());
  }

  /** Answers with a short text: for what is not a SOAP request. */
  private void plain(HttpResponseStatus status, String text) {
    refuse(() -> plainNow(status, text));
  }

  private void plainNow(HttpResponseStatus status, String text) {
    byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
    FullHttpResponse out = new DefaultFullHttpResponse(request.protocolVersion(), status,
        Unpooled.wrappedBuffer(body));
    out.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8");
    HttpUtil.setContentLength(out, body.length);
    bytesOut = body.length;
    respond(out, status.code(), text);
  }

  private void notAllowed(String text) {
    plain(HttpResponseStatus.METHOD_NOT_ALLOWED, text);
  }

  /**
   * {@code /health}, the probes and {@code /metrics}: GET only. Readiness fails while the broker
   * drains; liveness and startup hold while it answers at all (its routes are read before it
   * listens).
   */
  private void own(HttpMethod method) {
    whenRequestRead(() -> ownNow(method));
  }

  private void ownNow(HttpMethod method) {
    if (!HttpMethod.GET.equals(method)) {
      notAllowed(path + " takes GET");
      return;
    }
    boolean health = !path.equals("/metrics");
    boolean down = path.equals("/health/ready") && cx.draining();
    byte[] body = (!health ? cx.metrics().scrape() : down
        ? "{\"status\":\"DOWN\",\"reason\":\"draining\"}\n" : "{\"status\":\"UP\"}\n")
        .getBytes(StandardCharsets.UTF_8);
    HttpResponseStatus status = down ? HttpResponseStatus.SERVICE_UNAVAILABLE
        : HttpResponseStatus.OK;
    FullHttpResponse out = new DefaultFullHttpResponse(request.protocolVersion(), status,
        Unpooled.wrappedBuffer(body));
    out.headers().set(HttpHeaderNames.CONTENT_TYPE, health ? "application/json"
        : "text/plain; version=0.0.4; charset=utf-8");
    if (health) {
      out.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
    }
    HttpUtil.setContentLength(out, body.length);
    bytesOut = body.length;
    respond(out, status.code(), null);
  }

  /** Counts the exchange, then writes {@code out}, the whole answer. */
  private void respond(FullHttpResponse out, int status, String why) {
    answered = true;
    connectionHeader(out);
    // counted and logged once the answer is on its way, not on the caller's wait; the next
    // exchange starts after that (its listener is added after)
    ChannelFuture written = ctx.writeAndFlush(out);
    finish(status, why);
    written.addListener(f -> replied(f.isSuccess()));
  }

  /** The answer is out: the connection takes the next request, or closes. */
  private void replied(boolean ok) {
    caller.exchangeDone(this, keepAlive && ok && requestRead);
  }

  private void connectionHeader(HttpResponse out) {
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
  private void abortCaller(String why) {
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
    detachBackend(); // not the member's failure
    if (held != null) {
      held.forEach(ByteBuf::release);
      held = null;
    }
    finish(answered ? 200 : 499, "the caller went away");
  }

  /** Counts the exchange in the metrics and the access log, once. */
  private void finish(int status, String why) {
    if (finished) {
      return;
    }
    finished = true;
    ended = true;
    RouteLimiter.Permit p = permit;
    if (p != null) {
      p.release();
    }
    note = why;
    if (replyHeld != null) {
      replyHeld.release();
      replyHeld = null;
    }
    dropRetry();
    long nanos = System.nanoTime() - start;
    if (admitted) {
      cx.release();
    }
    Route r = route;
    cx.metrics().finished(r == null ? BrokerMetrics.NONE : r.name(), status, nanos, bytesIn,
        bytesOut, admitted);
    Backends.Backend m = member;
    AccessLog.line(ctx.channel().remoteAddress(), request.method().name(), request.uri(),
        status, bytesIn, bytesOut, nanos, m == null ? null : m.label, note);
    set.leave(); // the last exchange of a reloaded-away set closes it
  }

  private void onLoop(Runnable task) {
    loop.execute(task);
  }

  /**
   * {@code GET path?wsdl}: the WSDL of the route's backend, fetched from it, with the service
   * address replaced by the broker's (clients that load the WSDL from where they call need it).
   */
  private final class WsdlFetch implements ReplyHandler.Listener {
    private CompositeByteBuf body;
    private int status;

    void start() {
      Route r = set.routes().forPath(path);
      if (r == null) {
        plain(HttpResponseStatus.NOT_FOUND, "no service at " + path);
        return;
      }
      route = r;
      requestRead = true;
      Backends.Backend m = set.backends(r).attempts(false).next();
      if (m == null) {
        plain(HttpResponseStatus.SERVICE_UNAVAILABLE, "every member of the service behind "
            + path + " is suspended");
        return;
      }
      URI wsdl = URI.create(m.url().toString().replaceAll("\\?.*$", "") + "?wsdl");
      set.connections(route).acquire(m.origin, loop).addListener((ChannelFuture f) -> {
        if (!f.isSuccess()) {
          failed(connectFailure(f.cause()));
          return;
        }
        member = m;
        backend = f.channel();
        HttpConnections.replies(f.channel()).expect(this);
        HttpHeaders h = new DefaultHttpHeaders();
        h.set(HttpHeaderNames.HOST, m.url().getRawAuthority());
        f.channel().writeAndFlush(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
            HttpMethod.GET, target(wsdl), Unpooled.EMPTY_BUFFER, h, EmptyHttpHeaders.INSTANCE))
            .addListener(w -> requestSent = w.isSuccess());
      });
    }

    @Override
    public void head(HttpResponse head) {
      status = head.status().code();
      body = ctx.alloc().compositeBuffer(64);
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
      backendDone();
      if (status != 200) {
        plain(HttpResponseStatus.BAD_GATEWAY, "the service behind " + path
            + " has no WSDL to serve (it answered HTTP " + status + ")");
        return;
      }
      byte[] wsdl = SoapBinding.withServiceAddress(text, cx.address() + path)
          .getBytes(StandardCharsets.UTF_8);
      FullHttpResponse out = new DefaultFullHttpResponse(request.protocolVersion(),
          HttpResponseStatus.OK, Unpooled.wrappedBuffer(wsdl));
      out.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/xml; charset=utf-8");
      HttpUtil.setContentLength(out, wsdl.length);
      bytesOut = wsdl.length;
      respond(out, 200, null);
    }

    @Override
    public void failed(IOException cause) {
      if (body != null && body.refCnt() > 0) {
        body.release();
      }
      Channel b = backend;
      if (b != null) {
        b.close();
      }
      log(cause);
      plain(HttpResponseStatus.BAD_GATEWAY, "the service behind " + path + " is unavailable");
    }
  }
}
