package dev.ferry.http;

import dev.ferry.mime.MediaType;
import dev.ferry.mime.MimeException;
import dev.ferry.soap.SoapVersion;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/** What the SOAP HTTP bindings (1.1 and 1.2) say about a request's headers. */
final class HttpSoap {
  private static final System.Logger ACCESS = System.getLogger("dev.ferry.http.access");

  private HttpSoap() {}

  /**
   * Returns the SOAP version a Content-Type announces (for a package: its {@code type}, or for
   * XOP its {@code start-info}), or null if it is not a SOAP media type.
   */
  static SoapVersion version(MediaType type) {
    String base = type.baseType();
    if (type.isMultipart()) {
      if (!base.equals("multipart/related")) {
        return null;
      }
      String root = type.parameter("type");
      if ("application/xop+xml".equalsIgnoreCase(root)) {
        root = type.parameter("start-info");
      }
      MediaType rootType = mediaType(root);
      if (root != null && rootType == null) {
        return null; // a malformed type parameter names no SOAP type
      }
      base = rootType == null ? "text/xml" : rootType.baseType();
    }
    return switch (base.toLowerCase(Locale.ROOT)) {
      case "text/xml" -> SoapVersion.SOAP_11;
      case "application/soap+xml" -> SoapVersion.SOAP_12;
      default -> null;
    };
  }

  /** Parses a Content-Type; returns null if there is none or it cannot be parsed. */
  static MediaType mediaType(String contentType) {
    try {
      return contentType == null ? null : MediaType.parse(contentType);
    } catch (MimeException e) {
      return null;
    }
  }

  /**
   * Returns the SOAP action: the {@code SOAPAction} header (1.1) without its quotes, or the
   * {@code action} parameter of the Content-Type (1.2), or null.
   */
  static String soapAction(HttpServletRequest request, MediaType type) {
    return soapAction(request.getHeader("SOAPAction"), type);
  }

  /** As {@link #soapAction(HttpServletRequest, MediaType)}, given the SOAPAction header. */
  static String soapAction(String header, MediaType type) {
    String action = header;
    if (action == null) {
      action = type.parameter("action");
      if (action == null && type.isMultipart()) {
        String startInfo = type.parameter("start-info");
        MediaType info = mediaType(startInfo);
        action = info == null ? null : info.parameter("action");
      }
    }
    if (action != null && action.length() >= 2 && action.startsWith("\"")
        && action.endsWith("\"")) {
      action = action.substring(1, action.length() - 1);
    }
    return action;
  }

  /**
   * Reads what is left of a request once its message has been read: the line end after a
   * package's closing delimiter (the MIME parser stops at the delimiter's "--"), an epilogue, or
   * a chunked body's last chunk. Jetty closes a connection whose request was not read to its end
   * when the exchange is over, after a reply that did not announce it, so the client's next
   * request on that kept-alive connection fails, or the close resets the reply in flight. Gives
   * up after {@code maxBytes} (the connection is then closed, which is all it costs).
   */
  static void readToEnd(InputStream in, int maxBytes) throws IOException {
    byte[] skip = new byte[Math.min(maxBytes, 8192)];
    for (long left = maxBytes; left > 0; ) {
      int n = in.read(skip, 0, (int) Math.min(skip.length, left));
      if (n < 0) {
        return;
      }
      left -= n;
    }
  }

  /**
   * Reads up to 64 KiB of an unread reply's rest so that its connection can be reused, then
   * closes it (a rest still unread then aborts the exchange: the connection is dropped).
   */
  static void drainAndClose(InputStream in) throws IOException {
    try {
      if (in.read() >= 0) {
        readToEnd(in, 64 * 1024);
      }
    } catch (IOException ignored) {
      // the connection is dropped instead of reused
    } finally {
      in.close();
    }
  }

  /** Whether access log lines are written. */
  static boolean logging() {
    return ACCESS.isLoggable(System.Logger.Level.INFO);
  }

  /** Writes one access log line: who, what, status, bytes in and out, time, and a note. */
  static void log(HttpServletRequest request, int status, long in, long out, long nanos,
      String note) {
    if (ACCESS.isLoggable(System.Logger.Level.INFO)) {
      log(request.getRemoteAddr(), request.getMethod(), request.getRequestURI(), status, in, out,
          nanos, note);
    }
  }

  /** As {@link #log(HttpServletRequest, int, long, long, long, String)}, for any request. */
  static void log(String remote, String method, String uri, int status, long in, long out,
      long nanos, String note) {
    if (ACCESS.isLoggable(System.Logger.Level.INFO)) {
      ACCESS.log(System.Logger.Level.INFO, String.format(Locale.ROOT,
          "%s \"%s %s\" %d in=%d out=%d %.1fms%s", remote, method, uri, status, in, out,
          nanos / 1e6, note == null ? "" : " " + note));
    }
  }
}
