package dev.ferry.broker;

import dev.ferry.broker.internal.RateLimiter;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A route's {@link RouteLimits} as the broker keeps them: the route's requests in flight and
 * its rate, and each caller's. Lock-free on the way of a request; the callers' table is swept
 * of idle callers when it is full, at most once a second. Thread-safe.
 */
final class RouteLimiter {
  /** What taking a share gave: a permit, or a refusal. */
  sealed interface Taken permits Permit, Refusal {}

  /** What a request took, given back once when its exchange ends. */
  static final class Permit implements Taken {
    private final AtomicInteger route;
    private final AtomicInteger caller;
    private final AtomicBoolean released = new AtomicBoolean();

    Permit(AtomicInteger route, AtomicInteger caller) {
      this.route = route;
      this.caller = caller;
    }

    void release() {
      if (released.compareAndSet(false, true)) {
        if (route != null) {
          route.decrementAndGet();
        }
        if (caller != null) {
          caller.decrementAndGet();
        }
      }
    }
  }

  /**
   * A request refused: which limit ({@code RouteLimits.rate}), in words, when to retry, and
   * whether it was one of the caller's own limits (429, a Sender fault) or the route's (503, a
   * Receiver fault).
   */
  record Refusal(String limit, String reason, long retryAfterSeconds, boolean callers)
      implements Taken {
    /** The HTTP status of the answer. */
    int status() {
      return callers ? 429 : 503;
    }
  }

  /** One caller's share. */
  private static final class Caller {
    final AtomicInteger inFlight = new AtomicInteger();
    final RateLimiter rate;

    Caller(RouteLimits.Rate r) {
      this.rate = r == null ? null : new RateLimiter(r.perSecond(), r.burst(), System::nanoTime);
    }

    boolean idle() {
      return inFlight.get() == 0 && (rate == null || rate.idle());
    }
  }

  static final Permit NONE = new Permit(null, null);

  private final RouteLimits limits;
  private final String route;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final RateLimiter rate;
  private final Map<String, Caller> callers = new ConcurrentHashMap<>();
  private final Caller overflow;
  private final AtomicLong lastSweep = new AtomicLong();

  RouteLimiter(Route route) {
    this.limits = route.limits();
    this.route = route.name();
    RouteLimits.Rate r = limits.rate();
    this.rate = r == null ? null : new RateLimiter(r.perSecond(), r.burst(), System::nanoTime);
    this.overflow = new Caller(limits.ratePerCaller());
  }

  /**
   * Takes a share of the route's limits and of {@code caller}'s: returns the permit to give
   * back when the exchange ends, or the refusal.
   */
  Taken acquire(String caller) {
    if (!limits.any()) {
      return NONE;
    }
    AtomicInteger routeCount = null;
    if (limits.maxInFlight() > 0) {
      if (inFlight.incrementAndGet() > limits.maxInFlight()) {
        inFlight.decrementAndGet();
        return new Refusal("maxInFlight", route + " takes " + requests(limits.maxInFlight())
            + " at once", 1, false);
      }
      routeCount = inFlight;
    }
    Caller c = limits.perCaller() ? caller(caller) : null;
    AtomicInteger callerCount = null;
    if (c != null && limits.maxInFlightPerCaller() > 0) {
      if (c.inFlight.incrementAndGet() > limits.maxInFlightPerCaller()) {
        c.inFlight.decrementAndGet();
        new Permit(routeCount, null).release();
        return new Refusal("maxInFlightPerCaller", route + " takes "
            + requests(limits.maxInFlightPerCaller()) + " at once from one caller", 1, true);
      }
      callerCount = c.inFlight;
    }
    Permit permit = new Permit(routeCount, callerCount);
    // the caller's own rate first: what it sends past its share takes nothing of the route's
    Refusal tooFast = c == null ? null
        : rated(c.rate, "ratePerCaller", limits.ratePerCaller(), " from one caller", true);
    if (tooFast == null) {
      tooFast = rated(rate, "rate", limits.rate(), "", false);
    }
    if (tooFast != null) {
      permit.release();
      return tooFast;
    }
    return permit;
  }

  private Refusal rated(RateLimiter limiter, String name, RouteLimits.Rate r, String whose,
      boolean callers) {
    if (limiter == null) {
      return null;
    }
    long wait = limiter.acquire();
    if (wait == 0) {
      return null;
    }
    return new Refusal(name, route + " takes " + describe(r.perSecond()) + whose,
        Math.max(1, (wait + 999_999_999L) / 1_000_000_000L), callers);
  }

  /** A rate in the unit that makes it at least 1: "40 requests a second", "1 request an hour". */
  static String describe(double perSecond) {
    if (perSecond >= 1 - 1e-9) {
      return requests(perSecond) + " a second";
    }
    return perSecond * 60 >= 1 - 1e-9 ? requests(perSecond * 60) + " a minute"
        : requests(perSecond * 3600) + " an hour";
  }

  private static String requests(double n) {
    String number = new java.math.BigDecimal(n).round(new java.math.MathContext(4))
        .stripTrailingZeros().toPlainString();
    return number + (number.equals("1") ? " request" : " requests");
  }

  /** {@code name}'s share; past {@link RouteLimits#MAX_CALLERS} callers, the shared one. */
  private Caller caller(String name) {
    Caller c = callers.get(name);
    if (c != null) {
      return c;
    }
    if (callers.size() >= RouteLimits.MAX_CALLERS) {
      sweep();
      if (callers.size() >= RouteLimits.MAX_CALLERS) {
        return overflow;
      }
    }
    return callers.computeIfAbsent(name, n -> new Caller(limits.ratePerCaller()));
  }

  /** Forgets idle callers (nothing in flight, their bucket full): at most once a second. */
  private void sweep() {
    long now = System.nanoTime();
    long last = lastSweep.get();
    if (now - last < 1_000_000_000L || !lastSweep.compareAndSet(last, now)) {
      return;
    }
    for (Iterator<Caller> it = callers.values().iterator(); it.hasNext(); ) {
      if (it.next().idle()) {
        it.remove();
      }
    }
  }
}
