package dev.ferry.server.internal;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * An embedded Jetty 12 server on virtual threads hosting servlets by path, plus {@code /health}
 * and {@code /metrics}. Shared by the SOAP server and the broker.
 */
public final class JettyHost implements AutoCloseable {
  /** The paths the host answers itself, whatever the servlets' paths. */
  public static final Set<String> OWN_PATHS = Set.of("/health", "/metrics");

  private final Server server;
  private final ServerConnector connector;
  private final String host;

  public JettyHost(String host, int port, Map<String, HttpServlet> servlets,
      Supplier<String> metrics) {
    this(host, port, servlets, metrics, null);
  }

  /**
   * As {@link #JettyHost(String, int, Map, Supplier)}, with {@code front} (if not null) seeing
   * every request before the servlets: what it does not take itself, it passes on to them.
   */
  public JettyHost(String host, int port, Map<String, HttpServlet> servlets,
      Supplier<String> metrics, Handler.Wrapper front) {
    this.host = host;
    VirtualThreadPool threads = new VirtualThreadPool();
    threads.setName("ferry-http");
    server = new Server(threads);
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setOutputBufferSize(64 * 1024);
    HttpConnectionFactory http = new HttpConnectionFactory(config);
    // Jetty reads requests in buffers of 8 KiB by default; at 64 KiB a 32 KiB MTOM echo took
    // 385 instead of 428 us at the median, and the broker's share of it fell by 60 us
    http.setInputBufferSize(64 * 1024);
    connector = new ServerConnector(server, http);
    connector.setHost(host);
    connector.setPort(port);
    // longer than clients keep idle connections (java.net.http: 30 s), so that a client never
    // picks a pooled connection the server is closing at that very moment
    connector.setIdleTimeout(120_000);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler("/");
    servlets.forEach((path, servlet) -> context.addServlet(new ServletHolder(servlet), path));
    // the OWN_PATHS
    context.addServlet(new ServletHolder(new TextServlet(() -> "{\"status\":\"UP\"}\n",
        "application/json")), "/health");
    context.addServlet(new ServletHolder(new TextServlet(metrics,
        "text/plain; version=0.0.4; charset=utf-8")), "/metrics");
    if (!servlets.containsKey("/*")) {
      context.addServlet(new ServletHolder(new NotFound()), "/");
    }
    if (front != null) {
      front.setHandler(context);
      server.setHandler(front);
    } else {
      server.setHandler(context);
    }
    server.setStopTimeout(2000);
  }

  /** Starts listening. */
  public void start() throws IOException {
    try {
      server.start();
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("cannot start the HTTP server on " + host + ": " + e.getMessage(), e);
    }
  }

  /** Returns the port listened on (the one chosen, if 0 was asked for). */
  public int port() {
    return connector.getLocalPort();
  }

  /** Returns {@code http://host:port} + {@code path}. */
  public URI uri(String path) {
    String h = host.contains(":") ? "[" + host + "]" : host;
    return URI.create("http://" + h + ":" + port() + path);
  }

  @Override
  public void close() throws IOException {
    try {
      server.stop();
    } catch (TimeoutException e) {
      // requests still running after the grace period were cut off; the server is stopped
    } catch (Exception e) {
      throw new IOException("cannot stop the HTTP server: " + e.getMessage(), e);
    }
  }

  /** Answers GET with a text the supplier makes. */
  private static final class TextServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final transient Supplier<String> text;
    private final String type;

    TextServlet(Supplier<String> text, String type) {
      this.text = text;
      this.type = type;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      byte[] body = text.get().getBytes(StandardCharsets.UTF_8);
      response.setContentType(type);
      response.setContentLength(body.length);
      response.getOutputStream().write(body);
    }
  }

  /** Answers 404 for every path nothing is mapped to, whatever the method. */
  private static final class NotFound extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      response.sendError(HttpServletResponse.SC_NOT_FOUND, "no endpoint at this path");
    }
  }
}
