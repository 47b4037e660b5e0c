package dev.ferry.broker.internal;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP the broker reads and writes around the SOAP it forwards: what a request's head says
 * (its media type, its transfer codings, its query), where a backend's request goes, and the
 * whole answers the broker makes itself (text, SOAP faults, the probes and the metrics).
 */
public final class HttpForms {
  private HttpForms() {}

  /** {@code contentType} parsed, or null if absent or not a media type. */
  public static MediaType mediaType(String contentType) {
    try {
      return contentType == null ? null : MediaType.parse(contentType);
    } catch (MimeException e) {
      return null;
    }
  }

  /** The first transfer coding in {@code headers} other than chunked, or null. */
  public static String unknownTransferCoding(HttpHeaders headers) {
    for (String value : headers.getAll(HttpHeaderNames.TRANSFER_ENCODING)) {
      for (String coding : value.split(",")) {
        String c = coding.strip();
        if (!c.isEmpty() && !c.equalsIgnoreCase("chunked")) {
          return c;
        }
      }
    }
    return null;
  }

  /** The query of a request target, or null. */
  public static String query(String uri) {
    int q = uri.indexOf('?');
    return q < 0 ? null : uri.substring(q + 1);
  }

  /** The request target (path and query) of a request to {@code uri}. */
  public static String target(URI uri) {
    String p = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return uri.getRawQuery() == null ? p : p + "?" + uri.getRawQuery();
  }

  /** A connection that could not be made, as a {@link ConnectException} caused by it. */
  public static ConnectException connectFailure(Throwable cause) {
    ConnectException e = new ConnectException(String.valueOf(cause == null ? null
        : cause.getMessage()));
    e.initCause(cause);
    return e;
  }

  /** A short text answer: for what is not a SOAP request. */
  public static FullHttpResponse text(HttpVersion version, HttpResponseStatus status,
      String text) {
    return whole(version, status, (text + "\n").getBytes(StandardCharsets.UTF_8),
        "text/plain; charset=utf-8");
  }

  /** A SOAP fault's {@code envelope} of {@code contentType}, with {@code Retry-After} if set. */
  public static FullHttpResponse fault(HttpVersion version, int status, byte[] envelope,
      String contentType, String retryAfter) {
    FullHttpResponse out = whole(version, HttpResponseStatus.valueOf(status), envelope,
        contentType);
    if (retryAfter != null) {
      out.headers().set(HttpHeaderNames.RETRY_AFTER, retryAfter);
    }
    return out;
  }

  /** A probe's answer: UP, or DOWN (503) for {@code downReason}; never cached. */
  public static FullHttpResponse health(HttpVersion version, String downReason) {
    boolean down = downReason != null;
    String json = down ? "{\"status\":\"DOWN\",\"reason\":\"" + jsonText(downReason)
        + "\"}\n"
        : "{\"status\":\"UP\"}\n";
    FullHttpResponse out = whole(version, down ? HttpResponseStatus.SERVICE_UNAVAILABLE
        : HttpResponseStatus.OK, json.getBytes(StandardCharsets.UTF_8), "application/json");
    out.headers().set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
    return out;
  }

  /** {@code text} as the inside of a JSON string: quotes, backslashes and controls escaped. */
  private static String jsonText(String text) {
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The meters in the Prometheus text format. */
  public static FullHttpResponse metrics(HttpVersion version, String scrape) {
    return whole(version, HttpResponseStatus.OK, scrape.getBytes(StandardCharsets.UTF_8),
        "text/plain; version=0.0.4; charset=utf-8");
  }

  private static FullHttpResponse whole(HttpVersion version, HttpResponseStatus status,
      byte[] body, String contentType) {
    FullHttpResponse out = new DefaultFullHttpResponse(version, status,
        Unpooled.wrappedBuffer(body));
    out.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    HttpUtil.setContentLength(out, body.length);
    return out;
  }
}
