package dev.ferry.client;

import dev.ferry.soap.Fault;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.MessageGuard;
import dev.ferry.tracing.internal.SoapSpans;
import io.opentelemetry.api.trace.Span;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.namespace.QName;

/**
 * A reply received by {@link SoapClient}: HTTP status, and the message (null for 202 Accepted).
 * Its attachments stream from the connection as they are read; close the response to release
 * them and the connection.
 */
public final class SoapResponse implements AutoCloseable {
  private final int status;
  private final String contentType;
  private final HttpHeaders httpHeaders;
  private final MessageBuffer buffer;
  private final Call call;
  private final CallLog log;
  private Message message;
  private Span span;
  private java.security.Principal principal;
  private Map<String, List<String>> headers;

  SoapResponse(int status, HttpHeaders httpHeaders, MessageBuffer buffer, Call call,
      CallLog log) {
    this.status = status;
    this.log = log;
    this.httpHeaders = httpHeaders;
    this.contentType = httpHeaders.get("Content-Type");
    this.buffer = buffer;
    this.call = call;
  }

  /** Ends {@code span} when this reply is closed, with what was sent and received. */
  void trace(Span span) {
    this.span = span;
  }

  public int status() {
    return status;
  }

  /** Returns the Content-Type of the reply, or null without a body. */
  public String contentType() {
    return contentType;
  }

  /**
   * Returns every header of the reply: names compared ignoring case, each with its values in
   * the order received. Read-only.
   */
  public Map<String, List<String>> headers() {
    if (headers == null) {
      Map<String, List<String>> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      for (Map.Entry<String, String> e : httpHeaders) {
        m.computeIfAbsent(e.getKey(), k -> new ArrayList<>(1)).add(e.getValue());
      }
      m.replaceAll((k, v) -> List.copyOf(v));
      headers = Collections.unmodifiableMap(m);
    }
    return headers;
  }

  /** Returns the first value of the header {@code name} (any case), or null. */
  public String header(String name) {
    return httpHeaders.get(name);
  }

  /** Returns the reply's buffer, or null without a body. */
  public MessageBuffer buffer() {
    return buffer;
  }

  /** Returns the reply as a message (one overlay, made once), or null without a body. */
  public Message message() {
    if (message == null && buffer != null) {
      message = buffer.toMessage();
    }
    return message;
  }

  /**
   * Who the reply's guard (WS-Security) says sent it: the signer's subject or the UsernameToken's
   * user; null without a guard or when it does not say.
   */
  public java.security.Principal principal() {
    return principal;
  }

  /** Passes the reply through {@code guard} (a fault is left as it came). */
  void open(MessageGuard guard) throws IOException {
    if (buffer == null || isFault()) {
      return;
    }
    MessageGuard.Opened o = guard.open(message());
    message = o.message();
    principal = o.principal();
  }

  /** Returns true if the reply is a SOAP fault. */
  public boolean isFault() throws IOException {
    return buffer != null && message().isFault();
  }

  /** Returns the fault the reply holds, or null if it is not one. */
  public Fault fault() throws IOException {
    return isFault() ? Fault.read(message()) : null;
  }

  /**
   * Releases the reply: reads what is left of it first (a little: the line end after the closing
   * delimiter, or a small unread attachment) so that the connection can be reused, then deletes
   * the attachments' temp files. A large unread rest is not read: the connection is dropped.
   */
  @Override
  public void close() throws IOException {
    QName faultCode = span != null && span.isRecording() ? faultCode() : null;
    try {
      call.close();
    } finally {
      try {
        if (buffer != null) {
          buffer.close();
        }
      } finally {
        log.replyClosed();
        endSpan(faultCode);
      }
    }
  }

  /** The code of the fault this reply is, or null (also when it cannot be read). */
  private QName faultCode() {
    try {
      Fault f = fault();
      return f == null ? null : f.code();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private void endSpan(QName faultCode) {
    Span s = span;
    if (s != null) {
      span = null;
      if (buffer != null) {
        SoapSpans.message(s, buffer.version(), -1); // its attachments stream, uncounted
      }
      SoapSpans.endClient(s, status, call.sentBytes(), call.received(), faultCode, null);
    }
  }

  @Override
  public String toString() {
    return "SoapResponse[" + status + ", " + contentType + "]";
  }
}
