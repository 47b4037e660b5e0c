package dev.ferry.http;

import dev.ferry.mime.MediaType;
import dev.ferry.soap.Payload;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.OutputStreamRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * The broker's client for its backends, on Jetty's {@link HttpClient} (HTTP/1.1, connections
 * kept alive and reused, virtual threads). It replaced {@link SoapClient}'s java.net.http for
 * this hop because one exchange of 32 KiB each way with Ferry's server took about 0.23 ms at
 * the median instead of 0.35 ms (see docs/performance.md): Jetty's client writes the request
 * from the calling thread and hands the reply over once, where java.net.http passes both
 * through its selector thread and its executor.
 *
 * <p>A request up to {@code bufferBytes} is sent whole with a Content-Length; a larger one
 * streams (chunked) as the payload writes it, each write waiting until the connection took it,
 * so an attachment of any size is never held whole. The reply is not parsed: its Content-Type
 * is checked to be SOAP and its body streams from the connection as it is read.
 *
 * <p>The timeout is one of progress, as in {@link SoapClient}: an exchange whose connection
 * neither sends nor receives a byte for it fails with an {@link HttpTimeoutException}.
 */
final class BackendClient implements AutoCloseable {
  private final HttpClient http;
  private final Duration timeout;
  private final int bufferBytes;

  BackendClient(Duration timeout, Duration connectTimeout, int bufferBytes) {
    this.timeout = timeout;
    this.bufferBytes = bufferBytes;
    VirtualThreadPool threads = new VirtualThreadPool();
    threads.setName("ferry-backend");
    http = new HttpClient();
    http.setExecutor(threads);
    http.setName("ferry-backend");
    http.setConnectTimeout(connectTimeout.toMillis());
    // pooled connections close after 30 s idle, before Ferry's servers drop them (120 s)
    http.setIdleTimeout(30_000);
    http.setFollowRedirects(false);
    http.setUserAgentField(null);
    // the reply is relayed as it came: no Accept-Encoding, nothing decoded
    http.getContentDecoderFactories().clear();
    http.setMaxConnectionsPerDestination(1024);
    http.setMaxRequestsQueuedPerDestination(64 * 1024);
    http.setResponseBufferSize(64 * 1024);
    try {
      http.start();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the backend HTTP client", e);
    }
  }

  /**
   * Sends {@code request} to {@code uri} and returns the reply with its body unread
   * ({@link SoapResponse#body()}), its Content-Type checked to be SOAP. {@code expected} is
   * about the request's size if known beforehand (else 0), to size its buffer.
   *
   * @throws SoapHttpException if the reply is not SOAP
   * @throws HttpTimeoutException if the exchange made no progress for the timeout
   * @throws java.net.ConnectException if the backend cannot be reached
   */
  SoapResponse call(URI uri, Payload payload, String soapAction, long expected)
      throws IOException {
    Request request = http.newRequest(uri).method(HttpMethod.POST)
        .idleTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (soapAction != null) {
      request.headers(h -> h.put("SOAPAction", "\"" + soapAction + "\""));
    }
    String contentType = payload.contentType();
    InputStreamResponseListener listener = new InputStreamResponseListener();
    RequestBody body = new RequestBody(bufferBytes, () -> {
      OutputStreamRequestContent content = new OutputStreamRequestContent(contentType);
      request.body(content).send(listener);
      return content.getOutputStream();
    }, () -> { }, expected);
    try {
      payload.writeTo(body);
      body.finish();
    } catch (IOException e) {
      // never let a half-written request look complete: abort it (no last chunk goes out)
      request.abort(e);
      throw body.streamed() ? failure(uri, e) : e;
    } catch (RuntimeException e) {
      request.abort(e);
      throw e;
    }
    if (!body.streamed()) {
      request.body(new ByteBufferRequestContent(contentType,
          ByteBuffer.wrap(body.bytes(), 0, body.size()))).send(listener);
    }
    Response response = await(listener, request, uri);
    InputStream in = listener.getInputStream();
    boolean handedOver = false;
    try {
      SoapResponse reply = read(uri, response, in);
      handedOver = true;
      return reply;
    } finally {
      if (!handedOver) {
        in.close(); // aborts the exchange if the reply was not read to its end
      }
    }
  }

  private Response await(InputStreamResponseListener listener, Request request, URI uri)
      throws IOException {
    try {
      // no deadline of its own: the connection's idle timeout ends an exchange that stalls
      return listener.get(Long.MAX_VALUE, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      request.abort(e);
      throw new InterruptedIOException("interrupted while waiting for " + uri);
    } catch (ExecutionException e) {
      throw failure(uri, e.getCause());
    } catch (TimeoutException e) {
      request.abort(e);
      throw failure(uri, e);
    }
  }

  private static SoapResponse read(URI uri, Response response, InputStream in)
      throws IOException {
    int status = response.getStatus();
    String contentType = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
    AutoCloseable release = () -> release(in);
    if (status == 202 || status == 204) {
      return new SoapResponse(status, contentType, null, null, release);
    }
    MediaType type = parse(contentType);
    if (type == null || HttpSoap.version(type) == null) {
      byte[] start = in.readNBytes(300);
      throw new SoapHttpException(uri, status, contentType,
          new String(start, StandardCharsets.UTF_8));
    }
    return new SoapResponse(status, contentType, null, in, release);
  }

  /** Reads a little of an unread rest so the connection can be reused, then closes. */
  private static void release(InputStream in) throws IOException {
    try {
      if (in.read() >= 0) {
        byte[] skip = new byte[8192];
        long budget = 64 * 1024;
        for (int n; budget > 0 && (n = in.read(skip)) >= 0; ) {
          budget -= n;
        }
      }
    } catch (IOException ignored) {
      // the connection is dropped instead of reused
    } finally {
      in.close(); // a rest still unread aborts the exchange: the connection is not reused
    }
  }

  private static MediaType parse(String contentType) {
    try {
      return contentType == null ? null : MediaType.parse(contentType);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Returns the exception that explains a failed exchange best. */
  private IOException failure(URI uri, Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException || t instanceof HttpTimeoutException) {
        HttpTimeoutException e = new HttpTimeoutException("no progress for "
            + timeout.toMillis() + " ms in the exchange with " + uri);
        e.initCause(cause);
        return e;
      }
    }
    if (cause instanceof IOException io) {
      return io;
    }
    return new IOException("exchange with " + uri + " failed: " + cause, cause);
  }

  @Override
  public void close() {
    try {
      http.stop();
    } catch (Exception e) {
      // stopping drops the pooled connections; nothing is left to release
    }
  }
}
