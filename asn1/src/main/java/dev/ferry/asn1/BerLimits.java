package dev.ferry.asn1;

/**
 * Size and depth limits for BER input; immutable, with safe finite defaults.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>default</th><th>what it bounds</th></tr>
 *   <tr><td>{@code maxPduBytes}</td><td>{@value #DEFAULT_MAX_PDU_BYTES}</td>
 *       <td>a whole top-level element, header included</td></tr>
 *   <tr><td>{@code maxElementBytes}</td><td>{@value #DEFAULT_MAX_ELEMENT_BYTES}</td>
 *       <td>the declared length of one primitive element (a value)</td></tr>
 *   <tr><td>{@code maxDepth}</td><td>{@value #DEFAULT_MAX_DEPTH}</td>
 *       <td>nesting of constructed elements</td></tr>
 * </table>
 *
 * <p>Declared lengths are checked against these limits, and against the bytes actually present,
 * before anything is allocated for them.
 */
public final class BerLimits {
  /** Largest top-level element: {@value} bytes (8 MiB, as Apache Directory). */
  public static final int DEFAULT_MAX_PDU_BYTES = 8 * 1024 * 1024;
  /** Largest primitive value: {@value} bytes (4 MiB). */
  public static final int DEFAULT_MAX_ELEMENT_BYTES = 4 * 1024 * 1024;
  /** Deepest nesting of constructed elements: {@value}, far beyond what LDAP or X.509 nest. */
  public static final int DEFAULT_MAX_DEPTH = 64;
  /** The defaults. */
  public static final BerLimits DEFAULTS = builder().build();

  private final int maxPduBytes;
  private final int maxElementBytes;
  private final int maxDepth;

  private BerLimits(Builder b) {
    this.maxPduBytes = b.maxPduBytes;
    this.maxElementBytes = b.maxElementBytes;
    this.maxDepth = b.maxDepth;
  }

  /** Returns a builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns a builder holding these limits. */
  public Builder toBuilder() {
    return new Builder().maxPduBytes(maxPduBytes).maxElementBytes(maxElementBytes)
        .maxDepth(maxDepth);
  }

  /** Largest top-level element in bytes, header included. */
  public int maxPduBytes() {
    return maxPduBytes;
  }

  /** Largest declared length of a primitive element. */
  public int maxElementBytes() {
    return maxElementBytes;
  }

  /** Deepest nesting of constructed elements (a top-level sequence is depth 1). */
  public int maxDepth() {
    return maxDepth;
  }

  void checkPdu(long bytes, long byteOffset) throws BerException {
    if (bytes > maxPduBytes) {
      throw BerException.limitExceeded("BerLimits.maxPduBytes", maxPduBytes, bytes, byteOffset,
          null);
    }
  }

  void checkElement(long bytes, long byteOffset) throws BerException {
    if (bytes > maxElementBytes) {
      throw BerException.limitExceeded("BerLimits.maxElementBytes", maxElementBytes, bytes,
          byteOffset, null);
    }
  }

  void checkDepth(int depth, long byteOffset) throws BerException {
    if (depth > maxDepth) {
      throw BerException.limitExceeded("BerLimits.maxDepth", maxDepth, depth, byteOffset, null);
    }
  }

  @Override
  public String toString() {
    return "BerLimits[maxPduBytes=" + maxPduBytes + " maxElementBytes=" + maxElementBytes
        + " maxDepth=" + maxDepth + "]";
  }

  /** Builds {@link BerLimits}; every value must be at least 1. */
  public static final class Builder {
    private int maxPduBytes = DEFAULT_MAX_PDU_BYTES;
    private int maxElementBytes = DEFAULT_MAX_ELEMENT_BYTES;
    private int maxDepth = DEFAULT_MAX_DEPTH;

    private Builder() {}

    /** Sets the largest top-level element in bytes. */
    public Builder maxPduBytes(int maxPduBytes) {
      this.maxPduBytes = positive("maxPduBytes", maxPduBytes);
      return this;
    }

    /** Sets the largest declared length of a primitive element. */
    public Builder maxElementBytes(int maxElementBytes) {
      this.maxElementBytes = positive("maxElementBytes", maxElementBytes);
      return this;
    }

    /** Sets the deepest nesting of constructed elements. */
    public Builder maxDepth(int maxDepth) {
      this.maxDepth = positive("maxDepth", maxDepth);
      return this;
    }

    /** Returns the limits. */
    public BerLimits build() {
      return new BerLimits(this);
    }

    private static int positive(String name, int value) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " < 1: " + value);
      }
      return value;
    }
  }
}
