package dev.ferry.broker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.broker.BackendGroup;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Synapse's suspension rule, on a clock the test moves. */
class MemberHealthTest {
  private final AtomicLong now = new AtomicLong(1_000);

  private void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  @Test
  void suspendsForLongerEachTimeItFailsAgainUpToTheMaximumAndASuccessResetsIt() {
    MemberHealth h = new MemberHealth(new BackendGroup.Suspension(Duration.ofSeconds(1), 3,
        Duration.ofSeconds(5), 1), now::get);
    assertThat(h.available()).isTrue();
    assertThat(h.failed()).isTrue();
    assertThat(h.available()).isFalse();
    assertThat(h.nanosLeft(0)).isEqualTo(Duration.ofSeconds(1).toNanos());
    assertThat(h.failed()).as("a failure of a request already on its way").isFalse();
    advance(Duration.ofMillis(999));
    assertThat(h.available()).isFalse();
    advance(Duration.ofMillis(1));
    assertThat(h.available()).as("back on its own").isTrue();
    assertThat(h.failed()).isTrue();
    assertThat(h.nanosLeft(0)).isEqualTo(Duration.ofSeconds(3).toNanos()); // 1 s x 3
    advance(Duration.ofSeconds(3));
    h.failed();
    assertThat(h.nanosLeft(0)).isEqualTo(Duration.ofSeconds(5).toNanos()); // 9 s, at most 5
    advance(Duration.ofSeconds(5));
    h.succeeded(now.get());
    assertThat(h.failed()).isTrue();
    assertThat(h.nanosLeft(0)).as("reset by the success").isEqualTo(
        Duration.ofSeconds(1).toNanos());
    assertThat(h.suspensions()).isEqualTo(4);
  }

  @Test
  void needsTheConfiguredFailuresInARowAndASuccessBetweenStartsAgain() {
    MemberHealth h = new MemberHealth(new BackendGroup.Suspension(Duration.ofSeconds(1), 2,
        Duration.ofSeconds(8), 3), now::get);
    assertThat(h.failed()).isFalse();
    assertThat(h.failed()).isFalse();
    h.succeeded(now.get());
    assertThat(h.failed()).isFalse();
    assertThat(h.failed()).isFalse();
    assertThat(h.failed()).isTrue();
    assertThat(h.available()).isFalse();
  }

  @Test
  void aSuccessBringsASuspendedMemberBackAtOnce() {
    MemberHealth h = new MemberHealth(BackendGroup.Suspension.DEFAULT, now::get);
    h.failed();
    assertThat(h.available()).isFalse();
    h.succeeded(now.get()); // an active check that passed
    assertThat(h.available()).isTrue();
  }

  @Test
  void aSuccessOfARequestSentBeforeTheSuspensionChangesNothing() {
    MemberHealth h = new MemberHealth(BackendGroup.Suspension.DEFAULT, now::get);
    long sentEarlier = now.get();
    advance(Duration.ofMillis(5));
    h.failed();
    h.succeeded(sentEarlier); // a request it answered while stopping
    assertThat(h.available()).isFalse();
    h.succeeded(now.get());
    assertThat(h.available()).isTrue();
  }

  @Test
  void withoutASuspensionItIsNeverTakenOut() {
    MemberHealth h = new MemberHealth(null, now::get);
    for (int i = 0; i < 10; i++) {
      assertThat(h.failed()).isFalse();
    }
    assertThat(h.available()).isTrue();
  }

  @Test
  void aMemberWhoseCheckFailedStaysOutPastItsTimeUntilACheckPasses() {
    MemberHealth h = new MemberHealth(BackendGroup.Suspension.DEFAULT, now::get);
    assertThat(h.checkFailed()).isTrue(); // a draining replica: /health/ready answers 503
    advance(BackendGroup.Suspension.DEFAULT.max().plusSeconds(1));
    assertThat(h.available()).as("its time is up, its check still failed").isFalse();
    assertThat(h.nanosLeft(Duration.ofMillis(200).toNanos()))
        .isEqualTo(Duration.ofMillis(200).toNanos());
    h.succeeded(now.get()); // the replica that took its place is ready
    assertThat(h.available()).isTrue();
  }

  @Test
  void aCheckThatFailsWhileTrafficSuspendedItHoldsItToo() {
    MemberHealth h = new MemberHealth(BackendGroup.Suspension.DEFAULT, now::get);
    assertThat(h.failed()).isTrue();
    assertThat(h.checkFailed()).as("already suspended").isFalse();
    advance(BackendGroup.Suspension.DEFAULT.max().plusSeconds(1));
    assertThat(h.available()).isFalse();
  }

  @Test
  void aMemberSuspendedByTrafficAloneComesBackWhenItsTimeIsUp() {
    MemberHealth h = new MemberHealth(BackendGroup.Suspension.DEFAULT, now::get);
    assertThat(h.failed()).isTrue();
    advance(BackendGroup.Suspension.DEFAULT.initial());
    assertThat(h.available()).isTrue();
    assertThat(h.nanosLeft(Duration.ofMillis(200).toNanos())).isZero();
  }
}
