package dev.ferry.server.internal;

import dev.ferry.security.ClientAuth;
import dev.ferry.security.TlsSettings;
import dev.ferry.server.ServerOptions;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.ee11.servlet.ServletMapping;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.EagerContentHandler;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * An embedded Jetty 12 server hosting servlets by path, plus {@code /health} and
 * {@code /metrics}, which always answer; each request's servlet work runs on a virtual thread.
 *
 * <p>Virtual threads are not capped as a pool's are: a request waiting for its caller's body
 * parks one, which costs a few hundred bytes, so slow callers cannot take the threads that
 * normal ones need; a blocking read that gets no byte for the request timeout fails, and its
 * connection closes. The servlets bound how many requests they serve at once.
 */
public final class JettyHost implements AutoCloseable {
  /** Jetty's own platform threads: selectors and the tasks that never block. */
  private static final int PLATFORM_THREADS = 200;

  private static final int MIN_PLATFORM_THREADS = 8;

  /** The paths the host answers itself, whatever the servlets' paths. */
  public static final Set<String> OWN_PATHS = Set.of("/health", "/health/live", "/health/ready",
      "/health/started", "/metrics");

  private final Server server;
  private final ServerConnector connector;
  private final String host;
  private final ServletContextHandler context;
  private final TlsSettings tls;
  private final EagerBodies eagerBodies;
  private final Probes probes;
  private volatile int endpoints;

  public JettyHost(String host, int port, Map<String, HttpServlet> servlets,
      Supplier<String> metrics, ServerOptions options) {
    this(host, port, servlets, metrics, options, null);
  }

  /** As the other constructor; with {@code tls}, the listener speaks only TLS. */
  public JettyHost(String host, int port, Map<String, HttpServlet> servlets,
      Supplier<String> metrics, ServerOptions options, TlsSettings tls) {
    this.host = host;
    this.tls = tls;
    this.probes = new Probes(() -> endpoints > 0);
    server = new Server(threadPool());
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setOutputBufferSize(64 * 1024);
    // a blocking read of a request's body that gets nothing for this long fails
    config.setIdleTimeout(options.requestTimeout().toMillis());
    HttpConnectionFactory http = new HttpConnectionFactory(config);
    // Jetty reads requests in buffers of 8 KiB by default; at 64 KiB a 32 KiB MTOM echo took
    // 385 instead of 428 us at the median
    http.setInputBufferSize(64 * 1024);
    if (tls == null) {
      connector = new ServerConnector(server, http);
    } else {
      config.addCustomizer(secureRequests());
      connector = new ServerConnector(server, new SslConnectionFactory(sslFactory(tls),
          http.getProtocol()), http);
    }
    connector.setHost(host);
    connector.setPort(port);
    // longer than clients keep idle connections (Ferry's client: its timeout, 60 s), so that a
    // client never picks a pooled connection the server is closing at that very moment
    connector.setIdleTimeout(options.idleTimeout().toMillis());
    server.addConnector(connector);
    context = new ServletContextHandler("/");
    servlets.forEach((path, servlet) -> context.addServlet(new ServletHolder(servlet), path));
    endpoints = servlets.size();
    context.addServlet(new ServletHolder(new TextServlet(() -> Probes.UP,
        "application/json")), "/health");
    context.addServlet(new ServletHolder(new ProbeServlet(() -> null)), "/health/live");
    context.addServlet(new ServletHolder(new ProbeServlet(probes::notReady)), "/health/ready");
    context.addServlet(new ServletHolder(new ProbeServlet(probes::notStarted)),
        "/health/started");
    context.addServlet(new ServletHolder(new TextServlet(metrics,
        "text/plain; version=0.0.4; charset=utf-8")), "/metrics");
    if (!servlets.containsKey("/*")) {
      context.addServlet(new ServletHolder(new NotFound()), "/");
    }
    // during a drain, answers close their connections (ClosingWhileDraining); requests that
    // arrive after the listener closed get 503 and the connection is closed; those in flight
    // are waited for
    // bodies gathered as they arrive before the servlet runs (EagerBodies)
    // the endpoint runs on the virtual threads the pool gives blocking work
    eagerBodies = new EagerBodies(
        ((QueuedThreadPool) server.getThreadPool()).getVirtualThreadsExecutor());
    server.setHandler(new GracefulHandler(new ClosingWhileDraining(
        new EagerContentHandler(context, eagerBodies), probes)));
  }

  /** Request bodies' bytes gathered now before their servlets run ({@link EagerBodies}). */
  public long gatheredBodyBytes() {
    return eagerBodies.heldBytes();
  }

  /**
   * Platform threads for Jetty's own work (selecting, parsing, writing), a virtual thread for
   * each request's servlet work. With every task on virtual threads (Jetty's VirtualThreadPool),
   * the selectors parked and woke through the virtual-thread scheduler on each call: a 4 KiB
   * echo cost the server 166 us of CPU a call against 121 us so, and platform threads for
   * everything 97 us, but then a slow uploader holds one of a bounded set of threads.
   */
  private static ThreadPool threadPool() {
    QueuedThreadPool threads = new QueuedThreadPool(PLATFORM_THREADS, MIN_PLATFORM_THREADS);
    threads.setName("ferry-http");
    threads.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("ferry-call"));
    return threads;
  }

  /**
   * Jetty's TLS over the settings' own context, whose key and trust managers reload their files;
   * the protocols and suites are the settings', and Jetty's own exclusions stay on top.
   */
  private static SslContextFactory.Server sslFactory(TlsSettings tls) {
    SslContextFactory.Server f = new SslContextFactory.Server();
    f.setSslContext(tls.sslContext());
    f.setIncludeProtocols(tls.protocols().toArray(String[]::new));
    f.setIncludeCipherSuites(tls.cipherSuites().toArray(String[]::new));
    if (tls.clientAuth() == ClientAuth.REQUIRED) {
      f.setNeedClientAuth(true);
    } else if (tls.clientAuth() == ClientAuth.OPTIONAL) {
      f.setWantClientAuth(true);
    }
    f.setSniRequired(false);
    return f;
  }

  /**
   * Puts the client's certificates on the request; the host name a client asked for (SNI) is
   * not checked against the certificate: the key manager is the settings', not Jetty's, and a
   * client that reached the wrong host fails its own check of the certificate.
   */
  private static SecureRequestCustomizer secureRequests() {
    SecureRequestCustomizer c = new SecureRequestCustomizer();
    c.setSniHostCheck(false);
    return c;
  }

  /**
   * Serves {@code servlet} at {@code path} from now on, while running too (exact paths win over
   * the catch-all that answers 404).
   */
  public synchronized void addServlet(String path, HttpServlet servlet) {
    context.addServlet(new ServletHolder(servlet), path);
    endpoints++;
  }

  /** Stops serving {@code path}; returns false if nothing was served there. */
  public synchronized boolean removeServlet(String path) {
    ServletHandler handler = context.getServletHandler();
    ServletMapping[] mappings = handler.getServletMappings();
    ServletMapping[] kept = Arrays.stream(mappings)
        .filter(m -> !Arrays.asList(m.getPathSpecs()).contains(path))
        .toArray(ServletMapping[]::new);
    if (kept.length == mappings.length) {
      return false;
    }
    List<String> names = Arrays.stream(kept).map(ServletMapping::getServletName).toList();
    handler.setServletMappings(kept);
    handler.setServlets(Arrays.stream(handler.getServlets())
        .filter(h -> names.contains(h.getName())).toArray(ServletHolder[]::new));
    endpoints--;
    return true;
  }

  /** Starts listening. */
  public void start() throws IOException {
    try {
      server.start();
      probes.started();
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

  /** Returns {@code http://host:port} (or {@code https}) + {@code path}. */
  public URI uri(String path) {
    String h = host.contains(":") ? "[" + host + "]" : host;
    return URI.create((tls == null ? "http" : "https") + "://" + h + ":" + port() + path);
  }

  /** The probes' state (to drain, or to ask whether the host is draining). */
  public Probes probes() {
    return probes;
  }

  /** Stops at once, cutting requests in flight. */
  @Override
  public void close() throws IOException {
    drain(Duration.ZERO, Duration.ZERO);
  }

  /**
   * Stops gracefully: readiness fails at once; new connections are still taken and served for
   * {@code delay} (while a load balancer notices); then the listener closes, requests that
   * arrive on open connections get 503, and those in flight, streamed uploads included, may
   * finish for up to {@code timeout}. What is still running then is cut: its connection is
   * closed, so its caller sees a reset or a short message that its framing shows as short,
   * never a clean reply.
   */
  public void drain(Duration delay, Duration timeout) throws IOException {
    probes.draining();
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // asked to hurry: on to the stop
    }
    server.setStopTimeout(timeout.toMillis());
    try {
      server.stop();
    } catch (TimeoutException e) {
      // requests still running at the deadline were cut off; the server is stopped
    } catch (Exception e) {
      throw new IOException("cannot stop the HTTP server: " + e.getMessage(), e);
    }
  }

  /** Answers GET with a text the supplier makes; any other method, 405. */
  private static final class TextServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final transient Supplier<String> text;
    private final String type;

    TextServlet(Supplier<String> text, String type) {
      this.text = text;
      this.type = type;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
        throws IOException {
      if (!"GET".equals(request.getMethod())) {
        response.setHeader("Allow", "GET");
        response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
        return;
      }
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
