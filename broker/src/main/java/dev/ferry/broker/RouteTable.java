package dev.ferry.broker;

import dev.ferry.broker.internal.PathScan;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapException;
import io.netty.handler.codec.http.HttpHeaders;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * A {@link Routes} table as the broker uses it: routes by path, and the choice of a request's
 * route. Conditions on the HTTP head and the SOAP header are looked up in what the envelope's
 * index holds; those on the Body of every route that may still win are evaluated in one StAX
 * pass over the Body, which stops as soon as the first route in order whose conditions hold is
 * known. Immutable and thread-safe: a broker holds one and may swap it whole.
 */
final class RouteTable {
  private final Routes routes;
  private final Map<String, List<Route>> byPath = new LinkedHashMap<>();

  RouteTable(Routes routes) {
    this.routes = routes;
    for (Route r : routes.routes()) {
      byPath.computeIfAbsent(r.path(), p -> new ArrayList<>()).add(r);
    }
    byPath.replaceAll((p, l) -> List.copyOf(l));
  }

  Routes routes() {
    return routes;
  }

  /**
   * The route a request takes, and whether its Body decided it (then the Body read must be the
   * one the backend reads, which the caller of this checks); a null route if none takes it.
   */
  record Selection(Route route, boolean byBody) {}

  /** What a route's conditions look at. */
  record Request(String path, HttpHeaders headers, String soapAction, Message message) {}

  /**
   * Picks the first route for the request's path whose conditions all hold.
   *
   * @throws SoapException if the Body, read for a condition, is malformed or over a limit
   */
  Selection select(Request request) throws IOException {
    List<Route> candidates = byPath.getOrDefault(request.path(), List.of());
    List<Route> byBody = new ArrayList<>(0);
    Route fallback = null;
    for (Route r : candidates) {
      if (!headHolds(r, request)) {
        continue;
      }
      if (!r.readsBody()) {
        fallback = r;
        break;
      }
      byBody.add(r);
    }
    if (byBody.isEmpty()) {
      return new Selection(fallback, false);
    }
    Route chosen = firstByBody(byBody, request.message());
    return new Selection(chosen != null ? chosen : fallback, true);
  }

  /** Whether every condition of {@code r} but those on the Body holds. */
  private static boolean headHolds(Route r, Request q) {
    for (RouteCondition c : r.conditions()) {
      boolean holds = switch (c) {
        case RouteCondition.HttpHeader h -> h.value().test(q.headers().get(h.name()));
        case RouteCondition.SoapAction a -> a.value().test(q.soapAction());
        case RouteCondition.WsaAction a -> a.value().test(q.message().addressing().action());
        case RouteCondition.Action a -> a.action().equals(q.message().addressing().action())
            || a.action().equals(q.soapAction());
        case RouteCondition.SoapHeader h -> {
          HeaderBlock b = q.message().header(h.name());
          yield b != null && h.value().test(b.text());
        }
        case RouteCondition.Body b -> true;
      };
      if (!holds) {
        return false;
      }
    }
    return true;
  }

  /**
   * The first of {@code routes} whose Body conditions all hold, or null: their expressions are
   * evaluated together in one pass that ends as soon as that is known.
   */
  private static Route firstByBody(List<Route> routes, Message message) throws IOException {
    List<PathScan[]> scans = new ArrayList<>(routes.size());
    for (Route r : routes) {
      List<PathScan> own = new ArrayList<>(1);
      for (RouteCondition c : r.conditions()) {
        if (c instanceof RouteCondition.Body b) {
          own.add(b.path().program().newScan());
        }
      }
      scans.add(own.toArray(PathScan[]::new));
    }
    XMLStreamReader r = message.bodyXmlReader();
    try {
      feed(r, scans, XMLStreamConstants.START_ELEMENT); // the Body's: the scans' context
      for (int depth = 1; depth > 0; ) {
        int e = r.next();
        if (e == XMLStreamConstants.START_ELEMENT) {
          depth++;
        } else if (e == XMLStreamConstants.END_ELEMENT) {
          depth--;
        }
        feed(r, scans, e);
        int decided = decided(scans);
        if (decided != -2) {
          return decided < 0 ? null : routes.get(decided);
        }
      }
      return null;
    } catch (XMLStreamException e) {
      throw new SoapException("malformed Body: " + e.getMessage(), -1, "Body", e);
    } finally {
      try {
        r.close();
      } catch (XMLStreamException ignored) {
        // nothing held but the parser's buffers
      }
    }
  }

  /** Hands event {@code e} of {@code r} to every scan (a decided one ignores it). */
  private static void feed(XMLStreamReader r, List<PathScan[]> scans, int e) {
    for (PathScan[] own : scans) {
      for (PathScan s : own) {
        switch (e) {
          case XMLStreamConstants.START_ELEMENT -> s.start(r);
          case XMLStreamConstants.END_ELEMENT -> s.end();
          case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA,
              XMLStreamConstants.SPACE -> s.text(r);
          case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION ->
              s.boundary();
          default -> { }
        }
      }
    }
  }

  /**
   * The index of the first route whose scans are all decided true, if every route before it
   * is decided false; -1 if every route is decided false; -2 while that is not known.
   */
  private static int decided(List<PathScan[]> scans) {
    for (int i = 0; i < scans.size(); i++) {
      boolean allTrue = true;
      boolean anyFalse = false;
      for (PathScan s : scans.get(i)) {
        if (!s.decided()) {
          allTrue = false;
        } else if (!s.result()) {
          anyFalse = true;
          break;
        }
      }
      if (anyFalse) {
        continue;
      }
      return allTrue ? i : -2;
    }
    return -1;
  }
}
