package dev.ferry.broker;

/**
 * How much a route takes: requests in flight and a rate, for the route as a whole and for each
 * caller (its authenticated name, else its address). A request past a limit is answered at once
 * with {@code Retry-After} and a fault naming the limit, and never reaches a member: past a
 * limit of the route, 503 and a Receiver fault (the service is at capacity for everyone); past a
 * limit of one caller, 429 and a Sender fault (that caller sends too much; a broker in front does
 * not hold it against this one); with {@code soapStatus}, the status the SOAP binding gives the
 * fault instead (500 for SOAP 1.1, as WS-I Basic Profile R1126 has it; 500 or 400 for SOAP
 * 1.2), for clients that read a fault only there (CXF's and Metro's report a 503 or a 429 as
 * a transport error with the status alone). Limits are per broker: behind a load balancer that
 * spreads callers over N brokers, a route takes up to N times as much (see
 * {@code docs/broker.md}). Immutable.
 *
 * @param maxInFlight requests of the route being forwarded at once (0: no limit)
 * @param rate requests of the route a second (null: no limit)
 * @param maxInFlightPerCaller requests of one caller on the route at once (0: no limit)
 * @param ratePerCaller requests of one caller on the route a second (null: no limit)
 * @param soapStatus whether a refusal has the SOAP binding's status rather than 503 or 429
 */
public record RouteLimits(int maxInFlight, Rate rate, int maxInFlightPerCaller,
    Rate ratePerCaller, boolean soapStatus) {
  /** No limit (beyond the broker's {@link BrokerOptions#maxExchanges}). */
  public static final RouteLimits NONE = new RouteLimits(0, null, 0, null, false);

  /**
   * The most callers whose own limits one route keeps at once; past it, callers not among them
   * share one limit until some of them go idle.
   */
  public static final int MAX_CALLERS = 10_000;

  /** The slowest rate: one an hour. */
  public static final double MIN_PER_SECOND = 1.0 / 3600;
  /** The highest rate, and the largest burst and in-flight limit. */
  public static final int MAX = 1_000_000;

  /**
   * A rate: {@code perSecond} on average, with up to {@code burst} at once after a pause (a
   * token bucket of {@code burst} tokens filling at {@code perSecond}).
   */
  public record Rate(double perSecond, int burst) {
    public Rate {
      if (!(perSecond >= MIN_PER_SECOND && perSecond <= MAX)) { // NaN fails too
        throw new IllegalArgumentException("a rate is from one an hour to " + MAX
            + " a second, got " + perSecond + " a second");
      }
      if (burst < 1 || burst > MAX) {
        throw new IllegalArgumentException("a burst is from 1 to " + MAX + ", got " + burst);
      }
    }

    /** {@code perSecond}, with a burst of one second's worth (at least 1). */
    public static Rate perSecond(double perSecond) {
      return new Rate(perSecond, (int) Math.max(1, Math.ceil(perSecond)));
    }
  }

  public RouteLimits {
    if (maxInFlight < 0 || maxInFlightPerCaller < 0 || maxInFlight > MAX
        || maxInFlightPerCaller > MAX) {
      throw new IllegalArgumentException("in-flight limits are from 0 (none) to " + MAX
          + ", got " + maxInFlight + " and " + maxInFlightPerCaller);
    }
  }

  /** Whether any limit is set. */
  public boolean any() {
    return maxInFlight > 0 || rate != null || maxInFlightPerCaller > 0 || ratePerCaller != null;
  }

  /** Whether a limit per caller is set. */
  public boolean perCaller() {
    return maxInFlightPerCaller > 0 || ratePerCaller != null;
  }
}
