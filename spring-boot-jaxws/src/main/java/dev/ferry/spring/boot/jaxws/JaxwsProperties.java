package dev.ferry.spring.boot.jaxws;

import static dev.ferry.spring.boot.PropertyChecks.positive;

import dev.ferry.server.ServerOptions;
import dev.ferry.xop.XopLimits;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code ferry.jaxws.*} properties: where the application's JAX-WS endpoints are served,
 * and how. A value out of range fails start-up, naming the property.
 */
@ConfigurationProperties("ferry.jaxws")
public class JaxwsProperties {
  /**
   * The path every endpoint is served under (as CXF's {@code cxf.path}): an endpoint at
   * {@code /Hello} answers at {@code /services/Hello}. {@code /} for none.
   */
  private String path = "/services";
  /** Requests each endpoint serves at once; past it a request is answered 503 at once. */
  private int maxRequests = ServerOptions.DEFAULTS.maxRequests();
  /** Bytes of an attachment held in memory before the rest goes to a private temp file. */
  private int attachmentMemoryBytes = XopLimits.DEFAULT_ATTACHMENT_MEMORY_BYTES;
  /**
   * The address callers know the application by (a proxy's), written into the WSDLs served;
   * by default the address each request came in on.
   */
  private URI publicAddress;
  /** Per endpoint, by bean name: its path, MTOM and handlers. */
  private Map<String, Endpoint> endpoints = new LinkedHashMap<>();
  /** Ferry's own server, for an application without a servlet container. */
  private Server server = new Server();

  public String getPath() {
    return path;
  }

  public void setPath(String path) {
    this.path = Paths.base(path);
  }

  public int getMaxRequests() {
    return maxRequests;
  }

  public void setMaxRequests(int maxRequests) {
    this.maxRequests = positive(maxRequests);
  }

  public int getAttachmentMemoryBytes() {
    return attachmentMemoryBytes;
  }

  public void setAttachmentMemoryBytes(int attachmentMemoryBytes) {
    this.attachmentMemoryBytes = positive(attachmentMemoryBytes);
  }

  public URI getPublicAddress() {
    return publicAddress;
  }

  public void setPublicAddress(URI publicAddress) {
    if (publicAddress != null && (publicAddress.getScheme() == null
        || publicAddress.getHost() == null)) {
      throw new IllegalArgumentException("expected an http:// or https:// URL with a host, got "
          + publicAddress);
    }
    this.publicAddress = publicAddress;
  }

  public Map<String, Endpoint> getEndpoints() {
    return endpoints;
  }

  public void setEndpoints(Map<String, Endpoint> endpoints) {
    this.endpoints = endpoints;
  }

  public Server getServer() {
    return server;
  }

  public void setServer(Server server) {
    this.server = server;
  }

  /** One endpoint's settings, under {@code ferry.jaxws.endpoints.<bean name>}. */
  public static class Endpoint {
    /**
     * The endpoint's path under {@code ferry.jaxws.path}; by default the path an
     * {@code Endpoint} bean was published at, else {@code /} + the service name.
     */
    private String path;
    /** MTOM on or off, over the class's {@code @MTOM}; by default as the class says. */
    private Boolean mtom;
    /** Binaries from this many bytes go as MTOM attachments (with MTOM on). */
    private Integer mtomThreshold;
    /**
     * Names of beans that are {@code jakarta.xml.ws.handler.Handler}s: the endpoint's handler
     * chain, in order, over the class's {@code @HandlerChain}.
     */
    private List<String> handlers = new ArrayList<>();

    public String getPath() {
      return path;
    }

    public void setPath(String path) {
      this.path = Paths.endpoint(path);
    }

    public Boolean getMtom() {
      return mtom;
    }

    public void setMtom(Boolean mtom) {
      this.mtom = mtom;
    }

    public Integer getMtomThreshold() {
      return mtomThreshold;
    }

    public void setMtomThreshold(Integer mtomThreshold) {
      if (mtomThreshold != null && mtomThreshold < 0) {
        throw new IllegalArgumentException("expected 0 or more bytes, got " + mtomThreshold);
      }
      this.mtomThreshold = mtomThreshold;
    }

    public List<String> getHandlers() {
      return handlers;
    }

    public void setHandlers(List<String> handlers) {
      this.handlers = handlers;
    }
  }

  /**
   * Ferry's own server (Jetty), which serves the endpoints where the application has no
   * servlet container (no {@code spring-boot-starter-web}, or
   * {@code spring.main.web-application-type=none}).
   */
  public static class Server {
    /** The address to listen on. */
    private String host = "0.0.0.0";
    /** The port; 0 picks a free one. */
    private int port = 8080;
    /** The SSL bundle ({@code spring.ssl.bundle.*}) of the listener's key and chain: https. */
    private String sslBundle;
    /** Whether the listener asks for client certificates (none, optional or required). */
    private dev.ferry.security.ClientAuth clientAuth = dev.ferry.security.ClientAuth.NONE;
    /**
     * A password file ({@code ferry passwd} lines) whose users may call, with HTTP Basic; by
     * default anyone may.
     */
    private Path users;
    /** How long a request may take to arrive whole. */
    private Duration requestTimeout = ServerOptions.DEFAULTS.requestTimeout();
    /** How long a connection may sit idle. */
    private Duration idleTimeout = ServerOptions.DEFAULTS.idleTimeout();

    public String getHost() {
      return host;
    }

    public void setHost(String host) {
      this.host = host;
    }

    public int getPort() {
      return port;
    }

    public void setPort(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("expected a port, 0 to 65535, got " + port);
      }
      this.port = port;
    }

    public String getSslBundle() {
      return sslBundle;
    }

    public void setSslBundle(String sslBundle) {
      this.sslBundle = sslBundle;
    }

    public dev.ferry.security.ClientAuth getClientAuth() {
      return clientAuth;
    }

    public void setClientAuth(dev.ferry.security.ClientAuth clientAuth) {
      this.clientAuth = clientAuth;
    }

    public Path getUsers() {
      return users;
    }

    public void setUsers(Path users) {
      this.users = users;
    }

    public Duration getRequestTimeout() {
      return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
      this.requestTimeout = positive(requestTimeout);
    }

    public Duration getIdleTimeout() {
      return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
      this.idleTimeout = positive(idleTimeout);
    }
  }
}
