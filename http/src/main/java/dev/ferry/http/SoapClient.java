package dev.ferry.http;

import dev.ferry.http.internal.Pipe;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A SOAP client on {@link java.net.http.HttpClient} (HTTP/1.1, connections kept alive and
 * reused). Thread-safe; share one.
 *
 * <p>A request up to {@link Builder#bufferBytes} is sent with a Content-Length; a larger one
 * streams (chunked) as its payload writes it, through a bounded pipe, so that a forwarded or
 * generated attachment of any size is never held whole. The reply's root part is read before
 * {@link #call} returns; its attachments stream from the connection as they are read.
 *
 * <p>The timeout is one of progress: an exchange that neither sends nor receives a byte for
 * {@link Builder#timeout} is aborted with an {@link HttpTimeoutException}, whether the peer is
 * down, slow to answer, or stalls mid-stream; a large transfer that keeps moving is not cut.
 */
public final class SoapClient implements AutoCloseable {
  private static final int PIPE_BYTES = 256 * 1024;

  static {
    // java.net.http moves response bytes in buffers of jdk.httpclient.bufsize, 16 KiB by
    // default; at 128 KiB a 12 MiB MTOM echo took 47 ms instead of 72 (bench, EchoRoundTrip).
    // The JDK reads the property once, when java.net.http first initialises in this JVM, so it
    // is set here only if nobody set it, and only helps if no HttpClient was used before.
    if (System.getProperty("jdk.httpclient.bufsize") == null) {
      System.setProperty("jdk.httpclient.bufsize", Integer.toString(128 * 1024));
    }
  }

  private final HttpClient http;
  private final SoapCodec codec;
  private final Duration timeout;
  private final int bufferBytes;
  private final Set<Exchange> active = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService watchdog;

  private SoapClient(Builder b) {
    this.codec = b.codec;
    this.timeout = b.timeout;
    this.bufferBytes = b.bufferBytes;
    this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(b.connectTimeout).followRedirects(HttpClient.Redirect.NEVER)
        .executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ferry-client-watchdog");
      t.setDaemon(true);
      return t;
    });
    long tick = Math.max(10, Math.min(1000, timeout.toMillis() / 4));
    watchdog.scheduleAtFixedRate(this::abortStalled, tick, tick, TimeUnit.MILLISECONDS);
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
   *
   * @param soapAction sent as the SOAPAction header if not null
   * @throws SoapHttpException if the reply is not SOAP (such as a 404 page)
   * @throws HttpTimeoutException if the exchange made no progress for the timeout
   * @throws java.net.ConnectException if the peer cannot be reached
   */
  public SoapResponse call(URI uri, Payload request, String soapAction) throws IOException {
    Exchange x = new Exchange(uri);
    active.add(x);
    boolean handedOver = false;
    try {
      HttpRequest.Builder rb = HttpRequest.newBuilder(uri)
          .header("Content-Type", request.contentType());
      if (soapAction != null) {
        rb.header("SOAPAction", "\"" + soapAction + "\"");
      }
      send(x, rb, request);
      HttpResponse<InputStream> response = x.await();
      SoapResponse reply = read(x, uri, response);
      handedOver = true;
      return reply;
    } finally {
      if (!handedOver) {
        x.close();
      }
    }
  }

  private void send(Exchange x, HttpRequest.Builder rb, Payload request) throws IOException {
    RequestBody body = new RequestBody(bufferBytes, () -> {
      Pipe pipe = new Pipe(PIPE_BYTES);
      x.pipe = pipe;
      x.start(http, rb.POST(HttpRequest.BodyPublishers.ofInputStream(pipe::source)).build());
      return pipe.sink();
    }, x::progress);
    try {
      request.writeTo(body);
      body.finish();
    } catch (IOException e) {
      // never let a half-written request look complete: abort the stream, then the exchange
      Pipe pipe = x.pipe;
      if (pipe != null) {
        pipe.abort(e);
      }
      if (x.future != null) {
        x.future.cancel(true);
      }
      throw x.failure(e);
    }
    if (!body.streamed()) {
      x.start(http, rb.POST(HttpRequest.BodyPublishers.ofByteArray(body.bytes(), 0,
          body.size())).build());
    }
  }

  private SoapResponse read(Exchange x, URI uri, HttpResponse<InputStream> response)
      throws IOException {
    int status = response.statusCode();
    String contentType = response.headers().firstValue("Content-Type").orElse(null);
    InputStream in = new Progress(response.body(), x);
    x.response = in;
    if (status == 202 || status == 204) {
      return new SoapResponse(status, contentType, null, null, x);
    }
    MediaType type = parse(contentType);
    if (type == null || HttpSoap.version(type) == null) {
      byte[] start = in.readNBytes(300);
      throw new SoapHttpException(uri, status, contentType,
          new String(start, StandardCharsets.UTF_8));
    }
    MessageBuffer buffer = codec.read(in, contentType);
    return new SoapResponse(status, contentType, buffer, null, x);
  }

  private static MediaType parse(String contentType) {
    try {
      return contentType == null ? null : MediaType.parse(contentType);
    } catch (MimeException e) {
      return null;
    }
  }

  private void abortStalled() {
    long now = System.nanoTime();
    for (Exchange x : active) {
      if (now - x.lastProgress > timeout.toNanos()) {
        x.abort(new HttpTimeoutException("no progress for " + timeout.toMillis()
            + " ms in the exchange with " + x.uri));
      }
    }
  }

  @Override
  public void close() {
    watchdog.shutdownNow();
    http.close();
  }

  /** One call in flight: progress for the watchdog, and what to abort. */
  private final class Exchange implements AutoCloseable {
    final URI uri;
    volatile long lastProgress = System.nanoTime();
    volatile Pipe pipe;
    volatile CompletableFuture<HttpResponse<InputStream>> future;
    volatile InputStream response;
    volatile IOException aborted;

    Exchange(URI uri) {
      this.uri = uri;
    }

    void progress() {
      lastProgress = System.nanoTime();
    }

    void start(HttpClient client, HttpRequest request) {
      progress();
      future = client.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
      future.whenComplete((r, e) -> {
        if (e != null && pipe != null) {
          pipe.abort(e instanceof IOException io ? io : new IOException(e.getMessage(), e));
        }
      });
    }

    HttpResponse<InputStream> await() throws IOException {
      try {
        return future.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        future.cancel(true);
        throw new InterruptedIOException("interrupted while waiting for " + uri);
      } catch (ExecutionException e) {
        throw failure(e.getCause());
      } catch (java.util.concurrent.CancellationException e) {
        throw failure(e);
      }
    }

    /** Returns the exception that explains the failure best: the abort's, else the cause. */
    IOException failure(Throwable cause) {
      if (aborted != null) {
        IOException e = aborted instanceof HttpTimeoutException t
            ? new HttpTimeoutException(t.getMessage()) : new IOException(aborted.getMessage());
        e.initCause(cause);
        return e;
      }
      if (cause instanceof IOException io) {
        return io;
      }
      return new IOException("exchange with " + uri + " failed: " + cause, cause);
    }

    void abort(IOException cause) {
      aborted = cause;
      Pipe p = pipe;
      if (p != null) {
        p.abort(cause);
      }
      CompletableFuture<?> f = future;
      if (f != null) {
        f.cancel(true);
      }
      InputStream in = response;
      if (in != null) {
        try {
          in.close();
        } catch (IOException ignored) {
          // closing is how the read is cut; its own error adds nothing
        }
      }
      active.remove(this);
    }

    /** Drains a little of an unread reply so the connection can be reused, then closes. */
    @Override
    public void close() throws IOException {
      active.remove(this);
      InputStream in = response;
      if (in != null) {
        HttpSoap.drainAndClose(in);
      }
    }
  }

  /** Counts progress on the reply for the watchdog. */
  private static final class Progress extends FilterInputStream {
    private final Exchange exchange;

    Progress(InputStream in, Exchange exchange) {
      super(in);
      this.exchange = exchange;
    }

    @Override
    public int read() throws IOException {
      exchange.progress();
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      exchange.progress();
      return n;
    }
  }

  /** Configures a {@link SoapClient}. */
  public static final class Builder {
    private SoapCodec codec = SoapCodec.create();
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration timeout = Duration.ofSeconds(60);
    private int bufferBytes = 1024 * 1024;

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

    public SoapClient build() {
      return new SoapClient(this);
    }
  }
}
