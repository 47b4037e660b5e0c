package dev.ferry.testkit;

import java.lang.management.ManagementFactory;

/** Bytes the current thread has allocated: to prove that hostile input allocates nothing big. */
public final class Allocations {
  private Allocations() {}

  /** Returns the bytes allocated by the current thread so far (HotSpot's exact counter). */
  public static long currentThread() {
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    return bean.getThreadAllocatedBytes(Thread.currentThread().threadId());
  }
}
