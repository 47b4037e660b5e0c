package dev.ferry.broker;

import dev.ferry.broker.internal.YamlSection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The broker's routing table, read from YAML:
 *
 * <pre>
 * timeout: 30s            # no progress towards a backend for this long: a fault (default 60s)
 * groups:                 # optional: backends that serve one service (see BackendGroup)
 *   quotes:
 *     balance: round-robin          # failover (default), round-robin or weighted
 *     members: [http://10.0.0.1:8080/q, {url: http://10.0.0.2:8080/q, weight: 2}]
 *     suspend: {initial: 1s, factor: 2, max: 60s, failures: 1}   # or: never
 *     check: {every: 5s, path: /health, timeout: 2s}   # optional active checks
 *     timeout: 10s                  # optional: the members' own timeout
 *     gatesReadiness: true          # optional: not ready while every member is suspended
 * routes:
 *   - path: /echo         # the path the caller posts to (exact)
 *     name: echo          # optional: the route's name in metrics and logs
 *     action: urn:testMtom  # optional: only requests with this wsa:Action or SOAPAction
 *     when:               # optional: only requests that have all of these
 *       header: {name: X-Tenant, equals: acme}        # or matches: a regular expression
 *       soapAction: urn:buy                           # or {matches: ...}
 *       wsaAction: {matches: "urn:buy.*"}
 *       soapHeader: {name: "t:Tenant", equals: acme}  # a header block's text
 *       body: "//t:order[1]/t:symbol = 'IBM'"         # or a list; see BodyPath
 *     namespaces: {t: "urn:trade"}   # the prefixes of soapHeader and body
 *     to: http://127.0.0.1:8081/echo   # or group: quotes
 *     idempotent: true    # optional: a held request may go to another member after one
 *                         # that may have seen it failed
 *     xslt: {request: v1-to-v2.xsl, reply: v2-to-v1.xsl}  # optional: XSLT 1.0 on the
 *                         # Body's first element of the request, of a 200 reply, or both
 *     limits:             # optional (see RouteLimits): past the route's, 503; past a caller's
 *       inFlight: 200     # own, 429; both with Retry-After and a fault naming the limit
 *       rate: 500/s       # or /m, /h; burst: requests at once (default a second's worth)
 *       perCaller: {inFlight: 8, rate: 20/s, burst: 40}   # by authenticated name, else IP
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
 *       terminate: false  # or true (without outbound): WS-Security ends here; the message
 *                         # goes on decrypted, without its wsse:Security headers
 *   - path: /echo         # a route may answer a fault instead of forwarding: last on a path,
 *     fault: {code: Sender, reason: "no route for this request"}   # it takes the rest
 * </pre>
 *
 * Relative file names are read from the routes file's folder. A mistake names its line and key.
 *
 * <p>The first route whose path and conditions match wins. Immutable: a broker swaps a whole
 * table, never changes one.
 */
public final class Routes {
  private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private final List<Route> routes;
  private final Duration timeout;

  private Routes(List<Route> routes, Duration timeout) {
    if (routes.isEmpty()) {
      throw new IllegalArgumentException("a routing table needs at least one route");
    }
    this.routes = List.copyOf(uniqueNames(routes));
    this.timeout = timeout;
  }

  /**
   * Routes whose names are taken by an earlier route get {@code #2}, {@code #3}...: each route
   * has its own meters.
   */
  private static List<Route> uniqueNames(List<Route> routes) {
    Map<String, Integer> seen = new HashMap<>();
    List<Route> out = new ArrayList<>(routes.size());
    for (Route r : routes) {
      int n = seen.merge(r.name(), 1, Integer::sum);
      out.add(n == 1 ? r : r.toBuilder().name(r.name() + " #" + n).build());
    }
    return out;
  }

  /** Returns a table with {@code routes} and the default timeout (60 s). */
  public static Routes of(List<Route> routes) {
    return new Routes(routes, DEFAULT_TIMEOUT);
  }

  /** Returns a table with {@code routes}; a backend with no progress for {@code timeout} fails. */
  public static Routes of(List<Route> routes, Duration timeout) {
    return new Routes(routes, timeout);
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
   * @throws IllegalArgumentException naming the line and key that is wrong
   */
  public static Routes parse(String yaml) {
    return parse(yaml, Path.of("").toAbsolutePath());
  }

  private static Routes parse(String yaml, Path base) {
    YamlSection top = YamlSection.parse(yaml);
    RoutesFile file = new RoutesFile(base);
    return new Routes(file.routes(top), file.timeout(top, DEFAULT_TIMEOUT));
  }

  public List<Route> routes() {
    return routes;
  }

  /** Returns how long a backend exchange may make no progress. */
  public Duration timeout() {
    return timeout;
  }

  /** Returns the first route for {@code path} that forwards (not one that answers a fault). */
  public Route forPath(String path) {
    for (Route r : routes) {
      if (r.path().equals(path) && r.to() != null) {
        return r;
      }
    }
    return null;
  }
}
