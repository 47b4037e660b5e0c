package dev.ferry.broker;

import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.MessageGuardFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a route's policy keys (callers, identity header, backend TLS) from its YAML map. */
final class RouteFiles {
  private static final Set<String> TLS_KEYS = Set.of("trust", "trustPassword", "certificate",
      "key", "keyStore", "password");

  private RouteFiles() {}

  static RoutePolicy policy(Map<?, ?> m, String where, Path base) {
    Set<String> callers = callers(m.get("require"), where + ".require");
    String header = Routes.string(m, "identityHeader", where, false);
    if (header != null && !header.matches("[A-Za-z0-9-]+")) {
      throw new IllegalArgumentException(where + ".identityHeader: not a header name: " + header);
    }
    Object tls = m.get("backendTls");
    TlsSettings backendTls = tls == null ? null
        : backendTls(Routes.map(tls, where + ".backendTls"), where + ".backendTls", base);
    Object wss = m.get("wsSecurity");
    MessageGuard guard = wss == null ? null
        : guard(Routes.map(wss, where + ".wsSecurity"), where + ".wsSecurity", base);
    if (callers == null && header == null && backendTls == null && guard == null) {
      return RoutePolicy.NONE;
    }
    boolean resign = wss != null && ((Map<?, ?>) wss).get("outbound") != null;
    return new RoutePolicy(callers, header, backendTls, guard, resign ? guard : null);
  }

  /** A route's WS-Security, made by the module that provides it (wssecurity). */
  @SuppressWarnings("unchecked")
  static MessageGuard guard(Map<?, ?> m, String where, Path base) {
    try {
      return MessageGuardFactory.create("ws-security", (Map<String, ?>) m, base);
    } catch (IllegalArgumentException | IOException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static Set<String> callers(Object v, String where) {
    if (v == null) {
      return null;
    }
    if ("any".equals(v)) {
      return Set.of("*");
    }
    if (v instanceof List<?> list && !list.isEmpty()
        && list.stream().allMatch(x -> x instanceof String s && !s.isBlank())) {
      return Set.copyOf(list.stream().map(x -> ((String) x).strip()).toList());
    }
    throw new IllegalArgumentException(where + ": expected any, or a list of caller names,"
        + " got " + v);
  }

  private static TlsSettings backendTls(Map<?, ?> m, String where, Path base) {
    Routes.checkKeys(m, TLS_KEYS, where);
    TlsSettings.Builder b = TlsSettings.builder();
    String trust = Routes.string(m, "trust", where, false);
    char[] trustPassword = chars(Routes.string(m, "trustPassword", where, false));
    if (trust != null) {
      Path f = base.resolve(trust);
      b.trust(isStore(f) ? TrustMaterial.keyStore(f, trustPassword) : TrustMaterial.pem(f));
    }
    String cert = Routes.string(m, "certificate", where, false);
    String key = Routes.string(m, "key", where, false);
    String store = Routes.string(m, "keyStore", where, false);
    char[] password = chars(Routes.string(m, "password", where, false));
    if (store != null) {
      b.identity(KeyMaterial.keyStore(base.resolve(store), password));
    } else if (cert != null && key != null) {
      b.identity(KeyMaterial.pem(base.resolve(cert), base.resolve(key), password));
    } else if (cert != null || key != null) {
      throw new IllegalArgumentException(where + ": certificate and key go together");
    }
    try {
      return b.build();
    } catch (IOException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  private static boolean isStore(Path f) {
    String n = f.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
    return n.endsWith(".p12") || n.endsWith(".pfx") || n.endsWith(".jks");
  }

  private static char[] chars(String s) {
    return s == null ? null : s.toCharArray();
  }
}
