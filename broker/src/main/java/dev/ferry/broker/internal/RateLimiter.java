package dev.ferry.broker.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A token bucket kept as one number, the generic cell rate algorithm's theoretical arrival
 * time: a request at {@code now} is let through if that time is at most {@code burst - 1}
 * intervals ahead of it, and moves it one interval on. Lock-free (one compare-and-set); exact
 * under any number of threads.
 *
 * <pre>
 *   interval = 1 / rate        tolerance = (burst - 1) x interval
 *   tat' = max(tat, now)       through if tat' - now &lt;= tolerance; then tat = tat' + interval
 * </pre>
 */
public final class RateLimiter {
  private final long interval;
  private final long tolerance;
  private final LongSupplier nanoClock;
  private final AtomicLong tat;

  /** {@code perSecond} on average, {@code burst} at once; on {@code nanoClock}. */
  public RateLimiter(double perSecond, int burst, LongSupplier nanoClock) {
    this.interval = Math.max(1, Math.round(1e9 / perSecond));
    this.tolerance = (burst - 1) * interval;
    this.nanoClock = nanoClock;
    this.tat = new AtomicLong(nanoClock.getAsLong());
  }

  /** Takes a token: returns 0 if the request may go, else the nanoseconds until one could. */
  public long acquire() {
    long now = nanoClock.getAsLong();
    while (true) {
      long t = tat.get();
      long from = t - now > 0 ? t : now;
      long ahead = from - now;
      if (ahead > tolerance) {
        return ahead - tolerance;
      }
      if (tat.compareAndSet(t, from + interval)) {
        return 0;
      }
    }
  }

  /** Whether the bucket is full: nothing taken lately, so forgetting it changes nothing. */
  public boolean idle() {
    return tat.get() - nanoClock.getAsLong() <= 0;
  }
}
