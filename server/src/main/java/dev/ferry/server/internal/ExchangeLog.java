package dev.ferry.server.internal;

import dev.ferry.logging.MessageLog;
import dev.ferry.logging.internal.MessageTap;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The message log of one exchange on the server: the request's record once its envelope was
 * read ({@link #requestRead}), its attachments and the reply's record at the end
 * ({@link #finish}). Both are {@link MessageTap#OFF} when there is no message log.
 */
public final class ExchangeLog {
  private static final ExchangeLog OFF = new ExchangeLog(MessageTap.OFF, MessageTap.OFF, null,
      null);

  private final MessageTap request;
  private final MessageTap reply;
  private final HttpServletRequest http;
  private final HttpServletResponse response;

  private ExchangeLog(MessageTap request, MessageTap reply, HttpServletRequest http,
      HttpServletResponse response) {
    this.request = request;
    this.reply = reply;
    this.http = http;
    this.response = response;
  }

  /** The log of the exchange of {@code http}, or one that logs nothing if {@code log} is null. */
  public static ExchangeLog open(MessageLog log, HttpServletRequest http,
      HttpServletResponse response) {
    if (log == null || !log.enabled()) {
      return OFF;
    }
    long n = log.nextExchange();
    MessageTap request = MessageTap.open(log, () -> "request " + n + " " + http.getMethod()
        + " " + http.getRequestURI() + " from " + http.getRemoteAddr(), http::getContentType);
    MessageTap reply = MessageTap.open(log, () -> "reply " + n + " " + response.getStatus(),
        response::getContentType);
    return new ExchangeLog(request, reply, http, response);
  }

  /** The request's tap: wrap its stream with it. */
  public MessageTap request() {
    return request;
  }

  /** The reply's tap: wrap its stream with it. */
  public MessageTap reply() {
    return reply;
  }

  /** The request's envelope was read: its record is written now. */
  public void requestRead() {
    if (request.on()) {
      request.log(requestHeaders());
    }
  }

  /** The exchange ended: what is left of the request's record, and the reply's. */
  public void finish() {
    if (request.on()) {
      request.finish(requestHeaders());
      reply.finish(replyHeaders());
    }
  }

  private List<Map.Entry<String, String>> requestHeaders() {
    List<Map.Entry<String, String>> h = new ArrayList<>();
    for (String name : Collections.list(http.getHeaderNames())) {
      for (String value : Collections.list(http.getHeaders(name))) {
        h.add(Map.entry(name, value));
      }
    }
    return h;
  }

  private List<Map.Entry<String, String>> replyHeaders() {
    List<Map.Entry<String, String>> h = new ArrayList<>();
    for (String name : response.getHeaderNames()) {
      for (String value : response.getHeaders(name)) {
        h.add(Map.entry(name, value));
      }
    }
    return h;
  }
}
