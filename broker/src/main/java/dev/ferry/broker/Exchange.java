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
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One request through the broker and its reply: the one path every request takes, whatever its
 * size. Everything but the parse of a streamed request runs on the caller connection's event
 * loop, which the backend connection shares, so no thread waits and no byte changes threads.
 *
 * <p>The request: one with a Content-Length up to {@link BrokerOptions#holdBytes} is held whole,
 * read, routed and changed on the loop, and sent on in one write, a multipart one as the
 * changed envelope with the caller's bytes before it, then the caller's own buffers after it
 * ({@link Message#spliceInto}). A longer or chunked one is
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

  private volatile Route route;
  private volatile Audit.Copy copy = Audit.NONE;
  private volatile Channel backend;
  private volatile HttpConnections.Origin origin;
  private volatile ChannelOutputStream backendOut;
  private volatile boolean requestSent;
  private boolean admitted;
  /** A held request kept for one retry on a new connection, until its reply begins. */
  private Outgoing retry;

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
    if (path.equals("/health") || path.equals("/metrics")) {
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
    if (expected >= 0 && expected <= cx.options().holdBytes()) {
      held = new ArrayList<>(4);
    } else {
      streamed = new ChannelInputStream(ctx.channel(), PAUSE_BYTES);
      Thread.ofVirtual().name("ferry-broker-exchange").start(this::forwardStreamed);
    }
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
      Route r = cx.forwarding().prepare(request, path, message, soapAction);
      if (r == null) {
        fault(Forwarding.noRoute(path, message, soapAction));
        return;
      }
      route = r;
      if (r.fault() != null) {
        fault(r.fault().toFault(version));
        return;
      }
      if (!admit()) {
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
   * Sends a held request on a pooled connection. One its peer closed just as it was taken (no
   * byte of a reply came) carries it once more on a new connection: the request was not seen.
   */
  private void sendHeld(Outgoing out) {
    HttpConnections.Origin o = HttpConnections.Origin.of(route.to());
    retry = out;
    out.bytes().retain(); // kept for the one retry until a reply begins
    sendHeld(out, cx.backends(route).acquire(o, loop), o);
  }

  private void sendHeld(Outgoing out, ChannelFuture connecting, HttpConnections.Origin o) {
    connecting.addListener((ChannelFuture f) -> {
      if (!f.isSuccess()) {
        out.bytes().release();
        failed(connectFailure(f.cause()));
        return;
      }
      Channel ch = f.channel();
      attach(ch, o);
      HttpHeaders h = backendHeaders(out.contentType());
      h.setInt(HttpHeaderNames.CONTENT_LENGTH, out.bytes().readableBytes());
      ch.writeAndFlush(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
          target(route.to()), out.bytes(), h, EmptyHttpHeaders.INSTANCE)).addListener(w -> {
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

  /** Sends the held request again on a new connection, if this failure allows it. */
  private boolean retried(IOException cause) {
    Outgoing out = retry;
    Channel b = backend;
    if (out == null || b == null || !HttpConnections.reused(b) || replyHead != null
        || cause instanceof java.net.SocketTimeoutException || finished) {
      return false;
    }
    retry = null; // once
    backend = null;
    HttpConnections.replies(b).expect(null); // its close is no news to this exchange
    b.close();
    HttpConnections.Origin o = HttpConnections.Origin.of(route.to());
    sendHeld(new Outgoing(out.contentType(), out.bytes().readerIndex(0)),
        cx.backends(route).connect(o, loop), o);
    return true;
  }

  /** Makes {@code ch} this exchange's backend connection. */
  private void attach(Channel ch, HttpConnections.Origin o) {
    origin = o;
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
      Route r = cx.forwarding().prepare(request, path, message, soapAction);
      if (r == null) {
        onLoop(() -> fault(Forwarding.noRoute(path, message, soapAction)));
        return;
      }
      route = r;
      if (r.fault() != null) {
        onLoop(() -> fault(r.fault().toFault(version)));
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
        Channel b = backend;
        if (b != null) {
          backend = null;
          HttpConnections.replies(b).expect(null); // the cause is this failure, not the close
          b.close();
        }
        streamFailed(io);
      });
      return;
    }
    drainRequest();
  }

  private void sendStreamed(Message message) throws IOException {
    HttpConnections.Origin o = HttpConnections.Origin.of(route.to());
    ChannelFuture f = cx.backends(route).acquire(o, loop);
    try {
      f.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while connecting");
    }
    if (!f.isSuccess()) {
      throw connectFailure(f.cause());
    }
    ChannelOutputStream out = new ChannelOutputStream(f.channel(), CHUNK_BYTES);
    backendOut = out;
    attach(f.channel(), o);
    Payload payload = copy.wrap(message.toPayload());
    HttpHeaders h = backendHeaders(payload.contentType());
    h.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    f.channel().writeAndFlush(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST,
        target(route.to()), h));
    payload.writeTo(out);
    out.close();
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

  private HttpHeaders backendHeaders(String type) {
    HttpHeaders h = new DefaultHttpHeaders();
    h.set(HttpHeaderNames.HOST, route.to().getRawAuthority());
    h.set(HttpHeaderNames.CONTENT_TYPE, type);
    if (soapAction != null) {
      h.set("SOAPAction", SoapBinding.soapActionHeader(soapAction));
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
        discardReply = true;
        LOG.log(System.Logger.Level.WARNING, "the backend " + route.to() + " answered HTTP "
            + status + " with " + (type == null ? "no Content-Type" : type) + ", not SOAP");
        fault(Fault.of(version, version.receiverFaultCode(), "the service behind "
            + route.path() + " answered with something that is not SOAP"));
        return;
      }
    }
    dropRetry();
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
    if (retried(cause)) {
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
      cx.backends(route).release(b, origin, loop);
    } else {
      b.close();
    }
  }

  private void log(IOException cause) {
    LOG.log(System.Logger.Level.WARNING, "exchange on " + (route == null ? path : route.name())
        + " with " + (route == null ? "no backend" : route.to()) + " failed: " + cause);
  }

  // ---- answers ----

  /** Answers {@code fault}, with the status its SOAP version's binding gives it. */
  private void fault(Fault fault) {
    refuse(() -> respondWith(fault, SoapBinding.status(fault), null));
  }

  /** Past {@link BrokerOptions#maxExchanges}: 503, a Receiver fault, and when to come back. */
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

  /** {@code /health} and {@code /metrics}: GET only. */
  private void own(HttpMethod method) {
    whenRequestRead(() -> ownNow(method));
  }

  private void ownNow(HttpMethod method) {
    if (!HttpMethod.GET.equals(method)) {
      notAllowed(path + " takes GET");
      return;
    }
    boolean health = path.equals("/health");
    byte[] body = (health ? "{\"status\":\"UP\"}\n" : cx.metrics().scrape())
        .getBytes(StandardCharsets.UTF_8);
    FullHttpResponse out = new DefaultFullHttpResponse(request.protocolVersion(),
        HttpResponseStatus.OK, Unpooled.wrappedBuffer(body));
    out.headers().set(HttpHeaderNames.CONTENT_TYPE, health ? "application/json"
        : "text/plain; version=0.0.4; charset=utf-8");
    HttpUtil.setContentLength(out, body.length);
    bytesOut = body.length;
    respond(out, 200, null);
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
    Channel b = backend;
    if (b != null) {
      b.close();
    }
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
    note = why;
    if (replyHeld != null) {
      replyHeld.release();
      replyHeld = null;
    }
    long nanos = System.nanoTime() - start;
    if (admitted) {
      cx.release();
    }
    Route r = route;
    cx.metrics().finished(r == null ? BrokerMetrics.NONE : r.name(), status, nanos, bytesIn,
        bytesOut, admitted);
    AccessLog.line(ctx.channel().remoteAddress(), request.method().name(), request.uri(),
        status, bytesIn, bytesOut, nanos, note);
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
      Route r = cx.forwarding().routes().forPath(path);
      if (r == null) {
        plain(HttpResponseStatus.NOT_FOUND, "no service at " + path);
        return;
      }
      route = r;
      requestRead = true;
      HttpConnections.Origin o = HttpConnections.Origin.of(r.to());
      URI wsdl = URI.create(r.to().toString().replaceAll("\\?.*$", "") + "?wsdl");
      cx.backends(route).acquire(o, loop).addListener((ChannelFuture f) -> {
        if (!f.isSuccess()) {
          failed(connectFailure(f.cause()));
          return;
        }
        origin = o;
        backend = f.channel();
        HttpConnections.replies(f.channel()).expect(this);
        HttpHeaders h = new DefaultHttpHeaders();
        h.set(HttpHeaderNames.HOST, r.to().getRawAuthority());
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
