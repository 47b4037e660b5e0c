package dev.ferry.broker;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.DecodeException;
import dev.ferry.mime.MediaType;
import dev.ferry.server.internal.CountingOutputStream;
import dev.ferry.server.internal.FaultReplies;
import dev.ferry.server.internal.HttpSoap;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapBinding;
import dev.ferry.soap.SoapVersion;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One exchange on the broker's fast path ({@link BrokerFastPath}). The caller's body is copied
 * out as Jetty delivers it, the thread returning whenever the rest has not arrived yet; the
 * message is then read, routed and changed as on the servlet path ({@link Forwarding}) and sent
 * on whole by {@link BackendClient#send} (a multipart one as the caller's bytes around the
 * changed envelope, see {@link Splice}); a reply taken whole is written back with a callback,
 * so no thread waits anywhere in the exchange. A reply too long to be held streams back on one
 * of the backend client's threads, as it would through the servlet. Faults, the metrics and the
 * access log are as on the servlet path; a reply that breaks after it began to flow back aborts
 * the caller's connection.
 */
final class FastExchange implements BackendClient.ReplyHandler {
  /**
   * Room in {@link #body} before the caller's bytes, for the changed envelope to grow into
   * when the request is sent on from the same array ({@link Splice}).
   */
  static final int HEADROOM = 1024;
  private final BrokerFastPath broker;
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final MediaType type;
  private final String path;
  private final byte[] body;
  private final long start = System.nanoTime();
  private int received;
  private long sent;
  private SoapVersion version;
  private Routes.Route route;
  private Audit.Copy copy;
  private boolean finished;

  /** {@code request} has a SOAP media type and a Content-Length up to 64 KiB. */
  FastExchange(BrokerFastPath broker, Request request, Response response, Callback callback,
      MediaType type) {
    this.broker = broker;
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.type = type;
    this.path = request.getHttpURI().getPath();
    this.body = new byte[HEADROOM + (int) request.getLength()];
    this.version = SoapBinding.version(type);
  }

  void start() {
    broker.metrics.started();
    receive();
  }

  /** Takes what has arrived of the body; asks Jetty to call again when more does. */
  private void receive() {
    while (true) {
      Content.Chunk chunk = request.read();
      if (chunk == null) {
        request.demand(this::receive);
        return;
      }
      if (Content.Chunk.isFailure(chunk)) {
        abort(chunk.getFailure(), "request broken");
        return;
      }
      ByteBuffer bytes = chunk.getByteBuffer();
      int n = bytes.remaining();
      boolean last = chunk.isLast();
      if (n > body.length - HEADROOM - received) {
        chunk.release(); // Jetty holds a body to its Content-Length; this is only a guard
        abort(new IOException("the request is longer than its Content-Length"), "request broken");
        return;
      }
      bytes.get(body, HEADROOM + received, n);
      chunk.release();
      received += n;
      broker.metrics.requestBytes(n);
      if (last) {
        forward();
        return;
      }
    }
  }

  private void forward() {
    Outgoing outgoing;
    try {
      outgoing = prepare();
    } catch (IOException | RuntimeException e) {
      if (copy != null) {
        copy.discard();
      }
      abort(e, "request unreadable");
      return;
    }
    if (outgoing == null) {
      return;
    }
    try {
      broker.backend.send(route.to(), outgoing.contentType(), outgoing.body(),
          outgoing.soapAction(), this);
    } catch (RuntimeException e) {
      failed(new IOException("cannot send: " + e, e)); // the client is stopping
    }
  }

  /** What goes to the backend. */
  private record Outgoing(String contentType, ByteBuffer body, String soapAction) {}

  /**
   * Reads, routes and changes the message and makes what goes to the backend; answers with a
   * fault and returns null if it cannot go on.
   */
  private Outgoing prepare() throws IOException {
    MessageBuffer buffer;
    try {
      buffer = broker.codec.read(new ByteArrayInputStream(body, HEADROOM, received),
          request.getHeaders().get(HttpHeader.CONTENT_TYPE));
    } catch (DecodeException e) {
      reply(FaultReplies.forUnreadableRequest(version, e));
      return null;
    }
    try (buffer) {
      Message message = buffer.toMessage();
      version = message.version();
      String soapAction = SoapBinding.soapAction(request.getHeaders().get("SOAPAction"), type);
      route = broker.forwarding.prepare(path, message, soapAction);
      if (route == null) {
        reply(Forwarding.noRoute(path, message, soapAction));
        return null;
      }
      copy = broker.audit.open(route);
      return outgoing(message, soapAction);
    }
  }

  /**
   * The request as it goes to the backend: the caller's bytes around the changed envelope where
   * it can ({@link Splice}; not with an audit copy, which tees what is written), else written
   * out whole. Answers with a fault and returns null if a part after the root is malformed or
   * over a limit.
   */
  private Outgoing outgoing(Message message, String soapAction) {
    try {
      ByteBuffer spliced = route.audit() == null
          ? message.spliceInto(body, HEADROOM, received) : null;
      if (spliced != null) {
        return new Outgoing(request.getHeaders().get(HttpHeader.CONTENT_TYPE), spliced,
            soapAction);
      }
      Payload payload = copy.wrap(message.toPayload());
      // what came in, plus room for the trace header and a longer wsa:To
      Held out = new Held(received + 1024);
      payload.writeTo(out);
      return new Outgoing(payload.contentType(), out.asBuffer(), soapAction);
    } catch (IOException e) {
      failed(e);
      return null;
    }
  }

  @Override
  public void failed(IOException failure) {
    copy.discard();
    reply(Forwarding.failed(version, route.to(), failure));
  }

  @Override
  public void replied(BackendReply reply) {
    copy.complete();
    try {
      relay(reply);
    } catch (RuntimeException e) {
      abort(e, "aborted mid-reply"); // the client's future would swallow it
    }
  }

  private void relay(BackendReply reply) {
    if (reply.body() != null && reply.whole() == null) {
      relayStreaming(reply);
      return;
    }
    response.setStatus(reply.status());
    if (reply.body() == null) {
      if (finish(reply.status(), null)) {
        callback.succeeded();
      }
      return;
    }
    ByteBuffer whole = reply.whole();
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, whole.remaining());
    sent = whole.remaining();
    // the bytes may be the backend client's buffer: let it go once they are written
    if (finish(reply.status(), null)) {
      response.write(true, whole, Callback.from(reply::release, callback));
    } else {
      reply.release();
    }
  }

  /**
   * Relays a reply that streams from the backend as it comes; runs on a thread that may block.
   * Only a reply read to its end ends the response: a failure before aborts the connection. Its
   * bytes are written through, not buffered, so a break always aborts; they are out before the
   * exchange is counted, just before the last (empty) write.
   */
  private void relayStreaming(BackendReply reply) {
    response.setStatus(reply.status());
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
    if (reply.length() >= 0) {
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, reply.length());
    }
    OutputStream sink = Content.Sink.asOutputStream(response);
    CountingOutputStream out = new CountingOutputStream(sink);
    try (reply) {
      reply.body().transferTo(out);
    } catch (IOException e) {
      sent = out.count();
      abort(e, "aborted mid-reply");
      return;
    }
    sent = out.count();
    if (!finish(reply.status(), null)) {
      return;
    }
    try {
      sink.close(); // the last write
    } catch (IOException e) {
      callback.failed(e);
      return;
    }
    callback.succeeded();
  }

  private void reply(Fault fault) {
    ByteString envelope;
    try {
      envelope = FaultReplies.begin(response, broker.codec, fault);
    } catch (IOException e) {
      abort(e, "fault unwritable");
      return;
    }
    sent = envelope.size();
    writeLast(FaultReplies.status(fault), "fault: " + fault.reason(), envelope.asByteBuffer());
  }

  /**
   * Counts the exchange, then writes the last of the reply. Counted first, as the servlet path
   * counts before its container completes the response: a caller that has the whole reply then
   * finds it in the metrics. A write that fails then aborts the connection.
   */
  private void writeLast(int status, String note, ByteBuffer bytes) {
    if (finish(status, note)) {
      response.write(true, bytes, callback);
    }
  }

  private void abort(Throwable failure, String note) {
    if (finish(response.getStatus(), note)) {
      callback.failed(failure);
    }
  }

  /** Counts the exchange in the metrics and the access log; false if it was already. */
  private boolean finish(int status, String note) {
    if (finished) {
      return false;
    }
    finished = true;
    long nanos = System.nanoTime() - start;
    broker.metrics.finished(path, status, nanos, received, sent);
    if (HttpSoap.logging()) {
      HttpSoap.log(Request.getRemoteAddr(request), request.getMethod(), path, status, received,
          sent, nanos, note);
    }
    return true;
  }

  /** The request as sent on: its bytes are handed to the client as they are, not copied. */
  private static final class Held extends ByteArrayOutputStream {
    Held(int size) {
      super(size);
    }

    ByteBuffer asBuffer() {
      return ByteBuffer.wrap(buf, 0, count);
    }
  }
}
