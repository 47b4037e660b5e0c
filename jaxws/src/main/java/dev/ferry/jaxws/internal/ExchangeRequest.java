package dev.ferry.jaxws.internal;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.xml.ws.spi.http.HttpContext;
import jakarta.xml.ws.spi.http.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.security.Principal;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;

/**
 * A {@code jakarta.xml.ws.spi.http} exchange's request as a servlet request, for what a SOAP
 * servlet and a {@code WebServiceContext} ask of one; anything else throws.
 */
final class ExchangeRequest extends HttpServletRequestWrapper {
  private static final String SERVLET_CERTIFICATES = "jakarta.servlet.request.X509Certificate";

  private final HttpExchange exchange;
  private final HttpContext context;
  private ServletInputStream body;

  ExchangeRequest(HttpExchange exchange, HttpContext context) {
    super(Unsupported.of(HttpServletRequest.class, "for a jakarta.xml.ws.spi.http exchange"));
    this.exchange = exchange;
    this.context = context;
  }

  @Override
  public String getMethod() {
    return exchange.getRequestMethod();
  }

  @Override
  public DispatcherType getDispatcherType() {
    return DispatcherType.REQUEST;
  }

  @Override
  public String getHeader(String name) {
    return exchange.getRequestHeader(name);
  }

  @Override
  public Enumeration<String> getHeaders(String name) {
    for (Map.Entry<String, List<String>> e : exchange.getRequestHeaders().entrySet()) {
      if (e.getKey().equalsIgnoreCase(name)) {
        return Collections.enumeration(e.getValue());
      }
    }
    return Collections.emptyEnumeration();
  }

  @Override
  public Enumeration<String> getHeaderNames() {
    return Collections.enumeration(exchange.getRequestHeaders().keySet());
  }

  @Override
  public long getDateHeader(String name) {
    return -1; // only asked for conditional GETs, which a WSDL does not answer
  }

  @Override
  public String getContentType() {
    return getHeader("Content-Type");
  }

  @Override
  public long getContentLengthLong() {
    String length = getHeader("Content-Length");
    try {
      return length == null ? -1 : Long.parseLong(length.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public int getContentLength() {
    long n = getContentLengthLong();
    return n > Integer.MAX_VALUE ? -1 : (int) n;
  }

  @Override
  public String getCharacterEncoding() {
    return null;
  }

  @Override
  public ServletInputStream getInputStream() throws IOException {
    if (body == null) {
      body = new Body(exchange.getRequestBody());
    }
    return body;
  }

  @Override
  public String getQueryString() {
    return exchange.getQueryString();
  }

  @Override
  public String getRequestURI() {
    return exchange.getRequestURI();
  }

  @Override
  public StringBuffer getRequestURL() {
    return new StringBuffer(getScheme() + "://" + host(exchange.getLocalAddress()) + ":"
        + getLocalPort() + getRequestURI());
  }

  @Override
  public String getContextPath() {
    return exchange.getContextPath();
  }

  /** The context's path: the endpoint, as metrics name it. */
  @Override
  public String getServletPath() {
    return context.getPath();
  }

  @Override
  public String getPathInfo() {
    return exchange.getPathInfo();
  }

  @Override
  public String getScheme() {
    return exchange.getScheme();
  }

  @Override
  public boolean isSecure() {
    return "https".equalsIgnoreCase(getScheme());
  }

  @Override
  public String getProtocol() {
    return exchange.getProtocol();
  }

  @Override
  public String getLocalAddr() {
    return exchange.getLocalAddress().getAddress().getHostAddress();
  }

  @Override
  public int getLocalPort() {
    return exchange.getLocalAddress().getPort();
  }

  @Override
  public String getRemoteAddr() {
    return exchange.getRemoteAddress().getAddress().getHostAddress();
  }

  @Override
  public int getRemotePort() {
    return exchange.getRemoteAddress().getPort();
  }

  @Override
  public Principal getUserPrincipal() {
    return exchange.getUserPrincipal();
  }

  @Override
  public String getRemoteUser() {
    Principal p = getUserPrincipal();
    return p == null ? null : p.getName();
  }

  @Override
  public String getAuthType() {
    return null; // the SPI does not say how the container authenticated the caller
  }

  @Override
  public boolean isUserInRole(String role) {
    return exchange.isUserInRole(role);
  }

  /** The exchange's attributes, its client certificates under the servlet API's name too. */
  @Override
  public Object getAttribute(String name) {
    return exchange.getAttribute(name.equals(SERVLET_CERTIFICATES)
        ? HttpExchange.REQUEST_X509CERTIFICATE : name);
  }

  @Override
  public Enumeration<String> getAttributeNames() {
    return Collections.enumeration(exchange.getAttributeNames());
  }

  private static String host(InetSocketAddress address) {
    String h = address.getAddress().getHostAddress();
    return h.contains(":") ? "[" + h + "]" : h;
  }

  /** The exchange's body as a blocking servlet stream. */
  private static final class Body extends ServletInputStream {
    private final InputStream in;
    private boolean finished;

    Body(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      finished = b < 0;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = in.read(b, off, len);
      finished = n < 0;
      return n;
    }

    @Override
    public boolean isFinished() {
      return finished;
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setReadListener(ReadListener listener) {
      throw new UnsupportedOperationException("the exchange's body is read blocking");
    }
  }
}
