package dev.ferry.broker;

import dev.ferry.broker.internal.YamlSection;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * Reads a routes file (see {@link Routes}) into routes; every mistake names its line and key.
 * Relative file names are read from {@code base}.
 */
final class RoutesFile {
  private static final Set<String> TOP_KEYS = Set.of("timeout", "groups", "routes");
  private static final Set<String> ROUTE_KEYS = Set.of("name", "path", "action", "when",
      "namespaces", "to", "group", "idempotent", "fault", "limits", "xslt", "audit", "wsaTo",
      "require", "identityHeader", "backendTls", "wsSecurity");
  private static final Set<String> LIMIT_KEYS = Set.of("inFlight", "rate", "burst",
      "perCaller", "status");
  private static final Set<String> XSLT_KEYS = Set.of("request", "reply");
  private static final Set<String> CALLER_LIMIT_KEYS = Set.of("inFlight", "rate", "burst");
  private static final Set<String> GROUP_KEYS = Set.of("balance", "members", "suspend", "check",
      "timeout", "gatesReadiness");
  private static final Set<String> MEMBER_KEYS = Set.of("url", "weight");
  private static final Set<String> SUSPEND_KEYS = Set.of("initial", "factor", "max", "failures");
  private static final Set<String> CHECK_KEYS = Set.of("every", "path", "timeout");
  private static final Set<String> WHEN_KEYS = Set.of("header", "soapAction", "wsaAction",
      "soapHeader", "body");
  private static final Set<String> MATCH_KEYS = Set.of("equals", "matches");
  private static final Set<String> FAULT_KEYS = Set.of("code", "reason");

  private final Path base;
  private final Map<String, BackendGroup> groups = new java.util.LinkedHashMap<>();

  RoutesFile(Path base) {
    this.base = base;
  }

  Duration timeout(YamlSection top, Duration otherwise) {
    return top.duration("timeout", otherwise);
  }

  List<Route> routes(YamlSection top) {
    top.checkKeys(TOP_KEYS);
    YamlSection g = top.section("groups");
    if (g != null) {
      for (String name : g.keys()) {
        groups.put(name, group(name, g.section(name)));
      }
    }
    List<YamlSection> list = top.sections("routes");
    if (list == null || list.isEmpty()) {
      throw top.error("routes", "expected a list of at least one route");
    }
    List<Route> routes = new ArrayList<>();
    for (YamlSection r : list) {
      routes.add(route(r));
    }
    return routes;
  }

  private Route route(YamlSection r) {
    r.checkKeys(ROUTE_KEYS);
    String path = r.text("path", true);
    if (!path.startsWith("/")) {
      throw r.error("path", "must start with /, got " + path);
    }
    Route.Builder b = Route.builder(path).name(r.text("name", false))
        .action(r.text("action", false)).audit(r.text("audit", false))
        .policy(RoutePolicyFile.policy(r, base));
    String wsaTo = r.text("wsaTo", false);
    if (wsaTo != null && !wsaTo.equals("always") && !wsaTo.equals("if-present")) {
      throw r.error("wsaTo", "expected always or if-present, got " + wsaTo);
    }
    b.alwaysSetTo("always".equals(wsaTo));
    YamlSection limits = r.section("limits");
    if (limits != null) {
      b.limits(limits(limits));
    }
    YamlSection xslt = r.section("xslt");
    if (xslt != null) {
      xslt.checkKeys(XSLT_KEYS);
      if (!xslt.has("request") && !xslt.has("reply")) {
        throw r.error("xslt", "expected request, reply or both");
      }
      b.transform(stylesheet(xslt, "request"));
      b.replyTransform(stylesheet(xslt, "reply"));
    }
    Map<String, String> namespaces = r.textMap("namespaces");
    YamlSection when = r.section("when");
    if (when != null) {
      conditions(when, namespaces == null ? Map.of() : namespaces, b);
    }
    target(r, b);
    try {
      return b.build();
    } catch (IllegalStateException e) {
      throw r.error(xslt != null ? "xslt" : "path", e.getMessage());
    }
  }

  /** The stylesheet named at {@code key} of {@code xslt}, compiled; null if none is named. */
  private RouteTransform stylesheet(YamlSection xslt, String key) {
    String file = xslt.text(key, false);
    try {
      return file == null ? null : RouteTransform.compile(base.resolve(file));
    } catch (IllegalArgumentException e) {
      throw xslt.error(key, e.getMessage());
    }
  }

  /** {@code to}, {@code group} or {@code fault}, one of them. */
  private void target(YamlSection r, Route.Builder b) {
    List<String> given = java.util.stream.Stream.of("to", "group", "fault").filter(r::has)
        .toList();
    if (given.size() != 1) {
      throw r.error(given.isEmpty() ? "to" : given.get(1), given.isEmpty()
          ? "missing (a route needs to, group or fault)"
          : "a route forwards (to or group) or answers a fault: one of them");
    }
    b.idempotent(r.bool("idempotent", false));
    switch (given.get(0)) {
      case "fault" -> b.fault(fault(r.section("fault")));
      case "to" -> b.to(url(r, "to"));
      default -> {
        String name = r.text("group", true);
        BackendGroup g = groups.get(name);
        if (g == null) {
          throw r.error("group", "no group " + name + " (groups: " + groups.keySet() + ")");
        }
        b.backends(g);
      }
    }
  }

  private static BackendGroup group(String name, YamlSection g) {
    if (g == null) {
      throw new IllegalArgumentException("the group " + name + " is empty");
    }
    g.checkKeys(GROUP_KEYS);
    BackendGroup.Builder b = BackendGroup.builder(name);
    String balance = g.text("balance", false);
    if (balance != null) {
      b.balance(switch (balance) {
        case "failover" -> BackendGroup.Balance.FAILOVER;
        case "round-robin" -> BackendGroup.Balance.ROUND_ROBIN;
        case "weighted" -> BackendGroup.Balance.WEIGHTED;
        default -> throw g.error("balance", "expected failover, round-robin or weighted, got "
            + balance);
      });
    }
    List<Object> members = g.items("members");
    if (members == null || members.isEmpty()) {
      throw g.error("members", "expected a list of at least one member URL");
    }
    for (Object m : members) {
      b.member(member(g, m));
    }
    b.suspension(suspension(g)).check(check(g)).timeout(g.duration("timeout", null))
        .gatesReadiness(g.bool("gatesReadiness", false));
    try {
      return b.build();
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw g.error(e.getMessage());
    }
  }

  private static BackendGroup.Member member(YamlSection g, Object m) {
    if (m instanceof String url) {
      return new BackendGroup.Member(checkedUrl(g, "members", url), 1);
    }
    YamlSection s = (YamlSection) m;
    s.checkKeys(MEMBER_KEYS);
    return new BackendGroup.Member(url(s, "url"), s.integer("weight", 1, 1,
        BackendGroup.MAX_WEIGHT));
  }

  private static BackendGroup.Suspension suspension(YamlSection g) {
    if ("never".equals(g.isSection("suspend") ? null : g.text("suspend", false))) {
      return null;
    }
    YamlSection s = g.section("suspend");
    if (s == null) {
      return BackendGroup.Suspension.DEFAULT;
    }
    s.checkKeys(SUSPEND_KEYS);
    BackendGroup.Suspension d = BackendGroup.Suspension.DEFAULT;
    try {
      return new BackendGroup.Suspension(s.duration("initial", d.initial()),
          s.number("factor", d.factor(), 1), s.duration("max", d.max()),
          s.integer("failures", d.failures(), 1, 1000));
    } catch (IllegalArgumentException e) {
      throw s.error(e.getMessage());
    }
  }

  private static BackendGroup.HealthCheck check(YamlSection g) {
    YamlSection c = g.section("check");
    if (c == null) {
      return null;
    }
    c.checkKeys(CHECK_KEYS);
    try {
      return new BackendGroup.HealthCheck(c.duration("every", java.time.Duration.ofSeconds(5)),
          c.text("path", false), c.duration("timeout", java.time.Duration.ofSeconds(2)));
    } catch (IllegalArgumentException e) {
      throw c.error(e.getMessage());
    }
  }

  static URI url(YamlSection r, String key) {
    return checkedUrl(r, key, r.text(key, true));
  }

  private static URI checkedUrl(YamlSection r, String key, String to) {
    URI uri;
    try {
      uri = URI.create(to);
    } catch (IllegalArgumentException e) {
      throw r.error(key, "not a URL: " + to);
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw r.error(key, "expected an http:// or https:// URL, got " + to);
    }
    return uri;
  }

  private static RouteLimits limits(YamlSection l) {
    l.checkKeys(LIMIT_KEYS);
    YamlSection c = l.section("perCaller");
    if (c != null) {
      c.checkKeys(CALLER_LIMIT_KEYS);
    }
    String status = l.text("status", false);
    if (status != null && !status.equals("http") && !status.equals("soap")) {
      throw l.error("status", "expected http (503 or 429) or soap (the SOAP binding's), got "
          + status);
    }
    return new RouteLimits(l.integer("inFlight", 0, 1, RouteLimits.MAX), rate(l),
        c == null ? 0 : c.integer("inFlight", 0, 1, RouteLimits.MAX),
        c == null ? null : rate(c), "soap".equals(status));
  }

  /** {@code rate: 50/s} (or {@code /m} or {@code /h}, or a number a second), and a burst. */
  private static RouteLimits.Rate rate(YamlSection l) {
    String v = l.text("rate", false);
    if (v == null) {
      if (l.has("burst")) {
        throw l.error("burst", "a burst goes with a rate");
      }
      return null;
    }
    String n = v.replaceAll("\\s", "");
    int unit = n.endsWith("/s") ? 1 : n.endsWith("/m") ? 60 : n.endsWith("/h") ? 3600 : 0;
    double perSecond;
    RouteLimits.Rate r;
    try {
      perSecond = Double.parseDouble(unit == 0 ? n : n.substring(0, n.length() - 2))
          / Math.max(1, unit);
    } catch (NumberFormatException e) {
      throw l.error("rate", "expected requests a second, a minute or an hour, such as 50/s,"
          + " 600/m or 10/h, got " + v);
    }
    try {
      r = RouteLimits.Rate.perSecond(perSecond); // its burst: one second's worth
    } catch (IllegalArgumentException e) {
      throw l.error("rate", e.getMessage());
    }
    return new RouteLimits.Rate(perSecond, l.integer("burst", r.burst(), 1, RouteLimits.MAX));
  }

  private static RouteFault fault(YamlSection f) {
    f.checkKeys(FAULT_KEYS);
    String code = f.text("code", false);
    boolean sender = code == null || code.equals("Sender") || code.equals("Client");
    if (!sender && !code.equals("Receiver") && !code.equals("Server")) {
      throw f.error("code", "expected Sender or Receiver (Client or Server), got " + code);
    }
    return new RouteFault(sender, f.text("reason", true));
  }

  private static void conditions(YamlSection when, Map<String, String> ns, Route.Builder b) {
    when.checkKeys(WHEN_KEYS);
    for (YamlSection h : listOf(when, "header")) {
      String name = h.text("name", true);
      b.when(new RouteCondition.HttpHeader(name, match(h, Set.of("name"))));
    }
    if (when.has("soapAction")) {
      b.when(new RouteCondition.SoapAction(textMatch(when, "soapAction")));
    }
    if (when.has("wsaAction")) {
      b.when(new RouteCondition.WsaAction(textMatch(when, "wsaAction")));
    }
    for (YamlSection h : listOf(when, "soapHeader")) {
      b.when(new RouteCondition.SoapHeader(qname(h, "name", ns), match(h, Set.of("name"))));
    }
    List<String> bodies = when.has("body") ? when.texts("body") : List.of();
    for (String expression : bodies) {
      try {
        b.when(new RouteCondition.Body(BodyPath.compile(expression, ns)));
      } catch (IllegalArgumentException e) {
        throw when.error("body", e.getMessage());
      }
    }
  }

  /** A mapping or a list of mappings under {@code key}. */
  private static List<YamlSection> listOf(YamlSection s, String key) {
    if (!s.has(key)) {
      return List.of();
    }
    return s.isSection(key) ? List.of(s.section(key)) : s.sections(key);
  }

  /** A text (equal to it) or a mapping with equals or matches. */
  private static TextMatch textMatch(YamlSection s, String key) {
    return s.isSection(key) ? match(s.section(key), Set.of()) : TextMatch.equalTo(
        s.text(key, true));
  }

  /** {@code equals: text} or {@code matches: regex}, beside {@code other} keys. */
  private static TextMatch match(YamlSection m, Set<String> other) {
    Set<String> known = new java.util.HashSet<>(MATCH_KEYS);
    known.addAll(other);
    m.checkKeys(known);
    if (m.has("equals") == m.has("matches")) {
      throw m.error("expected one of equals or matches");
    }
    if (m.has("equals")) {
      return TextMatch.equalTo(m.text("equals", true));
    }
    try {
      return TextMatch.matching(m.text("matches", true));
    } catch (IllegalArgumentException e) {
      throw m.error("matches", e.getMessage());
    }
  }

  /** {@code {uri}local} or {@code prefix:local} with a declared prefix. */
  private static QName qname(YamlSection s, String key, Map<String, String> ns) {
    String v = s.text(key, true);
    if (v.startsWith("{")) {
      int close = v.indexOf('}');
      if (close > 0 && close < v.length() - 1) {
        return new QName(v.substring(1, close), v.substring(close + 1));
      }
    } else {
      int colon = v.indexOf(':');
      if (colon < 0) {
        return new QName(v);
      }
      String uri = ns.get(v.substring(0, colon));
      if (uri == null) {
        throw s.error(key, "the prefix " + v.substring(0, colon) + " is not declared in the"
            + " route's namespaces");
      }
      return new QName(uri, v.substring(colon + 1));
    }
    throw s.error(key, "expected {namespace}name or prefix:name, got " + v);
  }
}
