package dev.ferry.jaxws.internal;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import jakarta.xml.ws.spi.http.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code jakarta.xml.ws.spi.http} exchange's response as a servlet response: status and
 * headers are kept until the first byte of the body (or {@link #finish()}), then handed to the
 * exchange, whose body stream the container sends. Anything a SOAP servlet does not ask of a
 * response throws.
 */
final class ExchangeResponse extends HttpServletResponseWrapper {
  private final HttpExchange exchange;
  private final Map<String, List<String>> headers = new LinkedHashMap<>();
  private int status = 200;
  private boolean committed;
  private ServletOutputStream body;

  ExchangeResponse(HttpExchange exchange) {
    super(Unsupported.of(HttpServletResponse.class, "for a jakarta.xml.ws.spi.http exchange"));
    this.exchange = exchange;
  }

  @Override
  public void setStatus(int sc) {
    if (!committed) {
      status = sc;
    }
  }

  @Override
  public int getStatus() {
    return status;
  }

  @Override
  public void setHeader(String name, String value) {
    if (!committed) {
      headers.remove(name);
      addHeader(name, value);
    }
  }

  @Override
  public void addHeader(String name, String value) {
    if (!committed && value != null) {
      headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
  }

  @Override
  public void setIntHeader(String name, int value) {
    setHeader(name, Integer.toString(value));
  }

  @Override
  public boolean containsHeader(String name) {
    return headers.containsKey(name);
  }

  @Override
  public String getHeader(String name) {
    List<String> v = headers.get(name);
    return v == null ? null : v.get(0);
  }

  @Override
  public void setContentType(String type) {
    setHeader("Content-Type", type);
  }

  @Override
  public String getContentType() {
    return getHeader("Content-Type");
  }

  @Override
  public void setContentLength(int len) {
    setContentLengthLong(len);
  }

  @Override
  public void setContentLengthLong(long len) {
    setHeader("Content-Length", Long.toString(len));
  }

  @Override
  public void setCharacterEncoding(String charset) {
    // the Content-Type names it
  }

  @Override
  public String getCharacterEncoding() {
    return StandardCharsets.UTF_8.name();
  }

  @Override
  public boolean isCommitted() {
    return committed;
  }

  @Override
  public void sendError(int sc) throws IOException {
    sendError(sc, null);
  }

  @Override
  public void sendError(int sc, String message) throws IOException {
    setStatus(sc);
    byte[] text = ((message == null ? "HTTP " + sc : message) + "\n")
        .getBytes(StandardCharsets.UTF_8);
    setContentType("text/plain; charset=utf-8");
    setContentLength(text.length);
    getOutputStream().write(text);
  }

  @Override
  public ServletOutputStream getOutputStream() {
    if (body == null) {
      body = new Body();
    }
    return body;
  }

  @Override
  public void flushBuffer() throws IOException {
    getOutputStream().flush();
  }

  /** Sends status and headers if nothing of the body did. */
  void finish() throws IOException {
    commit();
    if (body != null) {
      body.flush();
    }
  }

  private OutputStream commit() throws IOException {
    if (!committed) {
      committed = true;
      headers.forEach((name, values) -> values.forEach(v -> exchange.addResponseHeader(name, v)));
      exchange.setStatus(status);
    }
    return exchange.getResponseBody();
  }

  /** The body: status and headers go out before its first byte. */
  private final class Body extends ServletOutputStream {
    private OutputStream out;

    private OutputStream out() throws IOException {
      if (out == null) {
        out = commit();
      }
      return out;
    }

    @Override
    public void write(int b) throws IOException {
      out().write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out().write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      out().flush();
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setWriteListener(WriteListener listener) {
      throw new UnsupportedOperationException("the exchange's body is written blocking");
    }
  }
}
