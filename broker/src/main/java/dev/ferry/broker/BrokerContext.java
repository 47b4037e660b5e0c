package dev.ferry.broker;

import dev.ferry.client.internal.HttpConnections;
import dev.ferry.soap.SoapCodec;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every exchange of one broker shares: the codec requests are read with, the routes and
 * changes, the backend connections (those of routes with their own backend TLS apart), the
 * settings, the meters, the audit copies, and the count of exchanges being forwarded (the
 * admission limit's).
 */
record BrokerContext(SoapCodec codec, Forwarding forwarding, HttpConnections backends,
    Map<Route, HttpConnections> tlsBackends, BrokerOptions options,
    BrokerMetrics metrics, Audit audit, AtomicInteger slots, String localAddress) {

  /** The connections to {@code route}'s backend. */
  HttpConnections backends(Route route) {
    HttpConnections own = tlsBackends.get(route);
    return own != null ? own : backends;
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
}
