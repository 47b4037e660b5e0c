package dev.ferry.broker;

import dev.ferry.broker.internal.ExchangeTracing;
import dev.ferry.logging.MessageLog;
import dev.ferry.soap.SoapCodec;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What every exchange of one broker shares: the codec requests are read with, the current
 * {@link RouteSet} (routes, changes, backends and their connections; an exchange takes the one
 * current when it starts), the settings, the meters, the audit copies, the count of exchanges
 * being forwarded (the admission limit's), whether the broker is draining, its spans, and its
 * message log (null: none).
 */
record BrokerContext(SoapCodec codec, AtomicReference<RouteSet> routeSet, BrokerOptions options,
    BrokerMetrics metrics, Audit audit, AtomicInteger slots, String localAddress,
    AtomicBoolean stopping, ExchangeTracing tracing, MessageLog messageLog) {

  /**
   * Whether the broker is draining: readiness fails, and each connection closes once its
   * exchange is answered.
   */
  boolean draining() {
    return stopping.get();
  }

  /**
   * The route set for an exchange starting now, with a use of it taken (the exchange gives it
   * back with {@link RouteSet#leave} as it ends).
   */
  RouteSet enterRoutes() {
    while (true) {
      RouteSet s = routeSet.get();
      if (s.enter()) {
        return s;
      } // retired and closed since the read: a newer one is current
    }
  }

  /** Takes a forwarding slot; false if {@link BrokerOptions#maxExchanges} are taken. */
  boolean admit() {
    if (slots.incrementAndGet() > options.maxExchanges()) {
      slots.decrementAndGet();
      metrics.refused();
      return false;
    }
    metrics.started();
    return true;
  }

  /** Gives a forwarding slot back. */
  void release() {
    slots.decrementAndGet();
  }

  /** The broker's address for its callers: the configured public one, else the local one. */
  String address() {
    return options.publicAddress() != null
        ? options.publicAddress().toString().replaceAll("/+$", "") : localAddress;
  }

  /** {@code http} or {@code https}: how callers reach the broker. */
  String scheme() {
    return localAddress.startsWith("https:") ? "https" : "http";
  }
}
