package dev.ferry.wssecurity.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BoundedReplayCacheTest {
  private final BoundedReplayCache cache = new BoundedReplayCache(3, Duration.ofMinutes(5));

  @Test
  void whatAHeldMessageAddsCountsOnlyOnceCommitted() {
    cache.hold();
    cache.add("n1");
    assertThat(cache.contains("n1")).as("seen within its own message").isTrue();
    cache.release();
    assertThat(cache.contains("n1")).as("a refused message leaves nothing").isFalse();
    assertThat(cache.size()).isZero();

    cache.hold();
    cache.add("n1");
    assertThat(cache.commit()).isEqualTo(BoundedReplayCache.Verdict.REMEMBERED);
    assertThat(cache.contains("n1")).isTrue();
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void theSameNonceCommittedMeanwhileByAnotherThreadIsAReplay() throws Exception {
    cache.hold();
    cache.add("n1");
    AtomicReference<BoundedReplayCache.Verdict> other = new AtomicReference<>();
    Thread t = Thread.ofPlatform().start(() -> {
      cache.hold();
      cache.add("n1");
      other.set(cache.commit());
    });
    t.join();
    assertThat(other.get()).isEqualTo(BoundedReplayCache.Verdict.REMEMBERED);
    assertThat(cache.commit()).isEqualTo(BoundedReplayCache.Verdict.REPLAYED);
  }

  @Test
  void fullOfLiveEntriesRefusesRatherThanForgets() {
    for (String n : new String[] {"a", "b", "c"}) {
      cache.hold();
      cache.add(n);
      assertThat(cache.commit()).isEqualTo(BoundedReplayCache.Verdict.REMEMBERED);
    }
    cache.hold();
    cache.add("d");
    assertThat(cache.commit()).isEqualTo(BoundedReplayCache.Verdict.FULL);
    assertThat(cache.contains("a")).isTrue();
    assertThat(cache.size()).isEqualTo(3);
  }

  @Test
  void expiredEntriesLeaveAndMakeRoom() {
    Instant past = Instant.now().minusSeconds(1);
    cache.add("old1", past);
    cache.add("old2", past);
    cache.add("old3", past);
    assertThat(cache.contains("old1")).as("expired: not a replay").isFalse();
    cache.hold();
    cache.add("new");
    assertThat(cache.commit()).isEqualTo(BoundedReplayCache.Verdict.REMEMBERED);
    assertThat(cache.size()).isEqualTo(1);
  }

  @Test
  void outsideAHoldAFullCacheTakesEverythingNewAsSeen() {
    cache.add("a");
    cache.add("b");
    cache.add("c");
    cache.add("d");
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.contains("d")).isTrue();
  }
}
