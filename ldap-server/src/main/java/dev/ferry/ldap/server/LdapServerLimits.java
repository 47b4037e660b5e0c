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
 *       <td>connections open at once; more are closed at once with a notice</td></tr>
 *   <tr><td>{@code maxOperationsPerConnection}</td>
 *       <td>{@value #DEFAULT_MAX_OPERATIONS_PER_CONNECTION}</td>
 *       <td>searches running at once on one connection; more get {@code busy}</td></tr>
 *   <tr><td>{@code maxSearchResults}</td><td>{@value #DEFAULT_MAX_SEARCH_RESULTS}</td>
 *       <td>entries one search request returns (a page, for paged searches); a request's
 *       own size limit can only lower it</td></tr>
 *   <tr><td>{@code maxSearchTimeMillis}</td><td>{@value #DEFAULT_MAX_SEARCH_TIME_MILLIS}</td>
 *       <td>time one search request runs; a request's own time limit can only lower it</td></tr>
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
  public static final int DEFAULT_MAX_OPERATIONS_PER_CONNECTION = 100;
  public static final int DEFAULT_MAX_SEARCH_RESULTS = 1000;
  public static final long DEFAULT_MAX_SEARCH_TIME_MILLIS = 60_000;
  public static final int DEFAULT_MAX_PAGED_SEARCHES_PER_CONNECTION = 16;
  public static final int DEFAULT_MAX_ENTRIES = 1_000_000;
  /** The defaults. */
  public static final LdapServerLimits DEFAULTS = builder().build();

  private final int maxRequestBytesAnonymous;
  private final int maxRequestBytes;
  private final int maxConnections;
  private final int maxOperationsPerConnection;
  private final int maxSearchResults;
  private final long maxSearchTimeMillis;
  private final int maxPagedSearchesPerConnection;
  private final int maxEntries;
  private final LdapLimits ldap;

  private LdapServerLimits(Builder b) {
    this.maxRequestBytesAnonymous = b.maxRequestBytesAnonymous;
    this.maxRequestBytes = b.maxRequestBytes;
    this.maxConnections = b.maxConnections;
    this.maxOperationsPerConnection = b.maxOperationsPerConnection;
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
        .maxOperationsPerConnection(maxOperationsPerConnection)
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

  public int maxOperationsPerConnection() {
    return maxOperationsPerConnection;
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
        + ", maxOperationsPerConnection=" + maxOperationsPerConnection + ", maxSearchResults="
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
    private int maxOperationsPerConnection = DEFAULT_MAX_OPERATIONS_PER_CONNECTION;
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
