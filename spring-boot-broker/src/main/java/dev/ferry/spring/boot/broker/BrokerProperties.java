package dev.ferry.spring.boot.broker;

import static dev.ferry.spring.boot.PropertyChecks.positive;

import dev.ferry.security.ClientAuth;
import dev.ferry.spring.boot.PropertyChecks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code ferry.broker.*} properties: the broker's routes, in {@code application.yaml}
 * ({@code ferry.broker.routes}) or in a routes file of the broker's own format
 * ({@code ferry.broker.routes-file}, which also takes backend TLS and WS-Security), and its
 * listener. There is a broker when either names routes. A value out of range fails start-up,
 * naming the property.
 */
@ConfigurationProperties("ferry.broker")
public class BrokerProperties {
  /** The routes, first match wins. */
  private List<Route> routes = new ArrayList<>();
  /** A routes file in the broker's YAML format (relative names in it are its folder's). */
  private Path routesFile;
  /** No progress towards a backend for this long is a fault (with {@code routes}). */
  private Duration timeout = Duration.ofSeconds(60);
  /** The address to listen on. */
  private String host = "127.0.0.1";
  /** The port; 0 for a free one, published as {@code local.ferry.broker.port}. */
  private int port;
  /** The name written into the trace header the broker adds. */
  private String name = "ferry-broker";
  /** The SSL bundle of the listener's key (and trust for client certificates); none: HTTP. */
  private String sslBundle;
  /** Whether the listener asks callers for certificates (with ssl-bundle). */
  private ClientAuth clientAuth = ClientAuth.NONE;
  /** A password file (see PasswordFile): only these callers may call, with HTTP Basic. */
  private Path users;
  /**
   * On shutdown, how long the broker goes on taking new connections once its readiness turned
   * false (every reply then closes its connection), so that a load balancer stops sending it
   * calls before its listener closes.
   */
  private Duration drainDelay = Duration.ZERO;
  /**
   * On shutdown, once the listener closed, how long the exchanges in flight (uploads included)
   * may take to finish; the connections of those still running are then reset.
   */
  private Duration drainTimeout = Duration.ofSeconds(30);

  public List<Route> getRoutes() {
    return routes;
  }

  public void setRoutes(List<Route> routes) {
    this.routes = routes;
  }

  public Path getRoutesFile() {
    return routesFile;
  }

  public void setRoutesFile(Path routesFile) {
    this.routesFile = routesFile;
  }

  public Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(Duration timeout) {
    this.timeout = positive(timeout);
  }

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
    this.port = PropertyChecks.port(port);
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public String getSslBundle() {
    return sslBundle;
  }

  public void setSslBundle(String sslBundle) {
    this.sslBundle = sslBundle;
  }

  public ClientAuth getClientAuth() {
    return clientAuth;
  }

  public void setClientAuth(ClientAuth clientAuth) {
    this.clientAuth = clientAuth;
  }

  public Path getUsers() {
    return users;
  }

  public void setUsers(Path users) {
    this.users = users;
  }

  public Duration getDrainDelay() {
    return drainDelay;
  }

  public void setDrainDelay(Duration drainDelay) {
    if (drainDelay.isNegative()) {
      throw new IllegalArgumentException("expected 0 or more, got " + drainDelay);
    }
    this.drainDelay = drainDelay;
  }

  public Duration getDrainTimeout() {
    return drainTimeout;
  }

  public void setDrainTimeout(Duration drainTimeout) {
    if (drainTimeout.isNegative()) {
      throw new IllegalArgumentException("expected 0 or more, got " + drainTimeout);
    }
    this.drainTimeout = drainTimeout;
  }

  /** Whether {@code wsa:To} is set to the backend's address. */
  public enum WsaTo {
    /** Rewritten only where the caller sent one. */
    IF_PRESENT,
    /** Set even where the caller sent none. */
    ALWAYS
  }

  /** One route of {@code ferry.broker.routes}. */
  public static class Route {
    /** The path callers post to (exact). */
    private String path;
    /** Only requests with this wsa:Action or SOAPAction; any without. */
    private String action;
    /** The backend's http:// or https:// URL (https with the JDK's trust). */
    private String to;
    /** A copy of each request, to a directory or a URL. */
    private String audit;
    /** Whether wsa:To is set even where the caller sent none. */
    private WsaTo wsaTo = WsaTo.IF_PRESENT;
    /** Only these authenticated callers ({@code any}: every one). */
    private List<String> require = new ArrayList<>();
    /** A header that tells the backend who called. */
    private String identityHeader;

    public String getPath() {
      return path;
    }

    public void setPath(String path) {
      this.path = path;
    }

    public String getAction() {
      return action;
    }

    public void setAction(String action) {
      this.action = action;
    }

    public String getTo() {
      return to;
    }

    public void setTo(String to) {
      this.to = to;
    }

    public String getAudit() {
      return audit;
    }

    public void setAudit(String audit) {
      this.audit = audit;
    }

    public WsaTo getWsaTo() {
      return wsaTo;
    }

    public void setWsaTo(WsaTo wsaTo) {
      this.wsaTo = wsaTo;
    }

    public List<String> getRequire() {
      return require;
    }

    public void setRequire(List<String> require) {
      this.require = require;
    }

    public String getIdentityHeader() {
      return identityHeader;
    }

    public void setIdentityHeader(String identityHeader) {
      this.identityHeader = identityHeader;
    }
  }
}
