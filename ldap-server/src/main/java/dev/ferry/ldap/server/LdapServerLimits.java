package dev.ferry.ldap.server;

import dev.ferry.asn1.BerLimits;
import dev.ferry.ldap.LdapLimits;
import java.util.Objects;

/**
 * Limits of an {@link LdapServer}; immutable, with safe finite defaults.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>default</th><th>what it bounds</th></tr>
 *   <tr><td>{@code maxRequestBytesAnonymous}</td>
 *       <td>{@value #DEFAULT_MAX_REQUEST_BYTES_ANONYMOUS}</td>
 *       <td>one request PDU before a successful bind (OpenLDAP's sockbuf_max_incoming)</td></tr>
 *   <tr><td>{@code maxRequestBytes}</td><td>{@value #DEFAULT_MAX_REQUEST_BYTES}</td>
 *       <td>one request PDU once bound (OpenLDAP's sockbuf_max_incoming_auth is 4 MiB)</td></tr>
 *   <tr><td>{@code maxConnections}</td><td>{@value #DEFAULT_MAX_CONNECTIONS}</td>
 *       <td>connections open at once; past it an idle connection that has not bound makes
 *       room, or, if there is none, the new one is closed at once with a notice</td></tr>
 *   <tr><td>{@code maxConnectionsPerAddress}</td>
 *       <td>{@value #DEFAULT_MAX_CONNECTIONS_PER_ADDRESS}</td>
 *       <td>connections open at once from one client address</td></tr>
 *   <tr><td>{@code idleTimeoutMillisAnonymous}</td>
 *       <td>{@value #DEFAULT_IDLE_TIMEOUT_MILLIS_ANONYMOUS}</td>
 *       <td>how long a connection that has not bound may wait between requests</td></tr>
 *   <tr><td>{@code idleTimeoutMillis}</td><td>{@value #DEFAULT_IDLE_TIMEOUT_MILLIS}</td>
 *       <td>how long a bound connection may wait between requests</td></tr>
 *   <tr><td>{@code readTimeoutMillisAnonymous}</td>
 *       <td>{@value #DEFAULT_READ_TIMEOUT_MILLIS_ANONYMOUS}</td>
 *       <td>how long one request may take to arrive, from its first byte, before a bind</td></tr>
 *   <tr><td>{@code readTimeoutMillis}</td><td>{@value #DEFAULT_READ_TIMEOUT_MILLIS}</td>
 *       <td>the same once bound</td></tr>
 *   <tr><td>{@code writeTimeoutMillis}</td><td>{@value #DEFAULT_WRITE_TIMEOUT_MILLIS}</td>
 *       <td>how long a response may wait for a client that does not read it</td></tr>
 *   <tr><td>{@code maxOperationsPerConnection}</td>
 *       <td>{@value #DEFAULT_MAX_OPERATIONS_PER_CONNECTION}</td>
 *       <td>searches running at once on one connection; more get {@code busy}</td></tr>
 *   <tr><td>{@code maxSearchResults}</td><td>{@value #DEFAULT_MAX_SEARCH_RESULTS}</td>
 *       <td>entries one search request returns (a page, for paged searches); a request's
 *       own size limit can only lower it</td></tr>
 *   <tr><td>{@code maxSearchTimeMillis}</td><td>{@value #DEFAULT_MAX_SEARCH_TIME_MILLIS}</td>
 *       <td>time one search request runs; a request's own time limit can only lower it</td></tr>
 *   <tr><td>{@code maxEntriesExamined}</td><td>{@value #DEFAULT_MAX_ENTRIES_EXAMINED}</td>
 *       <td>entries one search request looks at, matching or not; then
 *       {@code adminLimitExceeded}</td></tr>
 *   <tr><td>{@code maxUnindexedEntriesAnonymous}</td>
 *       <td>{@value #DEFAULT_MAX_UNINDEXED_ENTRIES_ANONYMOUS}</td>
 *       <td>entries an anonymous search may look at when no index narrows its filter; then
 *       {@code adminLimitExceeded}</td></tr>
 *   <tr><td>{@code maxPagedSearchesPerConnection}</td>
 *       <td>{@value #DEFAULT_MAX_PAGED_SEARCHES_PER_CONNECTION}</td>
 *       <td>paged searches whose position the server keeps for one connection</td></tr>
 *   <tr><td>{@code maxEntries}</td><td>{@value #DEFAULT_MAX_ENTRIES}</td>
 *       <td>entries the directory holds; an add beyond them is refused</td></tr>
 *   <tr><td>{@code ldap}</td><td>{@link LdapLimits#DEFAULTS}</td>
 *       <td>decoding of requests: filter depth, OID length, BER nesting and value size</td></tr>
 * </table>
 */
public final class LdapServerLimits {
  public static final int DEFAULT_MAX_REQUEST_BYTES_ANONYMOUS = 256 * 1024;
  public static final int DEFAULT_MAX_REQUEST_BYTES = 8 * 1024 * 1024;
  public static final int DEFAULT_MAX_CONNECTIONS = 1024;
  public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 128;
  public static final long DEFAULT_IDLE_TIMEOUT_MILLIS_ANONYMOUS = 30_000;
  public static final long DEFAULT_IDLE_TIMEOUT_MILLIS = 300_000;
  public static final long DEFAULT_READ_TIMEOUT_MILLIS_ANONYMOUS = 10_000;
  public static final long DEFAULT_READ_TIMEOUT_MILLIS = 30_000;
  public static final long DEFAULT_WRITE_TIMEOUT_MILLIS = 60_000;
  public static final int DEFAULT_MAX_OPERATIONS_PER_CONNECTION = 100;
  public static final int DEFAULT_MAX_ENTRIES_EXAMINED = 100_000;
  public static final int DEFAULT_MAX_UNINDEXED_ENTRIES_ANONYMOUS = 10_000;
  public static final int DEFAULT_MAX_SEARCH_RESULTS = 1000;
  public static final long DEFAULT_MAX_SEARCH_TIME_MILLIS = 60_000;
  public static final int DEFAULT_MAX_PAGED_SEARCHES_PER_CONNECTION = 16;
  public static final int DEFAULT_MAX_ENTRIES = 1_000_000;
  /** The defaults. */
  public static final LdapServerLimits DEFAULTS = builder().build();

  private final int maxRequestBytesAnonymous;
  private final int maxRequestBytes;
  private final int maxConnections;
  private final int maxConnectionsPerAddress;
  private final long idleTimeoutMillisAnonymous;
  private final long idleTimeoutMillis;
  private final long readTimeoutMillisAnonymous;
  private final long readTimeoutMillis;
  private final long writeTimeoutMillis;
  private final int maxOperationsPerConnection;
  private final int maxEntriesExamined;
  private final int maxUnindexedEntriesAnonymous;
  private final int maxSearchResults;
  private final long maxSearchTimeMillis;
  private final int maxPagedSearchesPerConnection;
  private final int maxEntries;
  private final LdapLimits ldap;

  private LdapServerLimits(Builder b) {
    this.maxRequestBytesAnonymous = b.maxRequestBytesAnonymous;
    this.maxRequestBytes = b.maxRequestBytes;
    this.maxConnections = b.maxConnections;
    this.maxConnectionsPerAddress = b.maxConnectionsPerAddress;
    this.idleTimeoutMillisAnonymous = b.idleTimeoutMillisAnonymous;
    this.idleTimeoutMillis = b.idleTimeoutMillis;
    this.readTimeoutMillisAnonymous = b.readTimeoutMillisAnonymous;
    this.readTimeoutMillis = b.readTimeoutMillis;
    this.writeTimeoutMillis = b.writeTimeoutMillis;
    this.maxOperationsPerConnection = b.maxOperationsPerConnection;
    this.maxEntriesExamined = b.maxEntriesExamined;
    this.maxUnindexedEntriesAnonymous = b.maxUnindexedEntriesAnonymous;
    this.maxSearchResults = b.maxSearchResults;
    this.maxSearchTimeMillis = b.maxSearchTimeMillis;
    this.maxPagedSearchesPerConnection = b.maxPagedSearchesPerConnection;
    this.maxEntries = b.maxEntries;
    this.ldap = b.ldap;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return builder().maxRequestBytesAnonymous(maxRequestBytesAnonymous)
        .maxRequestBytes(maxRequestBytes).maxConnections(maxConnections)
        .maxConnectionsPerAddress(maxConnectionsPerAddress)
        .idleTimeoutMillisAnonymous(idleTimeoutMillisAnonymous)
        .idleTimeoutMillis(idleTimeoutMillis)
        .readTimeoutMillisAnonymous(readTimeoutMillisAnonymous)
        .readTimeoutMillis(readTimeoutMillis).writeTimeoutMillis(writeTimeoutMillis)
        .maxOperationsPerConnection(maxOperationsPerConnection)
        .maxEntriesExamined(maxEntriesExamined)
        .maxUnindexedEntriesAnonymous(maxUnindexedEntriesAnonymous)
        .maxSearchResults(maxSearchResults).maxSearchTimeMillis(maxSearchTimeMillis)
        .maxPagedSearchesPerConnection(maxPagedSearchesPerConnection).maxEntries(maxEntries)
        .ldap(ldap);
  }

  public int maxRequestBytesAnonymous() {
    return maxRequestBytesAnonymous;
  }

  public int maxRequestBytes() {
    return maxRequestBytes;
  }

  public int maxConnections() {
    return maxConnections;
  }

  public int maxConnectionsPerAddress() {
    return maxConnectionsPerAddress;
  }

  public long idleTimeoutMillisAnonymous() {
    return idleTimeoutMillisAnonymous;
  }

  public long idleTimeoutMillis() {
    return idleTimeoutMillis;
  }

  public long readTimeoutMillisAnonymous() {
    return readTimeoutMillisAnonymous;
  }

  public long readTimeoutMillis() {
    return readTimeoutMillis;
  }

  public long writeTimeoutMillis() {
    return writeTimeoutMillis;
  }

  public int maxOperationsPerConnection() {
    return maxOperationsPerConnection;
  }

  public int maxEntriesExamined() {
    return maxEntriesExamined;
  }

  public int maxUnindexedEntriesAnonymous() {
    return maxUnindexedEntriesAnonymous;
  }

  /** The shortest of the timeouts: how often they need looking at. */
  long shortestTimeoutMillis() {
    return Math.min(Math.min(idleTimeoutMillisAnonymous, idleTimeoutMillis),
        Math.min(Math.min(readTimeoutMillisAnonymous, readTimeoutMillis), writeTimeoutMillis));
  }

  public int maxSearchResults() {
    return maxSearchResults;
  }

  public long maxSearchTimeMillis() {
    return maxSearchTimeMillis;
  }

  public int maxPagedSearchesPerConnection() {
    return maxPagedSearchesPerConnection;
  }

  public int maxEntries() {
    return maxEntries;
  }

  public LdapLimits ldap() {
    return ldap;
  }

  /** The decoding limits for a connection, anonymous or bound. */
  LdapLimits requestLimits(boolean bound) {
    BerLimits ber = ldap.ber().toBuilder()
        .maxPduBytes(bound ? maxRequestBytes : maxRequestBytesAnonymous).build();
    return ldap.toBuilder().ber(ber).build();
  }

  @Override
  public String toString() {
    return "LdapServerLimits[maxRequestBytesAnonymous=" + maxRequestBytesAnonymous
        + ", maxRequestBytes=" + maxRequestBytes + ", maxConnections=" + maxConnections
        + ", maxConnectionsPerAddress=" + maxConnectionsPerAddress
        + ", idleTimeoutMillisAnonymous=" + idleTimeoutMillisAnonymous + ", idleTimeoutMillis="
        + idleTimeoutMillis + ", readTimeoutMillisAnonymous=" + readTimeoutMillisAnonymous
        + ", readTimeoutMillis=" + readTimeoutMillis + ", writeTimeoutMillis="
        + writeTimeoutMillis + ", maxOperationsPerConnection=" + maxOperationsPerConnection
        + ", maxEntriesExamined=" + maxEntriesExamined + ", maxUnindexedEntriesAnonymous="
        + maxUnindexedEntriesAnonymous + ", maxSearchResults="
        + maxSearchResults + ", maxSearchTimeMillis=" + maxSearchTimeMillis
        + ", maxPagedSearchesPerConnection=" + maxPagedSearchesPerConnection + ", maxEntries="
        + maxEntries + ", ldap="
        + ldap + "]";
  }

  /** Builds {@link LdapServerLimits}; every number must be at least 1. */
  public static final class Builder {
    private int maxRequestBytesAnonymous = DEFAULT_MAX_REQUEST_BYTES_ANONYMOUS;
    private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
    private int maxConnectionsPerAddress = DEFAULT_MAX_CONNECTIONS_PER_ADDRESS;
    private long idleTimeoutMillisAnonymous = DEFAULT_IDLE_TIMEOUT_MILLIS_ANONYMOUS;
    private long idleTimeoutMillis = DEFAULT_IDLE_TIMEOUT_MILLIS;
    private long readTimeoutMillisAnonymous = DEFAULT_READ_TIMEOUT_MILLIS_ANONYMOUS;
    private long readTimeoutMillis = DEFAULT_READ_TIMEOUT_MILLIS;
    private long writeTimeoutMillis = DEFAULT_WRITE_TIMEOUT_MILLIS;
    private int maxOperationsPerConnection = DEFAULT_MAX_OPERATIONS_PER_CONNECTION;
    private int maxEntriesExamined = DEFAULT_MAX_ENTRIES_EXAMINED;
    private int maxUnindexedEntriesAnonymous = DEFAULT_MAX_UNINDEXED_ENTRIES_ANONYMOUS;
    private int maxSearchResults = DEFAULT_MAX_SEARCH_RESULTS;
    private long maxSearchTimeMillis = DEFAULT_MAX_SEARCH_TIME_MILLIS;
    private int maxPagedSearchesPerConnection = DEFAULT_MAX_PAGED_SEARCHES_PER_CONNECTION;
    private int maxEntries = DEFAULT_MAX_ENTRIES;
    private LdapLimits ldap = LdapLimits.DEFAULTS;

    private Builder() {}

    public Builder maxRequestBytesAnonymous(int value) {
      maxRequestBytesAnonymous = (int) positive("maxRequestBytesAnonymous", value);
      return this;
    }

    public Builder maxRequestBytes(int value) {
      maxRequestBytes = (int) positive("maxRequestBytes", value);
      return this;
    }

    public Builder maxConnections(int value) {
      maxConnections = (int) positive("maxConnections", value);
      return this;
    }

    public Builder maxConnectionsPerAddress(int value) {
      maxConnectionsPerAddress = (int) positive("maxConnectionsPerAddress", value);
      return this;
    }

    public Builder idleTimeoutMillisAnonymous(long value) {
      idleTimeoutMillisAnonymous = positive("idleTimeoutMillisAnonymous", value);
      return this;
    }

    public Builder idleTimeoutMillis(long value) {
      idleTimeoutMillis = positive("idleTimeoutMillis", value);
      return this;
    }

    public Builder readTimeoutMillisAnonymous(long value) {
      readTimeoutMillisAnonymous = positive("readTimeoutMillisAnonymous", value);
      return this;
    }

    public Builder readTimeoutMillis(long value) {
      readTimeoutMillis = positive("readTimeoutMillis", value);
      return this;
    }

    public Builder writeTimeoutMillis(long value) {
      writeTimeoutMillis = positive("writeTimeoutMillis", value);
      return this;
    }

    public Builder maxUnindexedEntriesAnonymous(int value) {
      maxUnindexedEntriesAnonymous = (int) positive("maxUnindexedEntriesAnonymous", value);
      return this;
    }

    public Builder maxEntriesExamined(int value) {
      maxEntriesExamined = (int) positive("maxEntriesExamined", value);
      return this;
    }

    public Builder maxOperationsPerConnection(int value) {
      maxOperationsPerConnection = (int) positive("maxOperationsPerConnection", value);
      return this;
    }

    public Builder maxSearchResults(int value) {
      maxSearchResults = (int) positive("maxSearchResults", value);
      return this;
    }

    public Builder maxSearchTimeMillis(long value) {
      maxSearchTimeMillis = positive("maxSearchTimeMillis", value);
      return this;
    }

    public Builder maxPagedSearchesPerConnection(int value) {
      maxPagedSearchesPerConnection = (int) positive("maxPagedSearchesPerConnection", value);
      return this;
    }

    public Builder maxEntries(int value) {
      maxEntries = (int) positive("maxEntries", value);
      return this;
    }

    public Builder ldap(LdapLimits ldap) {
      this.ldap = Objects.requireNonNull(ldap, "ldap");
      return this;
    }

    public LdapServerLimits build() {
      return new LdapServerLimits(this);
    }

    private static long positive(String name, long value) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " < 1: " + value);
      }
      return value;
    }
  }
}
