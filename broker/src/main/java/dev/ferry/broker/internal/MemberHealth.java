package dev.ferry.broker.internal;

import dev.ferry.broker.BackendGroup;
import java.util.function.LongSupplier;

/**
 * What a broker knows of one backend's health, from its traffic and its checks: whether it is
 * suspended, and for how long the next suspension will be (Apache Synapse's rule: after the
 * configured failures in a row, the initial duration; each suspension that follows without a
 * success in between, the last one times the progression factor, up to the maximum; a success
 * resets both). A suspended member comes back when its time is up, unless an active check of
 * it failed since it was suspended: then only a check that passes brings it back (a replica that
 * says it is not ready, because it drains, is not tried again on the strength of a timer while
 * it closes). Failures reported while it is suspended, and successes of exchanges that started
 * before it was (requests that were on their way), change nothing.
 *
 * <p>Thread-safe. {@link #available} and a {@link #succeeded} with nothing to reset read
 * volatile fields only; a change of state takes the lock.
 */
public final class MemberHealth {
  private final BackendGroup.Suspension suspension;
  private final LongSupplier nanoClock;
  private volatile long suspendedUntil; // nanoClock time; 0: not suspended
  private volatile long suspendedAt;
  private volatile boolean clean = true; // no failure since the last success
  private volatile boolean heldByCheck; // a check failed while suspended: a check must pass
  private int failuresInRow;
  private long nextNanos;
  private long suspensions;

  /** {@code suspension} null: never suspended (failures are still counted). */
  public MemberHealth(BackendGroup.Suspension suspension, LongSupplier nanoClock) {
    this.suspension = suspension;
    this.nanoClock = nanoClock;
    this.nextNanos = suspension == null ? 0 : suspension.initial().toNanos();
  }

  /** Whether requests may go to the member now. */
  public boolean available() {
    long until = suspendedUntil;
    return until == 0 || !heldByCheck && nanoClock.getAsLong() - until >= 0;
  }

  /**
   * Nanoseconds until the member comes back, 0 if it is available; for one held by a failed
   * check, until its suspension would have ended, at least {@code heldNanos} (a check's period).
   */
  public long nanosLeft(long heldNanos) {
    long until = suspendedUntil;
    if (until == 0) {
      return 0;
    }
    long left = Math.max(0, until - nanoClock.getAsLong());
    return heldByCheck ? Math.max(left, heldNanos) : left;
  }

  /** The time {@link #succeeded} takes: this clock's now. */
  public long now() {
    return nanoClock.getAsLong();
  }

  /**
   * An exchange with the member that started at {@code since} ({@link #now()} then) succeeded,
   * or a check did: the member is healthy, unless it was suspended after that exchange started.
   */
  public void succeeded(long since) {
    if (clean && suspendedUntil == 0) {
      return; // the common case: nothing to reset, no lock
    }
    synchronized (this) {
      if (suspendedUntil != 0 && since - suspendedAt < 0) {
        return; // on its way before the suspension: says nothing of the member since
      }
      failuresInRow = 0;
      suspendedUntil = 0;
      heldByCheck = false;
      nextNanos = suspension == null ? 0 : suspension.initial().toNanos();
      clean = true;
    }
  }

  /**
   * An exchange with the member failed in a way that counts against it. Returns true if this
   * failure suspended it.
   */
  public boolean failed() {
    return failed(false);
  }

  /**
   * An active check of the member failed: it counts as an exchange's failure does, and a member
   * suspended now or before stays out until a check passes.
   */
  public boolean checkFailed() {
    return failed(true);
  }

  private synchronized boolean failed(boolean byCheck) {
    clean = false;
    if (suspension == null) {
      return false;
    }
    if (!available()) {
      heldByCheck |= byCheck;
      return false;
    }
    if (++failuresInRow < suspension.failures()) {
      return false;
    }
    long now = nanoClock.getAsLong();
    suspendedAt = now;
    suspendedUntil = now + nextNanos == 0 ? 1 : now + nextNanos; // 0 means "not suspended"
    nextNanos = Math.min(suspension.max().toNanos(),
        (long) Math.min(Long.MAX_VALUE / 2.0, nextNanos * suspension.factor()));
    failuresInRow = 0;
    heldByCheck = byCheck;
    suspensions++;
    return true;
  }

  /** How many times the member was suspended. */
  public synchronized long suspensions() {
    return suspensions;
  }
}
