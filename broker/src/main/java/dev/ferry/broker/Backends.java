package dev.ferry.broker;

import dev.ferry.broker.internal.MemberHealth;
import dev.ferry.client.internal.HttpConnections;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link BackendGroup} as the broker runs it: each member's origin and health, and the order
 * in which a request tries them. Shared by the routes that name the group; thread-safe, and a
 * request's choice takes no lock (a counter for the turn, volatile reads of health).
 */
final class Backends {
  private static final System.Logger LOG = System.getLogger("dev.ferry.broker");

  /** One member as the broker runs it. */
  static final class Backend {
    final BackendGroup.Member member;
    final HttpConnections.Origin origin;
    final MemberHealth health;
    final String label; // host:port/path, for metrics and the access log

    Backend(BackendGroup.Member member, BackendGroup.Suspension suspension) {
      this.member = member;
      this.origin = HttpConnections.Origin.of(member.url());
      this.health = new MemberHealth(suspension, System::nanoTime);
      URI u = member.url();
      this.label = u.getScheme() + "://" + u.getRawAuthority() + (u.getRawPath() == null ? ""
          : u.getRawPath());
    }

    URI url() {
      return member.url();
    }
  }

  private final BackendGroup group;
  private final Backend[] members;
  private final int[] weighted; // member indexes in smooth weighted order
  private final AtomicLong turn = new AtomicLong();
  private final BrokerMetrics metrics;

  Backends(BackendGroup group, BrokerMetrics metrics) {
    this.group = group;
    this.metrics = metrics;
    List<BackendGroup.Member> m = group.members();
    this.members = new Backend[m.size()];
    for (int i = 0; i < members.length; i++) {
      members[i] = new Backend(m.get(i), group.suspension());
      metrics.member(group.name(), members[i]);
    }
    this.weighted = group.balance() == BackendGroup.Balance.WEIGHTED ? smoothOrder(m) : null;
  }

  BackendGroup group() {
    return group;
  }

  List<Backend> members() {
    return List.of(members);
  }

  /**
   * nginx's smooth weighted round robin, unrolled once: each member appears as often as its
   * weight, spread out ({@code a:5 b:1 c:1} gives a a b a c a a), so that a turn counter picks
   * with no lock.
   */
  private static int[] smoothOrder(List<BackendGroup.Member> m) {
    int total = m.stream().mapToInt(BackendGroup.Member::weight).sum();
    int[] order = new int[total];
    int[] current = new int[m.size()];
    for (int t = 0; t < total; t++) {
      int best = 0;
      for (int i = 0; i < current.length; i++) {
        current[i] += m.get(i).weight();
        if (current[i] > current[best]) {
          best = i;
        }
      }
      current[best] -= total;
      order[t] = best;
    }
    return order;
  }

  /**
   * The members a new request tries, in order: its pick by the group's balance first, then the
   * others in their configured order. Suspended members are skipped when their turn comes.
   */
  Attempts attempts(boolean idempotent) {
    int n = members.length;
    int[] order = new int[n];
    switch (group.balance()) {
      case FAILOVER -> {
        for (int k = 0; k < n; k++) {
          order[k] = k;
        }
      }
      case ROUND_ROBIN -> {
        int first = (int) Math.floorMod(turn.getAndIncrement(), (long) n);
        for (int k = 0; k < n; k++) {
          order[k] = (first + k) % n; // the others in turn after the pick: the load stays spread
        }
      }
      case WEIGHTED -> {
        int first = weightedPick();
        order[0] = first;
        for (int i = 0, k = 1; i < n; i++) {
          if (i != first) {
            order[k++] = i;
          }
        }
      }
    }
    return new Attempts(this, order, idempotent);
  }

  /** The weighted pick: the next in the smooth order that is available, else the first. */
  private int weightedPick() {
    long t = turn.getAndIncrement();
    for (int k = 0; k < weighted.length; k++) {
      int i = weighted[(int) Math.floorMod(t + k, (long) weighted.length)];
      if (members[i].health.available()) {
        return i;
      }
    }
    return weighted[(int) Math.floorMod(t, (long) weighted.length)];
  }

  Backend member(int i) {
    return members[i];
  }

  /** Whether every member is suspended now. */
  boolean allSuspended() {
    for (Backend b : members) {
      if (b.health.available()) {
        return false;
      }
    }
    return true;
  }

  /** The seconds until the first suspended member comes back (at least 1). */
  long secondsUntilOneReturns() {
    long least = Long.MAX_VALUE;
    for (Backend b : members) {
      least = Math.min(least, b.health.nanosLeft(checkNanos()));
    }
    return Math.max(1, (least + 999_999_999L) / 1_000_000_000L);
  }

  /** {@code b} served an exchange that started at {@code since} (its health's clock) well. */
  void succeeded(Backend b, long since) {
    b.health.succeeded(since);
  }

  /** An exchange with {@code b} failed ({@code why}, for the log) in a way that counts. */
  void failed(Backend b, String why) {
    metrics.memberFailed(group.name(), b);
    if (b.health.failed()) {
      suspended(b, " is suspended for " + b.health.nanosLeft(0) / 1_000_000 + " ms: " + why);
    }
  }

  /** An active check of {@code b} failed ({@code why}): out until a check passes. */
  void checkFailed(Backend b, String why) {
    metrics.memberFailed(group.name(), b);
    if (b.health.checkFailed()) {
      suspended(b, " is suspended until a check passes: " + why);
    }
  }

  private void suspended(Backend b, String what) {
    metrics.memberSuspended(group.name(), b);
    LOG.log(System.Logger.Level.WARNING, "the member " + b.label + " of " + group.name() + what);
  }

  /** A check's period, or 0 for a group without checks. */
  private long checkNanos() {
    return group.check() == null ? 0 : group.check().interval().toNanos();
  }
}
