package dev.ferry.broker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The rate limiter against the token bucket it stands for, on a clock the test moves: the same
 * answers for every arrival pattern, never more than {@code burst + rate x time} let through,
 * and a refusal's wait is exactly when the next would pass.
 */
class RateLimiterProperties {

  /** A token bucket the plain way, in whole nanoseconds, to hold the limiter against. */
  private static final class Bucket {
    final long interval;
    final long capacity; // nanoseconds of credit: burst x interval
    long credit;
    long last;

    Bucket(long interval, int burst, long now) {
      this.interval = interval;
      this.capacity = burst * interval;
      this.credit = capacity;
      this.last = now;
    }

    boolean take(long now) {
      credit = Math.min(capacity, credit + (now - last));
      last = now;
      if (credit >= interval) {
        credit -= interval;
        return true;
      }
      return false;
    }
  }

  @Property(tries = 300)
  void answersAsATokenBucketWould(@ForAll @IntRange(min = 1, max = 5000) int perSecond,
      @ForAll @IntRange(min = 1, max = 20) int burst, @ForAll("gaps") List<Long> gaps) {
    AtomicLong clock = new AtomicLong(-3_000_000_000L); // nanoTime may be negative
    RateLimiter limiter = new RateLimiter(perSecond, burst, clock::get);
    Bucket bucket = new Bucket(Math.round(1e9 / perSecond), burst, clock.get());
    long start = clock.get();
    int through = 0;
    for (long gap : gaps) {
      long now = clock.addAndGet(gap);
      long wait = limiter.acquire();
      assertThat(wait == 0).as("at +%d ns", now - start).isEqualTo(bucket.take(now));
      if (wait == 0) {
        through++;
      } else {
        assertRetryIsExact(limiter, clock, wait);
        assertThat(bucket.take(clock.get())).as("the retry's token").isTrue();
        through++;
      }
      // the interval is whole nanoseconds: the rate is 1e9 / interval, off by a rounding
      long allowed = burst + (clock.get() - start) / bucket.interval;
      assertThat((long) through).isLessThanOrEqualTo(allowed);
    }
  }

  /** One nanosecond before {@code wait} the request is still refused; at it, it passes. */
  private static void assertRetryIsExact(RateLimiter limiter, AtomicLong clock, long wait) {
    clock.addAndGet(wait - 1);
    assertThat(limiter.acquire()).isEqualTo(1);
    clock.addAndGet(1);
    assertThat(limiter.acquire()).isZero();
  }

  @Provide
  Arbitrary<List<Long>> gaps() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(5, Arbitraries.just(0L)),
        net.jqwik.api.Tuple.of(5, Arbitraries.longs().between(1, 2_000_000)),
        net.jqwik.api.Tuple.of(1, Arbitraries.longs().between(2_000_000, 3_000_000_000L)))
        .list().ofMinSize(1).ofMaxSize(200);
  }

  @Test
  void aFullBucketIsIdleAndOneTakenFromIsNot() {
    AtomicLong clock = new AtomicLong();
    RateLimiter limiter = new RateLimiter(10, 3, clock::get);
    assertThat(limiter.idle()).isTrue();
    assertThat(limiter.acquire()).isZero();
    assertThat(limiter.idle()).isFalse();
    clock.addAndGet(100_000_000L); // one interval: full again
    assertThat(limiter.idle()).isTrue();
  }

  @Test
  void manyThreadsAtOnceGetExactlyTheBurst() throws InterruptedException {
    RateLimiter limiter = new RateLimiter(1.0 / 3600, 50, () -> 0L); // time stands still
    AtomicInteger through = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    Thread[] threads = new Thread[8];
    for (int t = 0; t < threads.length; t++) {
      threads[t] = Thread.ofPlatform().start(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < 1000; i++) {
          if (limiter.acquire() == 0) {
            through.incrementAndGet();
          }
        }
      });
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertThat(through.get()).isEqualTo(50);
  }
}
