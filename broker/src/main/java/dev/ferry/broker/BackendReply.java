package dev.ferry.broker;

import dev.ferry.client.internal.Replies;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A backend's reply as {@link BackendClient} hands it to the broker: status, Content-Type, the
 * body's length when it is known before it is read, and the body unread (null for 202 or 204).
 * A body that was taken whole before the reply was handed over is also there as a buffer, to be
 * written without blocking. Closing it releases the exchange: a rest still unread is drained a
 * little, or the connection dropped.
 */
final class BackendReply implements AutoCloseable {
  private final int status;
  private final String contentType;
  private final long length;
  private final InputStream body;
  private final ByteBuffer whole;
  private final Runnable release;

  /** {@code length} is the body's size in bytes, or -1 if not known beforehand. */
  BackendReply(int status, String contentType, long length, InputStream body) {
    this(status, contentType, length, body, null, () -> { });
  }

  /**
   * {@code whole} is the body if it was taken whole (the same bytes as {@code body}), which may
   * be the client's own buffer: {@code release} lets it go.
   */
  BackendReply(int status, String contentType, long length, InputStream body, ByteBuffer whole,
      Runnable release) {
    this.status = status;
    this.contentType = contentType;
    this.length = length;
    this.body = body;
    this.whole = whole;
    this.release = release;
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

  /**
   * The body if it was taken whole before the reply was handed over, else null. It may be the
   * backend client's own buffer, valid until {@link #release} or {@link #close}: a write of it
   * must have completed before either.
   */
  ByteBuffer whole() {
    return whole;
  }

  /** Lets the bytes of a body taken whole go (it holds no connection); may be called again. */
  void release() {
    release.run();
  }

  @Override
  public void close() throws IOException {
    if (body != null && whole == null) {
      Replies.drainAndClose(body);
    } else {
      release();
    }
  }
}
