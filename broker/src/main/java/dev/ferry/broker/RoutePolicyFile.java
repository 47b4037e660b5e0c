package dev.ferry.broker;

import dev.ferry.broker.internal.YamlSection;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.MessageGuardFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Reads a route's policy keys (callers, identity header, backend TLS, WS-Security). */
final class RoutePolicyFile {
  private static final Set<String> TLS_KEYS = Set.of("trust", "trustPassword", "certificate",
      "key", "keyStore", "password");

  private RoutePolicyFile() {}

  static RoutePolicy policy(YamlSection route, Path base) {
    Set<String> callers = callers(route);
    String header = route.text("identityHeader", false);
    if (header != null && !header.matches("[A-Za-z0-9-]+")) {
      throw route.error("identityHeader", "not a header name: " + header);
    }
    YamlSection tls = route.section("backendTls");
    TlsSettings backendTls = tls == null ? null : backendTls(tls, base);
    YamlSection wss = route.section("wsSecurity");
    MessageGuard guard = wss == null ? null : guard(wss, base);
    if (callers == null && header == null && backendTls == null && guard == null) {
      return RoutePolicy.NONE;
    }
    boolean resign = wss != null && wss.has("outbound");
    boolean terminate = wss != null && wss.bool("terminate", false);
    if (terminate && resign) {
      throw wss.error("terminate", "terminate forwards the message without WS-Security,"
          + " outbound signs it anew: one of them");
    }
    return new RoutePolicy(callers, header, backendTls, guard, resign ? guard : null,
        terminate);
  }

  /**
   * A route's WS-Security, made by the module that provides it (wssecurity) from the section
   * less the broker's own key ({@code terminate}).
   */
  static MessageGuard guard(YamlSection wss, Path base) {
    Map<String, Object> settings = new LinkedHashMap<>(wss.plain());
    settings.remove("terminate");
    try {
      return MessageGuardFactory.create("ws-security", settings, base);
    } catch (IllegalArgumentException | IOException e) {
      throw wss.error(e.getMessage());
    }
  }

  private static Set<String> callers(YamlSection route) {
    if (!route.has("require")) {
      return null;
    }
    if (!route.isList("require")) {
      if ("any".equals(route.text("require", false))) {
        return Set.of("*");
      }
      throw route.error("require", "expected any, or a list of caller names");
    }
    List<String> names = route.texts("require");
    if (names.isEmpty()) {
      throw route.error("require", "expected any, or a list of caller names");
    }
    return Set.copyOf(names);
  }

  private static TlsSettings backendTls(YamlSection m, Path base) {
    m.checkKeys(TLS_KEYS);
    TlsSettings.Builder b = TlsSettings.builder();
    String trust = m.text("trust", false);
    char[] trustPassword = chars(m.text("trustPassword", false));
    if (trust != null) {
      Path f = base.resolve(trust);
      b.trust(isStore(f) ? TrustMaterial.keyStore(f, trustPassword) : TrustMaterial.pem(f));
    }
    String cert = m.text("certificate", false);
    String key = m.text("key", false);
    String store = m.text("keyStore", false);
    char[] password = chars(m.text("password", false));
    if (store != null) {
      b.identity(KeyMaterial.keyStore(base.resolve(store), password));
    } else if (cert != null && key != null) {
      b.identity(KeyMaterial.pem(base.resolve(cert), base.resolve(key), password));
    } else if (cert != null || key != null) {
      throw m.error("certificate and key go together");
    }
    try {
      return b.build();
    } catch (IOException e) {
      throw m.error(e.getMessage());
    }
  }

  private static boolean isStore(Path f) {
    String n = f.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".p12") || n.endsWith(".pfx") || n.endsWith(".jks");
  }

  private static char[] chars(String s) {
    return s == null ? null : s.toCharArray();
  }
}
