package dev.ferry.client;

import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.NettyHeaders;
import dev.ferry.client.internal.NettyTls;
import dev.ferry.client.internal.RequestBody;
import dev.ferry.client.internal.Transport;
import dev.ferry.logging.MessageLog;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.security.TlsSettings;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapCodec;
import dev.ferry.tracing.internal.SoapSpans;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * A SOAP client over HTTP/1.1 (Netty, the native transport on Linux), connections kept alive
 * and reused. Thread-safe; share one, and close it when done.
 *
 * <p>A request up to {@link Builder#bufferBytes} is written once into pooled direct memory and
 * sent from there with a Content-Length; a larger one starts its HTTP exchange when the buffer
 * overflows and streams the rest (chunked) as its payload writes it, each chunk waiting until
 * the connection can take it, so a forwarded or generated attachment of any size is never held
 * whole. The reply's root part is read before {@link #call} returns; its attachments stream from
 * the connection as they are read.
 *
 * <p>The timeout is one of progress: an exchange whose connection neither sends nor receives a
 * byte for {@link Builder#timeout} fails with a {@link SocketTimeoutException}, whether the peer
 * is down, slow to answer or stalled mid-stream; a large transfer that keeps moving is not cut,
 * and neither is a reply waiting for a slow reader of its attachments.
 *
 * <p>Each call is a client span ({@link Builder#openTelemetry}), a child of the span current
 * where it is made (such as the server span of the request an endpoint is answering), whose
 * context goes out in the request's headers ({@code traceparent}, {@code tracestate},
 * {@code baggage}); it ends when the reply is closed, or when the call fails.
 */
public final class SoapClient implements AutoCloseable {
  /** The chunks a streamed request goes out in. */
  private static final int CHUNK_BYTES = 64 * 1024;

  private final SoapCodec codec;
  private final int bufferBytes;
  private final Transport transport;
  private final HttpConnections connections;
  private final SoapSpans spans;
  private final MessageLog messageLog;

  private SoapClient(Builder b) {
    this.codec = b.codec;
    this.spans = SoapSpans.orGlobal(b.openTelemetry, "dev.ferry.client");
    this.messageLog = b.messageLog;
    this.bufferBytes = b.bufferBytes;
    this.transport = Transport.start(b.threads, "ferry-client");
    this.connections = b.tls == null
        ? new HttpConnections(transport, b.connectTimeout, b.timeout)
        : new HttpConnections(transport, b.connectTimeout, b.timeout, NettyTls.client(b.tls));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Returns a client with default settings. */
  public static SoapClient create() {
    return builder().build();
  }

  public SoapCodec codec() {
    return codec;
  }

  /**
   * Sends {@code request} to {@code uri} and returns the reply, whose root part has been read:
   * the short form of {@link #call(SoapRequest)}.
   *
   * @param soapAction sent as the SOAPAction header if not null
   */
  public SoapResponse call(URI uri, Payload request, String soapAction) throws IOException {
    return call(SoapRequest.builder(uri, request).soapAction(soapAction).build());
  }

  /**
   * Sends {@code request} and returns the reply, whose root part has been read; its attachments
   * stream from the connection as they are read. A payload is written once per call; one made by
   * {@code SoapCodec.payload} can be sent again, one forwarding a received message cannot (its
   * attachments come from the connection it arrived on).
   *
   * @throws SoapHttpException if the reply is not SOAP (such as a 404 page or a 401)
   * @throws SocketTimeoutException if the exchange made no progress for the timeout
   * @throws ConnectException if the peer cannot be reached (naming the URL)
   * @throws javax.net.ssl.SSLException if TLS fails (a certificate not trusted, another host's)
   */
  public SoapResponse call(SoapRequest request) throws IOException {
    Context traced = spans.startClient(Context.current(), request.uri(), request.service(),
        request.operation());
    try {
      SoapResponse reply = call(request, traced);
      reply.trace(Span.fromContext(traced));
      return reply;
    } catch (IOException | RuntimeException | Error e) {
      SoapSpans.endClient(Span.fromContext(traced), 0, 0, 0, null, e);
      throw e;
    }
  }

  private SoapResponse call(SoapRequest request, Context traced) throws IOException {
    URI uri = request.uri();
    HttpConnections.Origin origin = HttpConnections.Origin.of(uri);
    long timeout = timeoutMillis(request);
    Call call = new Call(connections, origin, connect(origin, uri, true), uri, timeout);
    CallLog log = CallLog.open(messageLog, uri);
    boolean handedOver = false;
    HeldRequest held = null;
    try {
      held = send(call, request, traced, log);
      SoapResponse reply;
      try {
        reply = read(call, request.guard(), log);
      } catch (IOException e) {
        if (held == null || !call.retryable(e)) {
          throw e;
        }
        // the pooled connection was closed by its peer as it was taken: once more, on a new one
        call.close();
        call = new Call(connections, origin, connect(origin, uri, false), uri, timeout);
        call.send(held.request());
        call.sent(held.body().size());
        reply = read(call, request.guard(), log);
      }
      handedOver = true;
      return reply;
    } finally {
      if (held != null) {
        held.body.release(); // past the retry: its chunks go back to the pool
      }
      if (!handedOver) {
        call.close();
      }
    }
  }

  /**
   * Sends {@code request} and returns the reply when it comes, without a thread waiting for it:
   * the connection is made and the reply read on the client's event loop, and a reply up to
   * 64 KiB is parsed there once it came whole; a longer one is parsed by a virtual thread while
   * it comes. The request is written by the calling thread: one up to the client's buffer into
   * memory, a longer one streamed to the connection before this method returns.
   *
   * <p>The future completes on the event loop (or that virtual thread): stages that block
   * belong on an executor of their own ({@code thenApplyAsync(f, executor)}). Failures are
   * those of {@link #call(SoapRequest)}; cancelling the future aborts the call.
   */
  public CompletableFuture<SoapResponse> callAsync(SoapRequest request) {
    CompletableFuture<SoapResponse> result = new CompletableFuture<>();
    URI uri = request.uri();
    HttpConnections.Origin origin;
    try {
      origin = HttpConnections.Origin.of(uri);
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(e);
    }
    AsyncSend send = new AsyncSend(request, origin, result);
    try {
      send.writeBody();
    } catch (IOException | RuntimeException e) {
      send.abort(e);
    }
    return result;
  }

  /** Sends one asynchronous call: its body held (then sent from the loop) or streamed. */
  private final class AsyncSend {
    private final SoapRequest request;
    private final HttpConnections.Origin origin;
    private final CompletableFuture<SoapResponse> result;
    private final Context traced;
    private final CallLog log;
    private Call call;

    AsyncSend(SoapRequest request, HttpConnections.Origin origin,
        CompletableFuture<SoapResponse> result) {
      this.request = request;
      this.origin = origin;
      this.result = result;
      this.traced = spans.startClient(Context.current(), request.uri(), request.service(),
          request.operation());
      this.log = CallLog.open(messageLog, request.uri());
    }

    void writeBody() throws IOException {
      Payload payload = payload(request);
      HttpHeaders headers = headers(request, payload, traced);
      RequestBody body = write(payload, log, () -> {
        // longer than the buffer: connect now and stream from this thread
        call = start(connect(origin, request.uri(), true));
        return streamHead(call, request, headers);
      });
      if (body.streamed()) {
        call.sent(body.bytes());
        log.requestSent(headers);
        return;
      }
      connections.acquire(origin, null).addListener((ChannelFuture f) -> {
        try {
          if (!f.isSuccess()) {
            fail(connectFailure(request.uri(), f.cause()));
            return;
          }
          call = start(f.channel());
          sendHeld(call, request, headers, body); // no retry here: the write holds its view
          log.requestSent(headers);
        } catch (IOException e) {
          fail(e);
        } finally {
          body.release();
        }
      });
    }

    private Call start(Channel ch) throws IOException {
      Call c = new Call(connections, origin, ch, request.uri(), timeoutMillis(request));
      c.whenReadable(this::readable);
      result.whenComplete((r, t) -> {
        if (result.isCancelled()) {
          c.abort(new IOException("the call was cancelled"));
        }
      });
      return c;
    }

    /** On the loop: the reply came whole (parse it here) or is long (parse as it comes). */
    private void readable(Call c, boolean whole) {
      if (whole) {
        complete(c);
      } else {
        Thread.ofVirtual().name("ferry-client-reply").start(() -> complete(c));
      }
    }

    private void complete(Call c) {
      SoapResponse reply;
      try {
        reply = read(c, request.guard(), log);
      } catch (IOException | RuntimeException e) {
        c.close();
        fail(e);
        return;
      }
      reply.trace(Span.fromContext(traced));
      if (!result.complete(reply)) {
        closeQuietly(reply); // cancelled meanwhile
      }
    }

    void abort(Throwable e) {
      Call c = call;
      if (c != null) {
        c.abort(e);
      }
      fail(e);
    }

    private void fail(Throwable e) {
      if (result.completeExceptionally(e)) {
        SoapSpans.endClient(Span.fromContext(traced), 0, 0, 0, null, e);
      }
    }
  }

  private static void closeQuietly(SoapResponse r) {
    try {
      r.close();
    } catch (IOException e) {
      // nobody is left to tell
    }
  }

  private long timeoutMillis(SoapRequest request) {
    return request.timeout() != null ? request.timeout().toMillis()
        : connections.timeoutMillis();
  }

  private Channel connect(HttpConnections.Origin origin, URI uri, boolean pooled)
      throws IOException {
    ChannelFuture f = pooled ? connections.acquire(origin, null)
        : connections.connect(origin, null);
    try {
      f.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true);
      throw new InterruptedIOException("interrupted while connecting to " + uri);
    }
    if (!f.isSuccess()) {
      throw connectFailure(uri, f.cause());
    }
    return f.channel();
  }

  private static IOException connectFailure(URI uri, Throwable t) {
    if (t instanceof javax.net.ssl.SSLException ssl) {
      // a TLS failure says what it is: a certificate not trusted, expired, another host's
      javax.net.ssl.SSLHandshakeException e = new javax.net.ssl.SSLHandshakeException(
          "TLS with " + uri + " failed: " + ssl.getMessage());
      e.initCause(ssl);
      return e;
    }
    String why = t == null || t.getMessage() == null ? String.valueOf(t) : t.getMessage();
    ConnectException e = new ConnectException("cannot connect to " + uri + ": " + why);
    e.initCause(t);
    return e;
  }

  /** The request's payload, through its guard if it has one. */
  private static Payload payload(SoapRequest request) throws IOException {
    return request.guard() == null ? request.payload() : request.guard().protect(
        request.payload());
  }

  /**
   * Sends {@code request}: held whole if it fits the buffer (then returns it, to be sent again
   * for a retry and released by the caller), else streamed (then returns null).
   */
  private HeldRequest send(Call call, SoapRequest request, Context traced, CallLog log)
      throws IOException {
    Payload payload = payload(request);
    HttpHeaders headers = headers(request, payload, traced);
    RequestBody body;
    try {
      body = write(payload, log, () -> streamHead(call, request, headers));
    } catch (IOException e) {
      // never let a half-written request look complete: the connection is closed
      call.abort(e);
      throw e instanceof dev.ferry.bytes.DecodeException ? e : call.failure(e);
    } catch (RuntimeException e) {
      call.abort(e);
      throw e;
    }
    if (body.streamed()) {
      call.sent(body.bytes());
      log.requestSent(headers);
      return null;
    }
    try {
      HeldRequest held = sendHeld(call, request, headers, body);
      log.requestSent(headers);
      return held;
    } catch (RuntimeException e) {
      body.release(); // not yet the caller's to release
      throw e;
    }
  }

  /**
   * Writes {@code payload} into a request body: held (the caller sends and releases it) up to
   * the buffer, streamed through what {@code overflow} starts beyond. A failed write releases
   * what was held.
   */
  private RequestBody write(Payload payload, CallLog log, RequestBody.Overflow overflow)
      throws IOException {
    RequestBody body = new RequestBody(HttpConnections.ALLOCATOR, bufferBytes, overflow, () -> { });
    try {
      payload.writeTo(log.request(body, payload.contentType()));
      body.finish();
      return body;
    } catch (IOException | RuntimeException e) {
      body.release();
      throw e;
    }
  }

  /** Writes the head of a streamed request; returns the stream its body goes on through. */
  private static OutputStream streamHead(Call call, SoapRequest request, HttpHeaders headers) {
    headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
    call.channel().writeAndFlush(new DefaultHttpRequest(HttpVersion.HTTP_1_1,
        HttpMethod.POST, target(request.uri()), headers));
    return call.stream(CHUNK_BYTES);
  }

  /** Writes a request held whole, with its length; returns it, to be sent again. */
  private static HeldRequest sendHeld(Call call, SoapRequest request, HttpHeaders headers,
      RequestBody body) {
    headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.size());
    HeldRequest held = new HeldRequest(target(request.uri()), headers, body);
    call.send(held.request());
    call.sent(body.size());
    return held;
  }

  /** A request held whole: each {@link #request} is a new message over the same body. */
  private record HeldRequest(String target, HttpHeaders headers, RequestBody body) {
    FullHttpRequest request() {
      return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target,
          body.content(), headers, EmptyHttpHeaders.INSTANCE);
    }
  }

  /** The request's headers, with the context of its span ({@code traceparent} ...). */
  private HttpHeaders headers(SoapRequest request, Payload payload, Context traced) {
    URI uri = request.uri();
    HttpHeaders h = new DefaultHttpHeaders();
    h.set(HttpHeaderNames.HOST, uri.getRawAuthority());
    h.set(HttpHeaderNames.CONTENT_TYPE, payload.contentType());
    if (request.soapAction() != null) {
      h.set("SOAPAction", SoapBinding.soapActionHeader(request.soapAction()));
    }
    for (SoapRequest.Header x : request.headers()) {
      h.add(x.name(), x.value());
    }
    spans.inject(traced, h, NettyHeaders.INSTANCE);
    return h;
  }

  /** The request target: the URL's path and query. */
  static String target(URI uri) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
  }

  private SoapResponse read(Call call, MessageGuard guard, CallLog log) throws IOException {
    HttpResponse head = call.awaitHead();
    int status = head.status().code();
    String contentType = head.headers().get(HttpHeaderNames.CONTENT_TYPE);
    InputStream in = log.reply(call.body(), head);
    if (status == 202 || status == 204) {
      log.replyRead();
      return new SoapResponse(status, head.headers(), null, call, log);
    }
    MediaType type = parse(contentType);
    if (type == null || SoapBinding.version(type) == null) {
      byte[] start = in.readNBytes(300);
      log.replyClosed();
      throw new SoapHttpException(call.uri(), status, contentType,
          new String(start, StandardCharsets.UTF_8));
    }
    MessageBuffer buffer;
    try {
      buffer = codec.read(in, type);
    } catch (IOException e) {
      throw e instanceof dev.ferry.bytes.DecodeException ? e : call.failure(e);
    }
    log.replyRead();
    SoapResponse reply = new SoapResponse(status, head.headers(), buffer, call, log);
    if (guard != null) {
      try {
        reply.open(guard);
      } catch (IOException | RuntimeException e) {
        reply.close();
        throw e;
      }
    }
    return reply;
  }

  private static MediaType parse(String contentType) {
    try {
      return contentType == null ? null : MediaType.parse(contentType);
    } catch (MimeException e) {
      return null;
    }
  }

  /** Closes the connections and stops the client's event loops. */
  @Override
  public void close() {
    connections.close();
    transport.close();
  }

  /** Configures a {@link SoapClient}. */
  public static final class Builder {
    private SoapCodec codec = SoapCodec.create();
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration timeout = Duration.ofSeconds(60);
    private int bufferBytes = 1024 * 1024;
    private int threads = 1;
    private TlsSettings tls;
    private OpenTelemetry openTelemetry;
    private MessageLog messageLog;

    private Builder() {}

    /**
     * Logs each request and reply for support through {@code log} (envelope and headers, masked
     * and capped; attachments named, never read); null (the default): none are logged.
     */
    public Builder messageLog(MessageLog log) {
      this.messageLog = log;
      return this;
    }

    /**
     * Where the calls' spans go (see {@code dev.ferry.tracing.SoapAttributes}); null (the
     * default) for {@code GlobalOpenTelemetry} as an SDK or the Java agent registered it before
     * the client was built.
     */
    public Builder openTelemetry(OpenTelemetry otel) {
      this.openTelemetry = otel;
      return this;
    }

    /**
     * The TLS of {@code https} calls: the certificates the server's must chain to, and this
     * client's certificate if the server asks for one (default: the JDK's trust, no
     * certificate). The server's host name is always checked against its certificate.
     */
    public Builder tls(TlsSettings tls) {
      this.tls = Objects.requireNonNull(tls);
      return this;
    }

    /** The codec replies are read with (limits, leniency). */
    public Builder codec(SoapCodec codec) {
      this.codec = Objects.requireNonNull(codec);
      return this;
    }

    /** How long to wait for a connection (default 10 s). */
    public Builder connectTimeout(Duration d) {
      this.connectTimeout = Objects.requireNonNull(d);
      return this;
    }

    /** How long an exchange may go without sending or receiving a byte (default 60 s). */
    public Builder timeout(Duration d) {
      this.timeout = Objects.requireNonNull(d);
      return this;
    }

    /** Requests up to this size go with a Content-Length; larger ones stream (default 1 MiB). */
    public Builder bufferBytes(int bytes) {
      this.bufferBytes = bytes;
      return this;
    }

    /**
     * The client's I/O threads (default 1): they only move bytes between sockets and callers,
     * who parse and write on their own threads.
     */
    public Builder ioThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("ioThreads must be at least 1, got " + threads);
      }
      this.threads = threads;
      return this;
    }

    public SoapClient build() {
      return new SoapClient(this);
    }
  }
}
