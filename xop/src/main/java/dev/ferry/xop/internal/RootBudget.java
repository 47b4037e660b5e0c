package dev.ferry.xop.internal;

import dev.ferry.xop.XopException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of root parts one codec's packages hold at once ({@code XopLimits.maxHeldRootBytes}):
 * taken as a root is read, given back when its package closes.
 */
public final class RootBudget {
  private final long max;
  private final AtomicLong held = new AtomicLong();

  public RootBudget(long max) {
    this.max = max;
  }

  /** Takes {@code bytes}, or fails naming the limit if that would pass it. */
  public void take(long bytes, String where) throws XopException {
    long now = held.addAndGet(bytes);
    if (now > max) {
      held.addAndGet(-bytes);
      throw XopException.limitExceeded("XopLimits.maxHeldRootBytes", max, now, -1,
          where + " (roots held at once by this codec's packages; one not closed holds its"
              + " root until it is collected)");
    }
  }

  /** Gives {@code bytes} back. */
  public void give(long bytes) {
    held.addAndGet(-bytes);
  }

  /** Bytes held now. */
  public long held() {
    return held.get();
  }
}
