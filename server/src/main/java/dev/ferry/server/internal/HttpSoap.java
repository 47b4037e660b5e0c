package dev.ferry.server.internal;

import dev.ferry.bytes.internal.Streams;
import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.soap.SoapBinding;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;

/** What the SOAP HTTP bindings (1.1 and 1.2) say about a request's headers. */
public final class HttpSoap {
  private static final System.Logger ACCESS = System.getLogger("dev.ferry.access");

  private HttpSoap() {}

  /** Parses a Content-Type; returns null if there is none or it cannot be parsed. */
  public static MediaType mediaType(String contentType) {
    try {
      return contentType == null ? null : MediaType.parse(contentType);
    } catch (MimeException e) {
      return null;
    }
  }

  /** The request's SOAP action (see {@link SoapBinding#soapAction}). */
  public static String soapAction(HttpServletRequest request, MediaType type) {
    return SoapBinding.soapAction(request.getHeader("SOAPAction"), type);
  }

  /**
   * Reads what is left of a request once its message has been read: the line end after a
   * package's closing delimiter (the MIME parser stops at the delimiter's "--"), an epilogue, or
   * a chunked body's last chunk. Jetty closes a connection whose request was not read to its end
   * when the exchange is over, after a reply that did not announce it, so the client's next
   * request on that kept-alive connection fails, or the close resets the reply in flight. Gives
   * up after {@code maxBytes} (the connection is then closed, which is all it costs).
   */
  public static void readToEnd(InputStream in, int maxBytes) throws IOException {
    Streams.discard(in, maxBytes);
  }

  /**
   * Returns the first transfer coding of {@code request} other than chunked (RFC 9112: a server
   * answers one it does not implement with 501, not by reading the coded body as the message),
   * or null if there is none.
   */
  public static String unknownTransferCoding(HttpServletRequest request) {
    java.util.Enumeration<String> values = request.getHeaders("Transfer-Encoding");
    while (values != null && values.hasMoreElements()) {
      for (String coding : values.nextElement().split(",")) {
        String c = coding.strip();
        if (!c.isEmpty() && !c.equalsIgnoreCase("chunked")) {
          return c;
        }
      }
    }
    return null;
  }

  /** Whether access log lines are written. */
  public static boolean logging() {
    return ACCESS.isLoggable(System.Logger.Level.INFO);
  }

  /** Writes one access log line: who, what, status, bytes in and out, time, and a note. */
  public static void log(HttpServletRequest request, int status, long in, long out, long nanos,
      String note) {
    if (ACCESS.isLoggable(System.Logger.Level.INFO)) {
      log(request.getRemoteAddr(), request.getMethod(), request.getRequestURI(), status, in, out,
          nanos, note);
    }
  }

  /** As {@link #log(HttpServletRequest, int, long, long, long, String)}, for any request. */
  public static void log(String remote, String method, String uri, int status, long in, long out,
      long nanos, String note) {
    if (ACCESS.isLoggable(System.Logger.Level.INFO)) {
      // a line per request, on by default: built by hand, String.format's parsing cost more
      long tenths = Math.round(nanos / 1e5);
      StringBuilder line = new StringBuilder(96).append(remote).append(" \"").append(method)
          .append(' ').append(uri).append("\" ").append(status).append(" in=").append(in)
          .append(" out=").append(out).append(' ').append(tenths / 10).append('.')
          .append(tenths % 10).append("ms");
      if (note != null) {
        line.append(' ').append(note);
      }
      ACCESS.log(System.Logger.Level.INFO, line.toString());
    }
  }
}
