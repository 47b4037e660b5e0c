package dev.ferry.broker;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The backends a route forwards to: one or more members that serve the same service, how a
 * request picks one ({@link Balance}), when a failing member is taken out of rotation and for
 * how long ({@link Suspension}), and optional active checks. A route with a single {@code to} has
 * a group of one that is never suspended. Immutable; routes that name the same group share its
 * members' health.
 *
 * <pre>{@code
 * BackendGroup quotes = BackendGroup.builder("quotes")
 *     .balance(BackendGroup.Balance.ROUND_ROBIN)
 *     .member(URI.create("http://10.0.0.1:8080/quotes"))
 *     .member(URI.create("http://10.0.0.2:8080/quotes"))
 *     .suspension(new BackendGroup.Suspension(Duration.ofSeconds(1), 2, Duration.ofMinutes(1), 1))
 *     .build();
 * }</pre>
 */
public final class BackendGroup {
  /** The most members in a group. */
  public static final int MAX_MEMBERS = 64;
  /** The largest weight of a member. */
  public static final int MAX_WEIGHT = 100;

  /** How a request picks its member; the others follow if it fails before it reached it. */
  public enum Balance {
    /** The first member in order that is not suspended. */
    FAILOVER,
    /** Each request the next member in turn. */
    ROUND_ROBIN,
    /** In turn, each member as often as its weight says, spread evenly (nginx's smooth way). */
    WEIGHTED
  }

  /** A member: its URL, and its weight for {@link Balance#WEIGHTED} (1 to 100). */
  public record Member(URI url, int weight) {
    public Member {
      if (url == null || !"http".equals(url.getScheme()) && !"https".equals(url.getScheme())
          || url.getHost() == null) {
        throw new IllegalArgumentException("expected an http:// or https:// URL, got " + url);
      }
      if (weight < 1 || weight > MAX_WEIGHT) {
        throw new IllegalArgumentException("a weight is from 1 to " + MAX_WEIGHT + ", got "
            + weight);
      }
    }
  }

  /**
   * When a failing member is taken out of rotation, as Apache Synapse does it: after
   * {@code failures} failures in a row, for {@code initial}; each time it fails again once back,
   * for {@code factor} times as long as the last time, up to {@code max}; one request that
   * succeeds brings it back to {@code initial}. A member comes back by itself when its time is
   * up (or when an active check passes).
   */
  public record Suspension(Duration initial, double factor, Duration max, int failures) {
    /** One failure suspends for 1 s, then 2, 4 ... up to 60 s. */
    public static final Suspension DEFAULT = new Suspension(Duration.ofSeconds(1), 2,
        Duration.ofSeconds(60), 1);

    public Suspension {
      Objects.requireNonNull(initial);
      Objects.requireNonNull(max);
      if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0) {
        throw new IllegalArgumentException("a suspension needs 0 < initial <= max, got "
            + initial + " and " + max);
      }
      if (!(factor >= 1) || Double.isInfinite(factor)) {
        throw new IllegalArgumentException("the progression factor must be at least 1, got "
            + factor);
      }
      if (failures < 1) {
        throw new IllegalArgumentException("failures must be at least 1, got " + failures);
      }
    }
  }

  /**
   * Active checks: every {@code interval}, a {@code GET} of {@code path} (null: the member's own
   * URL with {@code ?wsdl}) on each member; an answer of 2xx within {@code timeout} brings a
   * suspended member back, anything else counts as a failure.
   */
  public record HealthCheck(Duration interval, String path, Duration timeout) {
    public HealthCheck {
      Objects.requireNonNull(interval);
      Objects.requireNonNull(timeout);
      if (interval.toMillis() < 100 || timeout.toMillis() < 1) {
        throw new IllegalArgumentException("checks need an interval of at least 100 ms and a"
            + " timeout, got " + interval + " and " + timeout);
      }
      if (path != null && !path.startsWith("/")) {
        throw new IllegalArgumentException("a check's path must start with /, got " + path);
      }
    }
  }

  private final String name;
  private final Balance balance;
  private final List<Member> members;
  private final Suspension suspension;
  private final HealthCheck check;
  private final Duration timeout;
  private final boolean gatesReadiness;

  private BackendGroup(Builder b) {
    this.name = b.name;
    this.balance = b.balance;
    this.members = List.copyOf(b.members);
    this.suspension = b.suspension;
    this.check = b.check;
    this.timeout = b.timeout;
    this.gatesReadiness = b.gatesReadiness;
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A group of one member that is never suspended: a route's single {@code to}. */
  public static BackendGroup of(URI url) {
    return builder(url.toString()).member(url).suspension(null).build();
  }

  /** Its name in metrics and logs. */
  public String name() {
    return name;
  }

  public Balance balance() {
    return balance;
  }

  public List<Member> members() {
    return members;
  }

  /** When members are suspended, or null: never. */
  public Suspension suspension() {
    return suspension;
  }

  /** The active checks, or null: none (health is learned from the traffic alone). */
  public HealthCheck check() {
    return check;
  }

  /** The members' timeout, or null for the routing table's. */
  public Duration timeout() {
    return timeout;
  }

  /**
   * Whether the broker is not ready ({@code /health/ready} answers 503) while every member of
   * the group is suspended, so that a load balancer sends callers to a replica whose members
   * are up.
   */
  public boolean gatesReadiness() {
    return gatesReadiness;
  }

  @Override
  public String toString() {
    return "BackendGroup[" + name + ", " + balance + ", " + members.size() + " members]";
  }

  /** Configures a {@link BackendGroup}. */
  public static final class Builder {
    private final String name;
    private Balance balance = Balance.FAILOVER;
    private final List<Member> members = new ArrayList<>();
    private Suspension suspension = Suspension.DEFAULT;
    private HealthCheck check;
    private Duration timeout;
    private boolean gatesReadiness;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name);
    }

    /** How a request picks its member (default {@link Balance#FAILOVER}). */
    public Builder balance(Balance balance) {
      this.balance = Objects.requireNonNull(balance);
      return this;
    }

    /** Adds a member of weight 1. */
    public Builder member(URI url) {
      return member(new Member(url, 1));
    }

    public Builder member(Member member) {
      members.add(Objects.requireNonNull(member));
      return this;
    }

    /** When members are suspended (default {@link Suspension#DEFAULT}); null: never. */
    public Builder suspension(Suspension suspension) {
      this.suspension = suspension;
      return this;
    }

    /** Active checks (default none). */
    public Builder check(HealthCheck check) {
      this.check = check;
      return this;
    }

    /**
     * No progress towards a member for this long (connecting, sending, waiting for the reply)
     * fails the exchange and counts against the member (default: the routing table's timeout).
     */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /**
     * Makes the broker not ready while every member is suspended (default false: readiness
     * ignores the members' health).
     */
    public Builder gatesReadiness(boolean gates) {
      this.gatesReadiness = gates;
      return this;
    }

    /**
     * @throws IllegalStateException with no member, more than {@link #MAX_MEMBERS}, or the same
     *     URL twice
     */
    public BackendGroup build() {
      if (members.isEmpty() || members.size() > MAX_MEMBERS) {
        throw new IllegalStateException("the group " + name + " needs 1 to " + MAX_MEMBERS
            + " members, got " + members.size());
      }
      if (members.stream().map(Member::url).distinct().count() != members.size()) {
        throw new IllegalStateException("the group " + name + " names a member twice");
      }
      if (gatesReadiness && suspension == null) {
        throw new IllegalStateException("the group " + name + " gates readiness, but its members"
            + " are never suspended (suspend: never)");
      }
      return new BackendGroup(this);
    }
  }
}
