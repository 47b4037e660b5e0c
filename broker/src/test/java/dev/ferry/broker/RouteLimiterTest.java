package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the broker keeps of a route's limits: permits given back once, a bounded callers table. */
class RouteLimiterTest {

  private static RouteLimiter limiter(RouteLimits limits) {
    return new RouteLimiter(Route.builder("/s").to(URI.create("http://x/")).limits(limits)
        .build());
  }

  @Test
  void aPermitGivenBackTwiceCountsOnce() {
    RouteLimiter l = limiter(new RouteLimits(1, null, 0, null, false));
    RouteLimiter.Permit p = (RouteLimiter.Permit) l.acquire("ip:a");
    assertThat(l.acquire("ip:b")).isInstanceOf(RouteLimiter.Refusal.class);
    p.release();
    p.release();
    RouteLimiter.Permit q = (RouteLimiter.Permit) l.acquire("ip:b");
    assertThat(l.acquire("ip:c")).as("one in flight, not minus one")
        .isInstanceOf(RouteLimiter.Refusal.class);
    q.release();
  }

  @Test
  void aCallerRefusedByItsOwnRateTakesNothingOfTheRoutes() {
    RouteLimiter l = limiter(new RouteLimits(0, new RouteLimits.Rate(1.0 / 3600, 3), 0,
        new RouteLimits.Rate(1.0 / 3600, 1), false));
    assertThat(l.acquire("id:greedy")).isInstanceOf(RouteLimiter.Permit.class);
    for (int i = 0; i < 10; i++) {
      RouteLimiter.Refusal no = (RouteLimiter.Refusal) l.acquire("id:greedy");
      assertThat(no.limit()).isEqualTo("ratePerCaller");
      assertThat(no.status()).isEqualTo(429);
    }
    assertThat(l.acquire("id:a")).isInstanceOf(RouteLimiter.Permit.class);
    assertThat(l.acquire("id:b")).isInstanceOf(RouteLimiter.Permit.class);
    RouteLimiter.Refusal no = (RouteLimiter.Refusal) l.acquire("id:c");
    assertThat(no.limit()).isEqualTo("rate");
    assertThat(no.status()).isEqualTo(503);
    assertThat(no.retryAfterSeconds()).isBetween(3590L, 3600L);
  }

  @Test
  void pastMaxCallersTheNewOnesShareOneLimitUntilSomeGoIdle() throws InterruptedException {
    RouteLimiter l = limiter(new RouteLimits(0, null, 1, null, false));
    List<RouteLimiter.Permit> held = new ArrayList<>();
    for (int i = 0; i < RouteLimits.MAX_CALLERS; i++) {
      held.add((RouteLimiter.Permit) l.acquire("ip:" + i));
    }
    RouteLimiter.Permit shared = (RouteLimiter.Permit) l.acquire("ip:new1");
    assertThat(l.acquire("ip:new2")).as("new2 shares new1's limit")
        .isInstanceOf(RouteLimiter.Refusal.class);
    shared.release();
    held.forEach(RouteLimiter.Permit::release);
    // the idle callers are swept (at most once a second): new1 and new2 have their own again
    long deadline = System.nanoTime() + 10_000_000_000L;
    RouteLimiter.Taken a;
    do {
      Thread.sleep(50);
      a = l.acquire("ip:new1");
      if (a instanceof RouteLimiter.Permit p && l.acquire("ip:new2") instanceof
          RouteLimiter.Permit q) {
        p.release();
        q.release();
        return;
      }
      if (a instanceof RouteLimiter.Permit p) {
        p.release();
      }
    } while (System.nanoTime() < deadline);
    throw new AssertionError("idle callers never swept");
  }
}
