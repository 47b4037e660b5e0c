package dev.ferry.ldap;

/**
 * Limits for reading LDIF; immutable, with safe finite defaults.
 *
 * <table>
 *   <caption>Limits</caption>
 *   <tr><th>limit</th><th>default</th><th>what it bounds</th></tr>
 *   <tr><td>{@code maxLineBytes}</td><td>{@value #DEFAULT_MAX_LINE_BYTES}</td>
 *       <td>one logical line (folded lines joined), and a value read from a file URL</td></tr>
 *   <tr><td>{@code maxRecordBytes}</td><td>{@value #DEFAULT_MAX_RECORD_BYTES}</td>
 *       <td>the logical lines of one record together, each counted with 64 bytes more for the
 *       objects that hold it</td></tr>
 * </table>
 *
 * <p>A violation is an {@link LdifException} whose {@code limitName()} is
 * {@code LdifLimits.<name>}. A reader holds at most one record, so these bound its memory.
 */
public final class LdifLimits {
  /** Longest logical line: {@value} bytes (a 3 MiB value in base64). */
  public static final int DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;
  /** Largest record: {@value} bytes. */
  public static final int DEFAULT_MAX_RECORD_BYTES = 16 * 1024 * 1024;
  /** The defaults. */
  public static final LdifLimits DEFAULTS = builder().build();

  private final int maxLineBytes;
  private final int maxRecordBytes;

  private LdifLimits(Builder b) {
    this.maxLineBytes = b.maxLineBytes;
    this.maxRecordBytes = b.maxRecordBytes;
  }

  /** Returns a builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns a builder holding these limits. */
  public Builder toBuilder() {
    return builder().maxLineBytes(maxLineBytes).maxRecordBytes(maxRecordBytes);
  }

  /** Longest logical line in bytes, and longest value read from a URL. */
  public int maxLineBytes() {
    return maxLineBytes;
  }

  /** Largest record in bytes: its logical lines, each with 64 bytes of bookkeeping. */
  public int maxRecordBytes() {
    return maxRecordBytes;
  }

  @Override
  public String toString() {
    return "LdifLimits[maxLineBytes=" + maxLineBytes + ", maxRecordBytes=" + maxRecordBytes
        + "]";
  }

  /** Builds {@link LdifLimits}; every value must be at least 1. */
  public static final class Builder {
    private int maxLineBytes = DEFAULT_MAX_LINE_BYTES;
    private int maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;

    private Builder() {}

    public Builder maxLineBytes(int value) {
      maxLineBytes = positive("maxLineBytes", value);
      return this;
    }

    public Builder maxRecordBytes(int value) {
      maxRecordBytes = positive("maxRecordBytes", value);
      return this;
    }

    public LdifLimits build() {
      return new LdifLimits(this);
    }

    private static int positive(String name, int value) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " < 1: " + value);
      }
      return value;
    }
  }
}
