package dev.ferry.client;

import dev.ferry.logging.MessageLog;
import dev.ferry.logging.internal.MessageTap;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponse;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;

/**
 * The message log of one call: the request's record once it was written, the reply's once its
 * envelope was read, and the reply's attachments that went by when it is closed. Without a
 * message log, every method passes its stream through and does nothing.
 */
final class CallLog {
  private static final CallLog OFF = new CallLog(null, 0, null);

  private final MessageLog log;
  private final long exchange;
  private final URI uri;
  private volatile MessageTap request = MessageTap.OFF;
  private volatile MessageTap reply = MessageTap.OFF;
  private volatile HttpResponse head;

  private CallLog(MessageLog log, long exchange, URI uri) {
    this.log = log;
    this.exchange = exchange;
    this.uri = uri;
  }

  /** The log of a call to {@code uri}; one that logs nothing if {@code log} is null or off. */
  static CallLog open(MessageLog log, URI uri) {
    return log == null || !log.enabled() ? OFF : new CallLog(log, log.nextExchange(), uri);
  }

  /** {@code body}, which the request of type {@code contentType} is written to, tapped. */
  OutputStream request(OutputStream body, String contentType) {
    if (log == null) {
      return body;
    }
    MessageTap tap = MessageTap.open(log, () -> "client request " + exchange + " POST " + uri,
        () -> contentType);
    request = tap;
    return tap.tap(body);
  }

  /** The request went out with {@code headers}. */
  void requestSent(HttpHeaders headers) {
    request.finish(headers);
  }

  /** The reply's body, tapped. */
  InputStream reply(InputStream body, HttpResponse head) {
    if (log == null) {
      return body;
    }
    this.head = head;
    String type = head.headers().get(HttpHeaderNames.CONTENT_TYPE);
    MessageTap tap = MessageTap.open(log, () -> "client reply " + exchange + " "
        + head.status().code(), () -> type);
    reply = tap;
    return tap.tap(body);
  }

  /** The reply's envelope was read. */
  void replyRead() {
    HttpResponse h = head;
    if (h != null) {
      reply.log(h.headers());
    }
  }

  /** The reply was closed: its attachments that went by since its record. */
  void replyClosed() {
    HttpResponse h = head;
    if (h != null) {
      reply.finish(h.headers());
    }
  }
}
