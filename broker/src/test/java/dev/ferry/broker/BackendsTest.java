package dev.ferry.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The order in which a request tries a group's members, by balance, around suspended ones. */
class BackendsTest {
  private static Backends group(BackendGroup.Balance balance, int... weights) {
    BackendGroup.Builder b = BackendGroup.builder("g").balance(balance);
    for (int i = 0; i < weights.length; i++) {
      b.member(new BackendGroup.Member(URI.create("http://m" + i + ".example/s"), weights[i]));
    }
    return new Backends(b.build(), new BrokerMetrics(List.of(), null));
  }

  private static List<String> firstPicks(Backends g, int n) {
    List<String> picks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      picks.add(g.attempts(false).next().url().getHost().substring(0, 2));
    }
    return picks;
  }

  @Test
  void failoverTakesTheFirstAvailableInOrder() {
    Backends g = group(BackendGroup.Balance.FAILOVER, 1, 1, 1);
    assertThat(firstPicks(g, 3)).containsExactly("m0", "m0", "m0");
    g.failed(g.member(0), "test");
    assertThat(firstPicks(g, 2)).containsExactly("m1", "m1");
    Attempts a = g.attempts(false);
    assertThat(a.next().url().getHost()).startsWith("m1");
    assertThat(a.failover("refused", false).url().getHost()).startsWith("m2");
    assertThat(a.failover("refused", false)).as("m0 suspended, m1 and m2 failed").isNull();
  }

  @Test
  void roundRobinTakesTurnsAndSkipsWhoIsSuspended() {
    Backends g = group(BackendGroup.Balance.ROUND_ROBIN, 1, 1, 1);
    assertThat(firstPicks(g, 6)).containsExactly("m0", "m1", "m2", "m0", "m1", "m2");
    g.failed(g.member(1), "test");
    assertThat(firstPicks(g, 3)).containsExactly("m0", "m2", "m2");
  }

  @Test
  void weightedSpreadsTurnsByWeightEvenly() {
    Backends g = group(BackendGroup.Balance.WEIGHTED, 5, 1, 1);
    assertThat(firstPicks(g, 7)).containsExactly("m0", "m0", "m1", "m0", "m2", "m0", "m0");
    Map<String, Integer> counts = new TreeMap<>();
    for (String p : firstPicks(g, 700)) {
      counts.merge(p, 1, Integer::sum);
    }
    assertThat(counts).containsExactlyEntriesOf(new TreeMap<>(Map.of("m0", 500, "m1", 100,
        "m2", 100)));
  }

  @Test
  void aRequestThatMayHaveReachedAMemberMovesOnlyOnAnIdempotentRoute() {
    Backends g = group(BackendGroup.Balance.FAILOVER, 1, 1);
    Attempts plain = g.attempts(false);
    plain.next();
    assertThat(plain.failover("timed out", true)).isNull();
    Backends h = group(BackendGroup.Balance.FAILOVER, 1, 1);
    Attempts idempotent = h.attempts(true);
    idempotent.next();
    assertThat(idempotent.failover("timed out", true).url().getHost()).startsWith("m1");
    assertThat(idempotent.moves()).isEqualTo(1);
  }
}
