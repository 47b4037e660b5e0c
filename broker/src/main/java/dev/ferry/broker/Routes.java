package dev.ferry.broker;

import dev.ferry.soap.SettingValues;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * The broker's routing table, read from YAML:
 *
 * <pre>
 * timeout: 30s            # no progress towards a backend for this long: a fault (default 60s)
 * routes:
 *   - path: /echo         # the path the caller posts to (exact)
 *     action: urn:testMtom  # optional: only requests with this wsa:Action or SOAPAction
 *     to: http://127.0.0.1:8081/echo
 *     audit: /var/log/ferry-audit   # optional: a copy of each request, to a directory or URL
 *     wsaTo: always       # optional: set wsa:To to the backend even if the caller sent none
 *                         # (default if-present: rewrite it only where the caller sent one)
 *     require: [alice, "CN=client,O=Ferry"]  # optional: only these authenticated callers
 *                         # (or: require: any, for every authenticated caller)
 *     identityHeader: X-Ferry-Caller  # optional: who called, for the backend
 *     backendTls:         # optional, for an https backend (default: the JDK's trust)
 *       trust: /etc/ferry/backend-ca.pem      # PEM CA certificates, or a .p12/.jks store
 *       trustPassword: changeit               # for a store
 *       certificate: /etc/ferry/broker.pem    # the broker's client certificate chain (PEM)
 *       key: /etc/ferry/broker.key            # and its key (PEM), or:
 *       keyStore: /etc/ferry/broker.p12       # a PKCS#12 file with both
 *       password: changeit                    # the key's or the store's
 *     wsSecurity:         # optional: WS-Security checked before forwarding (see
 *       inbound:          # dev.ferry.wssecurity.WsSecurityConfig for every key)
 *         timestamp: 5m
 *         signBody: true
 *       trust: signers-ca.pem
 *       outbound:         # optional: the caller's security header is removed and the
 *         signBody: true  # changed message signed anew with the broker's key
 *       certificate: broker.pem
 *       key: broker.key
 * </pre>
 *
 * Relative file names are read from the routes file's folder.
 *
 * The first route whose path (and action, if given) matches wins. Immutable.
 */
public final class Routes {
  private static final Set<String> ROUTE_KEYS = Set.of("path", "action", "to", "audit",
      "wsaTo", "require", "identityHeader", "backendTls", "wsSecurity");
  private static final Set<String> TOP_KEYS = Set.of("timeout", "routes");

  private final List<Route> routes;
  private final Duration timeout;

  /**
   * One route: where requests for a path (and action) go, where their copy goes, and whether
   * wsa:To is set even where the caller sent none.
   */
  public record Route(String path, String action, URI to, String audit, boolean alwaysSetTo,
      RoutePolicy policy) {
    public Route {
      policy = policy == null ? RoutePolicy.NONE : policy;
    }

    /** A route without a policy: everyone through, the JDK's trust towards the backend. */
    public Route(String path, String action, URI to, String audit, boolean alwaysSetTo) {
      this(path, action, to, audit, alwaysSetTo, RoutePolicy.NONE);
    }

    /** A route that rewrites wsa:To only where the caller sent one. */
    public Route(String path, String action, URI to, String audit) {
      this(path, action, to, audit, false);
    }

    /** The route's name in metrics and logs: its path, and its action if it has one. */
    public String name() {
      return action == null ? path : path + " " + action;
    }

    /** Returns true if the audit copy goes to an HTTP endpoint rather than a directory. */
    public boolean auditsToUrl() {
      return audit != null && (audit.startsWith("http://") || audit.startsWith("https://"));
    }
  }

  private Routes(List<Route> routes, Duration timeout) {
    this.routes = List.copyOf(routes);
    this.timeout = timeout;
  }

  /** Returns a table with {@code routes} and the default timeout. */
  public static Routes of(List<Route> routes) {
    return new Routes(routes, Duration.ofSeconds(60));
  }

  /** Reads a routing table from a YAML file; relative file names in it are the file's folder's. */
  public static Routes load(Path file) throws IOException {
    try {
      return parse(Files.readString(file), file.toAbsolutePath().getParent());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Parses a routing table.
   *
   * @throws IllegalArgumentException naming the entry and key that is wrong
   */
  public static Routes parse(String yaml) {
    return parse(yaml, Path.of("").toAbsolutePath());
  }

  private static Routes parse(String yaml, Path base) {
    Object root;
    try {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
    } catch (YAMLException e) {
      throw new IllegalArgumentException("malformed YAML: " + e.getMessage(), e);
    }
    Map<?, ?> top = map(root, "the document");
    checkKeys(top, TOP_KEYS, "the document");
    Duration timeout = top.containsKey("timeout")
        ? duration(top.get("timeout"), "timeout") : Duration.ofSeconds(60);
    if (!(top.get("routes") instanceof List<?> list) || list.isEmpty()) {
      throw new IllegalArgumentException("routes: expected a list of at least one route");
    }
    List<Route> routes = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      routes.add(route(map(list.get(i), "routes[" + i + "]"), "routes[" + i + "]", base));
    }
    return new Routes(routes, timeout);
  }

  private static Route route(Map<?, ?> m, String where, Path base) {
    checkKeys(m, ROUTE_KEYS, where);
    String path = string(m, "path", where, true);
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(where + ".path: must start with /, got " + path);
    }
    String to = string(m, "to", where, true);
    URI uri;
    try {
      uri = URI.create(to);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ".to: not a URL: " + to, e);
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw new IllegalArgumentException(where + ".to: expected an http:// or https:// URL, got "
          + to);
    }
    String wsaTo = string(m, "wsaTo", where, false);
    if (wsaTo != null && !wsaTo.equals("always") && !wsaTo.equals("if-present")) {
      throw new IllegalArgumentException(where + ".wsaTo: expected always or if-present, got "
          + wsaTo);
    }
    return new Route(path, string(m, "action", where, false), uri,
        string(m, "audit", where, false), "always".equals(wsaTo),
        RouteFiles.policy(m, where, base));
  }

  static Map<?, ?> map(Object o, String where) {
    if (o instanceof Map<?, ?> m) {
      return m;
    }
    throw new IllegalArgumentException(where + ": expected a mapping, got "
        + (o == null ? "nothing" : o.getClass().getSimpleName()));
  }

  static void checkKeys(Map<?, ?> m, Set<String> known, String where) {
    for (Object k : m.keySet()) {
      if (!known.contains(String.valueOf(k))) {
        throw new IllegalArgumentException(where + ": unknown key \"" + k + "\" (known: "
            + known.stream().sorted().toList() + ")");
      }
    }
  }

  static String string(Map<?, ?> m, String key, String where, boolean required) {
    Object v = m.get(key);
    if (v == null) {
      if (required) {
        throw new IllegalArgumentException(where + "." + key + ": missing");
      }
      return null;
    }
    if (!(v instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException(where + "." + key + ": expected text, got " + v);
    }
    return s.strip();
  }

  /** Reads {@code 30s}, {@code 500ms}, {@code 2m} or a number of seconds. */
  static Duration duration(Object v, String where) {
    return SettingValues.duration(v, where);
  }

  public List<Route> routes() {
    return routes;
  }

  /** Returns how long a backend exchange may make no progress. */
  public Duration timeout() {
    return timeout;
  }

  /** Returns the first route for {@code path}, whatever its action, or null. */
  public Route forPath(String path) {
    for (Route r : routes) {
      if (r.path().equals(path)) {
        return r;
      }
    }
    return null;
  }

  /**
   * Returns the first route for {@code path} whose action, if any, equals {@code wsaAction} or
   * {@code soapAction}; or null.
   */
  public Route match(String path, String wsaAction, String soapAction) {
    for (Route r : routes) {
      if (r.path().equals(path) && (r.action() == null || r.action().equals(wsaAction)
          || r.action().equals(soapAction))) {
        return r;
      }
    }
    return null;
  }
}
