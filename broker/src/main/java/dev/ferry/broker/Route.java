package dev.ferry.broker;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One route of a {@link Routes} table: the requests it takes (a path, and conditions on the HTTP
 * head, the SOAP header and the Body), and what it does with them: forward them to its backend,
 * or answer a configured fault. Immutable.
 *
 * <pre>{@code
 * Route ibm = Route.builder("/quotes")
 *     .when(new RouteCondition.Body(BodyPath.compile("//q:symbol = 'IBM'", Map.of("q", NS))))
 *     .to(URI.create("http://10.0.0.5:8080/quotes"))
 *     .build();
 * Route rest = Route.builder("/quotes").fault(new RouteFault(true, "no desk for this symbol"))
 *     .build();
 * }</pre>
 */
public final class Route {
  private final String name;
  private final String path;
  private final List<RouteCondition> conditions;
  private final BackendGroup backends;
  private final boolean idempotent;
  private final RouteFault fault;
  private final RouteLimits limits;
  private final RouteTransform transform;
  private final RouteTransform replyTransform;
  private final String audit;
  private final boolean alwaysSetTo;
  private final RoutePolicy policy;

  private Route(Builder b) {
    this.path = b.path;
    this.conditions = List.copyOf(b.conditions);
    this.backends = b.backends;
    this.idempotent = b.idempotent;
    this.fault = b.fault;
    this.limits = b.limits;
    this.transform = b.transform;
    this.replyTransform = b.replyTransform;
    this.audit = b.audit;
    this.alwaysSetTo = b.alwaysSetTo;
    this.policy = b.policy;
    this.name = b.name != null ? b.name : action() == null ? path : path + " " + action();
  }

  /** A route that forwards requests for {@code path} (and {@code action}, if not null). */
  public Route(String path, String action, URI to, String audit) {
    this(builder(path).action(action).to(to).audit(audit));
  }

  /** Starts a route for requests to {@code path} (exact; it must start with {@code /}). */
  public static Builder builder(String path) {
    return new Builder(path);
  }

  /** A builder with this route's settings. */
  public Builder toBuilder() {
    Builder b = new Builder(path);
    b.name = name;
    b.conditions.addAll(conditions);
    b.backends = backends;
    b.idempotent = idempotent;
    b.fault = fault;
    b.limits = limits;
    b.transform = transform;
    b.replyTransform = replyTransform;
    b.audit = audit;
    b.alwaysSetTo = alwaysSetTo;
    b.policy = policy;
    return b;
  }

  /**
   * The route's name in metrics and logs: as configured, else its path and its action if it has
   * one.
   */
  public String name() {
    return name;
  }

  public String path() {
    return path;
  }

  /** What a request must have besides its path, all of it. */
  public List<RouteCondition> conditions() {
    return conditions;
  }

  /** The action of an {@link RouteCondition.Action} condition, or null. */
  public String action() {
    for (RouteCondition c : conditions) {
      if (c instanceof RouteCondition.Action a) {
        return a.action();
      }
    }
    return null;
  }

  /** Whether a condition reads the Body. */
  public boolean readsBody() {
    for (RouteCondition c : conditions) {
      if (c instanceof RouteCondition.Body) {
        return true;
      }
    }
    return false;
  }

  /**
   * The backend's address, written into wsa:To: the first member of {@link #backends()}; null
   * for a route that answers a {@link #fault()}.
   */
  public URI to() {
    return backends == null ? null : backends.members().get(0).url();
  }

  /** The members requests go to, or null for a route that answers a {@link #fault()}. */
  public BackendGroup backends() {
    return backends;
  }

  /**
   * Whether the route's operations are idempotent: a held request that may have reached a member
   * that then failed (timed out, broke, answered a Receiver fault or not SOAP) is sent to the
   * next member. Otherwise only one that cannot have reached it is. A streamed request that went
   * out is never sent again.
   */
  public boolean idempotent() {
    return idempotent;
  }

  /** The fault the route answers with instead of forwarding, or null. */
  public RouteFault fault() {
    return fault;
  }

  /** How much the route takes at once and a second, in all and from one caller. */
  public RouteLimits limits() {
    return limits;
  }

  /** The stylesheet applied to the request's payload before it goes on, or null. */
  public RouteTransform transform() {
    return transform;
  }

  /**
   * The stylesheet applied to the payload of the backend's reply (one answered 200, read whole)
   * before it goes back, or null.
   */
  public RouteTransform replyTransform() {
    return replyTransform;
  }

  /** Where the audit copy goes (a directory or an http(s) URL), or null. */
  public String audit() {
    return audit;
  }

  /** Whether wsa:To is set even where the caller sent none. */
  public boolean alwaysSetTo() {
    return alwaysSetTo;
  }

  public RoutePolicy policy() {
    return policy;
  }

  /** Returns true if the audit copy goes to an HTTP endpoint rather than a directory. */
  public boolean auditsToUrl() {
    return audit != null && (audit.startsWith("http://") || audit.startsWith("https://"));
  }

  @Override
  public String toString() {
    return "Route[" + name + (backends != null ? " -> " + backends.name() : " fault") + "]";
  }

  /** Configures a {@link Route}. */
  public static final class Builder {
    private final String path;
    private String name;
    private final List<RouteCondition> conditions = new ArrayList<>();
    private BackendGroup backends;
    private boolean idempotent;
    private RouteFault fault;
    private RouteLimits limits = RouteLimits.NONE;
    private RouteTransform transform;
    private RouteTransform replyTransform;
    private String audit;
    private boolean alwaysSetTo;
    private RoutePolicy policy = RoutePolicy.NONE;

    private Builder(String path) {
      if (path == null || !path.startsWith("/")) {
        throw new IllegalArgumentException("a route's path must start with /, got " + path);
      }
      this.path = path;
    }

    /** Its name in metrics and logs (default: the path, and the action if there is one). */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** Only requests whose wsa:Action or SOAPAction is {@code action} (null: any). */
    public Builder action(String action) {
      conditions.removeIf(c -> c instanceof RouteCondition.Action);
      if (action != null) {
        conditions.add(new RouteCondition.Action(action));
      }
      return this;
    }

    /** Adds a condition: the route takes requests that meet every one. */
    public Builder when(RouteCondition condition) {
      conditions.add(Objects.requireNonNull(condition));
      return this;
    }

    /** Forwards to {@code to}, an http or https URL: a group of one, never suspended. */
    public Builder to(URI to) {
      this.backends = to == null ? null : BackendGroup.of(to);
      return this;
    }

    /** Forwards to the members of {@code group}. */
    public Builder backends(BackendGroup group) {
      this.backends = group;
      return this;
    }

    /** Whether the route's operations are idempotent (default false; see {@link #idempotent()}). */
    public Builder idempotent(boolean idempotent) {
      this.idempotent = idempotent;
      return this;
    }

    /** Answers {@code fault} instead of forwarding. */
    public Builder fault(RouteFault fault) {
      this.fault = fault;
      return this;
    }

    /** How much the route takes (default {@link RouteLimits#NONE}). */
    public Builder limits(RouteLimits limits) {
      this.limits = limits == null ? RouteLimits.NONE : limits;
      return this;
    }

    /** The stylesheet applied to each request's payload (null: none). */
    public Builder transform(RouteTransform transform) {
      this.transform = transform;
      return this;
    }

    /**
     * The stylesheet applied to the payload of each reply answered 200 (null: none). Such a
     * reply is read whole, up to {@link BrokerOptions#holdBytes}; a longer one is a Receiver
     * fault, as the reply cannot be transformed.
     */
    public Builder replyTransform(RouteTransform transform) {
      this.replyTransform = transform;
      return this;
    }

    /** A copy of each request goes to this directory or http(s) URL (null: none). */
    public Builder audit(String audit) {
      this.audit = audit;
      return this;
    }

    /** Sets wsa:To to the backend even where the caller sent none (default: only rewrite). */
    public Builder alwaysSetTo(boolean always) {
      this.alwaysSetTo = always;
      return this;
    }

    /** Callers, identity header, backend TLS, WS-Security (default {@link RoutePolicy#NONE}). */
    public Builder policy(RoutePolicy policy) {
      this.policy = policy == null ? RoutePolicy.NONE : policy;
      return this;
    }

    /**
     * Builds the route.
     *
     * @throws IllegalStateException unless it has either a backend or a fault
     */
    public Route build() {
      if ((backends == null) == (fault == null)) {
        throw new IllegalStateException("the route for " + path + " needs backends or a"
            + " fault, not " + (backends == null ? "neither" : "both"));
      }
      if (transform != null && policy.verify() != null && policy.resign() == null
          && !policy.terminate()) {
        throw new IllegalStateException("the route for " + path + " forwards its WS-Security"
            + " as it came: a transformed Body would fail the signature at the backend (end"
            + " WS-Security at the broker, or sign anew)");
      }
      return new Route(this);
    }
  }
}
