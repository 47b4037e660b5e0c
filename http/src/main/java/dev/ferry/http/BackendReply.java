package dev.ferry.http;

import java.io.IOException;
import java.io.InputStream;

/**
 * A backend's reply as {@link BackendClient} hands it to the broker: status, Content-Type, the
 * body's length when it is known before it is read, and the body unread (null for 202 or 204).
 * Closing it releases the exchange: a rest still unread is drained a little, or the connection
 * dropped.
 */
final class BackendReply implements AutoCloseable {
  private final int status;
  private final String contentType;
  private final long length;
  private final InputStream body;

  /** {@code length} is the body's size in bytes, or -1 if not known beforehand. */
  BackendReply(int status, String contentType, long length, InputStream body) {
    this.status = status;
    this.contentType = contentType;
    this.length = length;
    this.body = body;
  }

  int status() {
    return status;
  }

  String contentType() {
    return contentType;
  }

  /** The body's size in bytes, or -1 if it is only known once read to its end. */
  long length() {
    return length;
  }

  /** The body, unread; null if the reply has none. */
  InputStream body() {
    return body;
  }

  @Override
  public void close() throws IOException {
    if (body != null) {
      HttpSoap.drainAndClose(body);
    }
  }
}
