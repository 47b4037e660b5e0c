package dev.ferry.spring.boot.broker.internal;

import dev.ferry.broker.Routes;
import dev.ferry.spring.boot.broker.BrokerProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The broker's routing table from {@code ferry.broker.*}: the routes file as the broker reads
 * it, or the routes of {@code application.yaml} written as such a file and read by the same
 * parser, so that both are checked alike and an error names the property.
 */
public final class RouteTables {
  private RouteTables() {}

  /** Reads the table; fails naming the property that is wrong. */
  public static Routes of(BrokerProperties p) {
    if (p.getRoutesFile() != null && !p.getRoutes().isEmpty()) {
      throw new IllegalArgumentException("ferry.broker.routes and ferry.broker.routes-file are"
          + " both set: give the routes in one of them");
    }
    if (p.getRoutesFile() != null) {
      try {
        return Routes.load(p.getRoutesFile());
      } catch (IOException e) {
        throw new UncheckedIOException("ferry.broker.routes-file: cannot read "
            + p.getRoutesFile() + ": " + e.getMessage(), e);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("ferry.broker.routes-file: " + e.getMessage(), e);
      }
    }
    try {
      return Routes.parse(yaml(p));
    } catch (IllegalArgumentException e) {
      // the line is the generated YAML's, which the properties' user never saw
      String where = e.getMessage() == null ? "" : e.getMessage().replaceFirst("^line \\d+: ", "");
      throw new IllegalArgumentException("ferry.broker." + where, e);
    }
  }

  /** The routes as the broker's YAML: its keys, in its spelling. */
  static String yaml(BrokerProperties p) {
    List<Map<String, Object>> routes = new ArrayList<>();
    for (BrokerProperties.Route r : p.getRoutes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      put(m, "path", r.getPath());
      put(m, "action", r.getAction());
      put(m, "to", r.getTo());
      put(m, "audit", r.getAudit());
      m.put("wsaTo", r.getWsaTo() == BrokerProperties.WsaTo.ALWAYS ? "always" : "if-present");
      if (r.getRequire().equals(List.of("any"))) {
        m.put("require", "any");
      } else if (!r.getRequire().isEmpty()) {
        m.put("require", r.getRequire());
      }
      put(m, "identityHeader", r.getIdentityHeader());
      routes.add(m);
    }
    Map<String, Object> top = new LinkedHashMap<>();
    top.put("timeout", p.getTimeout().toMillis() + "ms");
    top.put("routes", routes);
    DumperOptions block = new DumperOptions();
    block.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    return new Yaml(block).dump(top);
  }

  private static void put(Map<String, Object> m, String key, String value) {
    if (value != null) {
      m.put(key, value);
    }
  }
}
