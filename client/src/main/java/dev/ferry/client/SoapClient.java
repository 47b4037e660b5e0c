package dev.ferry.client;

import dev.ferry.client.internal.HttpConnections;
import dev.ferry.client.internal.RequestBody;
import dev.ferry.client.internal.Transport;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapCodec;
import io.netty.buffer.Unpooled;
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
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * A SOAP client over HTTP/1.1 (Netty, the native transport on Linux), connections kept alive
 * and reused. Thread-safe; share one, and close it when done.
 *
 * <p>A request up to {@link Builder#bufferBytes} is sent with a Content-Length from one array;
 * a larger one starts its HTTP exchange when the buffer overflows and streams the rest (chunked)
 * as its payload writes it, each chunk waiting until the connection can take it, so a forwarded
 * or generated attachment of any size is never held whole. The reply's root part is read before
 * {@link #call} returns; its attachments stream from the connection as they are read.
 *
 * <p>The timeout is one of progress: an exchange whose connection neither sends nor receives a
 * byte for {@link Builder#timeout} fails with a {@link SocketTimeoutException}, whether the peer
 * is down, slow to answer or stalled mid-stream; a large transfer that keeps moving is not cut,
 * and neither is a reply waiting for a slow reader of its attachments.
 */
public final class SoapClient implements AutoCloseable {
  /** The chunks a streamed request goes out in. */
  private static final int CHUNK_BYTES = 64 * 1024;

  private final SoapCodec codec;
  private final int bufferBytes;
  private final Transport transport;
  private final HttpConnections connections;

  private SoapClient(Builder b) {
    this.codec = b.codec;
    this.bufferBytes = b.bufferBytes;
    this.transport = Transport.start(b.threads, "ferry-client");
    this.connections = new HttpConnections(transport, b.connectTimeout, b.timeout);
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
   * Sends {@code request} to {@code uri} and returns the reply, whose root part has been read.
   * A payload is written once per call; one made by {@code SoapCodec.payload} can be sent
   * again, one forwarding a received message cannot (its attachments come from the connection
   * it arrived on).
   *
   * @param soapAction sent as the SOAPAction header if not null
   * @throws SoapHttpException if the reply is not SOAP (such as a 404 page)
   * @throws SocketTimeoutException if the exchange made no progress for the timeout
   * @throws ConnectException if the peer cannot be reached (naming the URL)
   */
  public SoapResponse call(URI uri, Payload request, String soapAction) throws IOException {
    HttpConnections.Origin origin = HttpConnections.Origin.of(uri);
    Call call = new Call(connections, origin, connect(origin, uri), uri);
    boolean handedOver = false;
    try {
      send(call, uri, request, soapAction);
      SoapResponse reply = read(call, uri);
      handedOver = true;
      return reply;
    } finally {
      if (!handedOver) {
        call.close();
      }
    }
  }

  private Channel connect(HttpConnections.Origin origin, URI uri) throws IOException {
    ChannelFuture f = connections.acquire(origin, null);
    try {
      f.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      f.cancel(true);
      throw new InterruptedIOException("interrupted while connecting to " + uri);
    }
    if (!f.isSuccess()) {
      Throwable t = f.cause();
      String why = t == null || t.getMessage() == null ? String.valueOf(t) : t.getMessage();
      ConnectException e = new ConnectException("cannot connect to " + uri + ": " + why);
      e.initCause(t);
      throw e;
    }
    return f.channel();
  }

  private void send(Call call, URI uri, Payload request, String soapAction) throws IOException {
    HttpHeaders headers = headers(uri, request.contentType(), soapAction);
    RequestBody body = new RequestBody(bufferBytes, () -> {
      headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
      call.channel().writeAndFlush(new DefaultHttpRequest(HttpVersion.HTTP_1_1,
          HttpMethod.POST, target(uri), headers));
      return call.stream(CHUNK_BYTES);
    }, () -> { });
    try {
      request.writeTo(body);
      body.finish();
    } catch (IOException e) {
      // never let a half-written request look complete: the connection is closed
      call.abort(e);
      throw e instanceof dev.ferry.bytes.DecodeException ? e : call.failure(e);
    } catch (RuntimeException e) {
      call.abort(e);
      throw e;
    }
    if (!body.streamed()) {
      headers.setInt(HttpHeaderNames.CONTENT_LENGTH, body.size());
      call.channel().writeAndFlush(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
          HttpMethod.POST, target(uri), Unpooled.wrappedBuffer(body.bytes(), 0, body.size()),
          headers, EmptyHttpHeaders.INSTANCE));
    }
    call.sent();
  }

  private static HttpHeaders headers(URI uri, String contentType, String soapAction) {
    HttpHeaders h = new DefaultHttpHeaders();
    h.set(HttpHeaderNames.HOST, uri.getRawAuthority());
    h.set(HttpHeaderNames.CONTENT_TYPE, contentType);
    if (soapAction != null) {
      h.set("SOAPAction", SoapBinding.soapActionHeader(soapAction));
    }
    return h;
  }

  /** The request target: the URL's path and query. */
  static String target(URI uri) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
  }

  private SoapResponse read(Call call, URI uri) throws IOException {
    HttpResponse head = call.awaitHead();
    int status = head.status().code();
    String contentType = head.headers().get(HttpHeaderNames.CONTENT_TYPE);
    InputStream in = call.body();
    if (status == 202 || status == 204) {
      return new SoapResponse(status, contentType, null, call);
    }
    MediaType type = parse(contentType);
    if (type == null || SoapBinding.version(type) == null) {
      byte[] start = in.readNBytes(300);
      throw new SoapHttpException(uri, status, contentType,
          new String(start, StandardCharsets.UTF_8));
    }
    MessageBuffer buffer;
    try {
      buffer = codec.read(in, contentType);
    } catch (IOException e) {
      throw e instanceof dev.ferry.bytes.DecodeException ? e : call.failure(e);
    }
    return new SoapResponse(status, contentType, buffer, call);
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

    private Builder() {}

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
