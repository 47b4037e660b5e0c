package dev.ferry.ldap;

import dev.ferry.asn1.BerLimits;
import java.util.Objects;

/**
 * Limits for LDAP decoding and connections; immutable, with safe finite defaults. The BER limits
 * nest inside: a PDU is first bounded by {@link BerLimits}, then by these.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>default</th><th>why</th></tr>
 *   <tr><td>{@code ber}</td><td>{@link BerLimits#DEFAULTS}</td>
 *       <td>PDU size, value size and nesting of the BER layer</td></tr>
 *   <tr><td>{@code maxFilterDepth}</td><td>{@value #DEFAULT_MAX_FILTER_DEPTH}</td>
 *       <td>nested and/or/not; recursion must not exhaust the stack (OpenLDAP: 1000)</td></tr>
 *   <tr><td>{@code maxFilterElements}</td><td>{@value #DEFAULT_MAX_FILTER_ELEMENTS}</td>
 *       <td>and, or, not and items of one filter together, so also the width of an and or
 *       an or: what evaluating the filter costs per entry</td></tr>
 *   <tr><td>{@code maxSubstringParts}</td><td>{@value #DEFAULT_MAX_SUBSTRING_PARTS}</td>
 *       <td>initial, any and final parts of one substrings item</td></tr>
 *   <tr><td>{@code maxFilterValueBytes}</td><td>{@value #DEFAULT_MAX_FILTER_VALUE_BYTES}</td>
 *       <td>assertion values and substring parts of one filter together</td></tr>
 *   <tr><td>{@code maxOidBytes}</td><td>{@value #DEFAULT_MAX_OID_BYTES}</td>
 *       <td>control and extended-operation names</td></tr>
 *   <tr><td>{@code maxPendingRequests}</td><td>{@value #DEFAULT_MAX_PENDING_REQUESTS}</td>
 *       <td>outstanding requests per connection (OpenLDAP: 100 anonymous, 1000 bound)</td></tr>
 *   <tr><td>{@code maxReferralHops}</td><td>{@value #DEFAULT_MAX_REFERRAL_HOPS}</td>
 *       <td>referrals followed in a chain when following is on; stops referral loops</td></tr>
 * </table>
 */
public final class LdapLimits {
  /** Deepest filter nesting: {@value}; below the BER depth limit so that this one speaks first. */
  public static final int DEFAULT_MAX_FILTER_DEPTH = 50;
  /** Most elements (and, or, not, items) in one filter: {@value}. */
  public static final int DEFAULT_MAX_FILTER_ELEMENTS = 1000;
  /** Most parts of one substrings item: {@value}. */
  public static final int DEFAULT_MAX_SUBSTRING_PARTS = 16;
  /** Most bytes of assertion values in one filter: {@value}. */
  public static final int DEFAULT_MAX_FILTER_VALUE_BYTES = 64 * 1024;
  /** Longest OID: {@value} bytes. */
  public static final int DEFAULT_MAX_OID_BYTES = 4096;
  /** Most requests in flight on one connection: {@value}. */
  public static final int DEFAULT_MAX_PENDING_REQUESTS = 1000;
  /** Most referrals followed one after another: {@value} (OpenLDAP's libldap also uses 5). */
  public static final int DEFAULT_MAX_REFERRAL_HOPS = 5;
  /** The defaults. */
  public static final LdapLimits DEFAULTS = builder().build();

  private final BerLimits ber;
  private final int maxFilterDepth;
  private final int maxFilterElements;
  private final int maxSubstringParts;
  private final int maxFilterValueBytes;
  private final int maxOidBytes;
  private final int maxPendingRequests;
  private final int maxReferralHops;

  private LdapLimits(Builder b) {
    this.ber = b.ber;
    this.maxFilterDepth = b.maxFilterDepth;
    this.maxFilterElements = b.maxFilterElements;
    this.maxSubstringParts = b.maxSubstringParts;
    this.maxFilterValueBytes = b.maxFilterValueBytes;
    this.maxOidBytes = b.maxOidBytes;
    this.maxPendingRequests = b.maxPendingRequests;
    this.maxReferralHops = b.maxReferralHops;
  }

  /** Returns a builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns a builder holding these limits. */
  public Builder toBuilder() {
    return builder().ber(ber).maxFilterDepth(maxFilterDepth)
        .maxFilterElements(maxFilterElements).maxSubstringParts(maxSubstringParts)
        .maxFilterValueBytes(maxFilterValueBytes).maxOidBytes(maxOidBytes)
        .maxPendingRequests(maxPendingRequests).maxReferralHops(maxReferralHops);
  }

  /** The BER layer's limits. */
  public BerLimits ber() {
    return ber;
  }

  /** Deepest nesting of and/or/not filters (a simple filter is depth 1). */
  public int maxFilterDepth() {
    return maxFilterDepth;
  }

  /**
   * Most elements of one filter: each and, or and not, and each item, counts one. A server
   * evaluates every element against every entry a search examines, so this bounds the cost of
   * one entry (and the width of any and or or).
   */
  public int maxFilterElements() {
    return maxFilterElements;
  }

  /** Most initial, any and final parts of one substrings item. */
  public int maxSubstringParts() {
    return maxSubstringParts;
  }

  /** Most bytes of assertion values (substring parts included) in one filter, together. */
  public int maxFilterValueBytes() {
    return maxFilterValueBytes;
  }

  /** Longest OID in bytes. */
  public int maxOidBytes() {
    return maxOidBytes;
  }

  /** Most requests in flight on one connection. */
  public int maxPendingRequests() {
    return maxPendingRequests;
  }

  /**
   * Most referrals followed in a chain: a referral whose target answers with another referral is
   * one more hop. Only used when {@link LdapOptions#followReferrals()} is on.
   */
  public int maxReferralHops() {
    return maxReferralHops;
  }

  /** Builds {@link LdapLimits}; every number must be at least 1. */
  public static final class Builder {
    private BerLimits ber = BerLimits.DEFAULTS;
    private int maxFilterDepth = DEFAULT_MAX_FILTER_DEPTH;
    private int maxFilterElements = DEFAULT_MAX_FILTER_ELEMENTS;
    private int maxSubstringParts = DEFAULT_MAX_SUBSTRING_PARTS;
    private int maxFilterValueBytes = DEFAULT_MAX_FILTER_VALUE_BYTES;
    private int maxOidBytes = DEFAULT_MAX_OID_BYTES;
    private int maxPendingRequests = DEFAULT_MAX_PENDING_REQUESTS;
    private int maxReferralHops = DEFAULT_MAX_REFERRAL_HOPS;

    private Builder() {}

    public Builder ber(BerLimits ber) {
      this.ber = Objects.requireNonNull(ber, "ber");
      return this;
    }

    public Builder maxFilterDepth(int maxFilterDepth) {
      this.maxFilterDepth = positive("maxFilterDepth", maxFilterDepth);
      return this;
    }

    public Builder maxFilterElements(int maxFilterElements) {
      this.maxFilterElements = positive("maxFilterElements", maxFilterElements);
      return this;
    }

    public Builder maxSubstringParts(int maxSubstringParts) {
      this.maxSubstringParts = positive("maxSubstringParts", maxSubstringParts);
      return this;
    }

    public Builder maxFilterValueBytes(int maxFilterValueBytes) {
      this.maxFilterValueBytes = positive("maxFilterValueBytes", maxFilterValueBytes);
      return this;
    }

    public Builder maxOidBytes(int maxOidBytes) {
      this.maxOidBytes = positive("maxOidBytes", maxOidBytes);
      return this;
    }

    public Builder maxPendingRequests(int maxPendingRequests) {
      this.maxPendingRequests = positive("maxPendingRequests", maxPendingRequests);
      return this;
    }

    public Builder maxReferralHops(int maxReferralHops) {
      this.maxReferralHops = positive("maxReferralHops", maxReferralHops);
      return this;
    }

    public LdapLimits build() {
      return new LdapLimits(this);
    }

    private static int positive(String name, int value) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " < 1: " + value);
      }
      return value;
    }
  }
}
