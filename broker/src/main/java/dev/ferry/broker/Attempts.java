package dev.ferry.broker;

/**
 * The members one request tries, in the order its group chose ({@link Backends#attempts}), and
 * what it learned of them: a member it could not have reached is left for the next one; one it
 * may have reached is left only if the route's operations are idempotent. Each failure that
 * counts is reported to the group once. Used by one exchange at a time (handed from its reading
 * thread to its event loop, never shared).
 */
final class Attempts {
  private final Backends backends;
  private final int[] order;
  private final boolean idempotent;
  private volatile int position = -1;
  private volatile Backends.Backend current;
  private volatile int moves;
  /** Whether the current member's failure was counted (once, whatever reports it). */
  private volatile boolean counted;
  /** When the current member was picked, on its health's clock. */
  private volatile long since;

  Attempts(Backends backends, int[] order, boolean idempotent) {
    this.backends = backends;
    this.order = order;
    this.idempotent = idempotent;
  }

  /** The group. */
  Backends backends() {
    return backends;
  }

  /** Moves to the next member in order that is not suspended; null if none is left. */
  Backends.Backend next() {
    for (int p = position + 1; p < order.length; p++) {
      Backends.Backend b = backends.member(order[p]);
      if (b.health.available()) {
        position = p;
        current = b;
        counted = false;
        since = b.health.now();
        return b;
      }
    }
    position = order.length;
    current = null;
    return null;
  }

  /** The member being tried, or null. */
  Backends.Backend current() {
    return current;
  }

  /** How many times the request moved to another member. */
  int moves() {
    return moves;
  }

  /**
   * The member being tried failed ({@code why}): it is counted against it, and the next member
   * is returned if the request may go there, else null. {@code reached}: bytes of the request
   * may have reached the failed member.
   */
  Backends.Backend failover(String why, boolean reached) {
    failed(why);
    if (reached && !idempotent) {
      return null;
    }
    Backends.Backend next = next();
    if (next != null) {
      moves++;
    }
    return next;
  }

  /** The member being tried failed, and the request goes nowhere else. */
  void failed(String why) {
    Backends.Backend failed = current;
    if (failed != null && !counted) {
      counted = true;
      backends.failed(failed, why);
    }
  }

  /** The member being tried served the request. */
  void succeeded() {
    Backends.Backend b = current;
    if (b != null) {
      backends.succeeded(b, since);
    }
  }
}
