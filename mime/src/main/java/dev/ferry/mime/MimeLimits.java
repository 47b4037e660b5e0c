package dev.ferry.mime;

/**
 * The limits a MIME parser enforces; immutable, with safe finite defaults.
 *
 * <table>
 *   <caption>Limits and their defaults</caption>
 *   <tr><th>limit</th><th>default</th><th>what it bounds</th></tr>
 *   <tr><td>{@code maxHeaderBytes}</td><td>{@value #DEFAULT_MAX_HEADER_BYTES}</td>
 *       <td>bytes of one part's header section, including transport padding</td></tr>
 *   <tr><td>{@code maxHeaderCount}</td><td>{@value #DEFAULT_MAX_HEADER_COUNT}</td>
 *       <td>header fields in one part</td></tr>
 *   <tr><td>{@code maxParts}</td><td>{@value #DEFAULT_MAX_PARTS}</td>
 *       <td>parts in one message</td></tr>
 *   <tr><td>{@code maxPartBytes}</td><td>{@value #DEFAULT_MAX_PART_BYTES}</td>
 *       <td>body bytes of one part, as sent (before decoding)</td></tr>
 *   <tr><td>{@code maxMessageBytes}</td><td>{@value #DEFAULT_MAX_MESSAGE_BYTES}</td>
 *       <td>bytes of the whole multipart body</td></tr>
 *   <tr><td>{@code maxPreambleBytes}</td><td>{@value #DEFAULT_MAX_PREAMBLE_BYTES}</td>
 *       <td>bytes before the first delimiter</td></tr>
 *   <tr><td>{@code maxEpilogueBytes}</td><td>{@value #DEFAULT_MAX_EPILOGUE_BYTES}</td>
 *       <td>bytes after the closing delimiter that the parser is fed</td></tr>
 *   <tr><td>{@code maxBoundaryLength}</td><td>{@value #DEFAULT_MAX_BOUNDARY_LENGTH}</td>
 *       <td>characters of the boundary (RFC 2046: 1 to 70)</td></tr>
 *   <tr><td>{@code maxHeaderWarnings}</td><td>{@value #DEFAULT_MAX_HEADER_WARNINGS}</td>
 *       <td>malformed fields and parameters that lenient header parsing reads past in one
 *       header section, each kept as a {@link MimeWarning}</td></tr>
 * </table>
 *
 * <p>A violation is a {@link MimeException} whose {@code limitName()} is
 * {@code MimeLimits.<name>}. Memory use does not grow with {@code maxPartBytes} or
 * {@code maxMessageBytes}: bodies stream; only headers are held.
 */
public final class MimeLimits {
  public static final int DEFAULT_MAX_HEADER_BYTES = 8 * 1024;
  public static final int DEFAULT_MAX_HEADER_COUNT = 100;
  public static final int DEFAULT_MAX_PARTS = 1_000;
  public static final long DEFAULT_MAX_PART_BYTES = 256L * 1024 * 1024;
  public static final long DEFAULT_MAX_MESSAGE_BYTES = 1024L * 1024 * 1024;
  public static final int DEFAULT_MAX_PREAMBLE_BYTES = 64 * 1024;
  public static final int DEFAULT_MAX_EPILOGUE_BYTES = 64 * 1024;
  public static final int DEFAULT_MAX_BOUNDARY_LENGTH = 70;
  public static final int DEFAULT_MAX_HEADER_WARNINGS = 16;

  /** The defaults. */
  public static final MimeLimits DEFAULTS = builder().build();

  private final int maxHeaderBytes;
  private final int maxHeaderCount;
  private final int maxParts;
  private final long maxPartBytes;
  private final long maxMessageBytes;
  private final int maxPreambleBytes;
  private final int maxEpilogueBytes;
  private final int maxBoundaryLength;
  private final int maxHeaderWarnings;

  private MimeLimits(Builder b) {
    maxHeaderBytes = b.maxHeaderBytes;
    maxHeaderCount = b.maxHeaderCount;
    maxParts = b.maxParts;
    maxPartBytes = b.maxPartBytes;
    maxMessageBytes = b.maxMessageBytes;
    maxPreambleBytes = b.maxPreambleBytes;
    maxEpilogueBytes = b.maxEpilogueBytes;
    maxBoundaryLength = b.maxBoundaryLength;
    maxHeaderWarnings = b.maxHeaderWarnings;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Returns a builder holding these values. */
  public Builder toBuilder() {
    return new Builder().maxHeaderBytes(maxHeaderBytes).maxHeaderCount(maxHeaderCount)
        .maxParts(maxParts).maxPartBytes(maxPartBytes).maxMessageBytes(maxMessageBytes)
        .maxPreambleBytes(maxPreambleBytes).maxEpilogueBytes(maxEpilogueBytes)
        .maxBoundaryLength(maxBoundaryLength).maxHeaderWarnings(maxHeaderWarnings);
  }

  public int maxHeaderBytes() {
    return maxHeaderBytes;
  }

  public int maxHeaderCount() {
    return maxHeaderCount;
  }

  public int maxParts() {
    return maxParts;
  }

  public long maxPartBytes() {
    return maxPartBytes;
  }

  public long maxMessageBytes() {
    return maxMessageBytes;
  }

  public int maxPreambleBytes() {
    return maxPreambleBytes;
  }

  public int maxEpilogueBytes() {
    return maxEpilogueBytes;
  }

  public int maxBoundaryLength() {
    return maxBoundaryLength;
  }

  public int maxHeaderWarnings() {
    return maxHeaderWarnings;
  }

  @Override
  public String toString() {
    return "MimeLimits[maxHeaderBytes=" + maxHeaderBytes + ", maxHeaderCount=" + maxHeaderCount
        + ", maxParts=" + maxParts + ", maxPartBytes=" + maxPartBytes + ", maxMessageBytes="
        + maxMessageBytes + ", maxPreambleBytes=" + maxPreambleBytes + ", maxEpilogueBytes="
        + maxEpilogueBytes + ", maxBoundaryLength=" + maxBoundaryLength
        + ", maxHeaderWarnings=" + maxHeaderWarnings + "]";
  }

  /** Builds {@link MimeLimits}; every value must be at least 1. */
  public static final class Builder {
    private int maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES;
    private int maxHeaderCount = DEFAULT_MAX_HEADER_COUNT;
    private int maxParts = DEFAULT_MAX_PARTS;
    private long maxPartBytes = DEFAULT_MAX_PART_BYTES;
    private long maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private int maxPreambleBytes = DEFAULT_MAX_PREAMBLE_BYTES;
    private int maxEpilogueBytes = DEFAULT_MAX_EPILOGUE_BYTES;
    private int maxBoundaryLength = DEFAULT_MAX_BOUNDARY_LENGTH;
    private int maxHeaderWarnings = DEFAULT_MAX_HEADER_WARNINGS;

    private Builder() {}

    public Builder maxHeaderBytes(int value) {
      maxHeaderBytes = (int) positive("maxHeaderBytes", value);
      return this;
    }

    public Builder maxHeaderCount(int value) {
      maxHeaderCount = (int) positive("maxHeaderCount", value);
      return this;
    }

    public Builder maxParts(int value) {
      maxParts = (int) positive("maxParts", value);
      return this;
    }

    public Builder maxPartBytes(long value) {
      maxPartBytes = positive("maxPartBytes", value);
      return this;
    }

    public Builder maxMessageBytes(long value) {
      maxMessageBytes = positive("maxMessageBytes", value);
      return this;
    }

    public Builder maxPreambleBytes(int value) {
      maxPreambleBytes = (int) positive("maxPreambleBytes", value);
      return this;
    }

    public Builder maxEpilogueBytes(int value) {
      maxEpilogueBytes = (int) positive("maxEpilogueBytes", value);
      return this;
    }

    public Builder maxBoundaryLength(int value) {
      maxBoundaryLength = (int) positive("maxBoundaryLength", value);
      return this;
    }

    public Builder maxHeaderWarnings(int value) {
      maxHeaderWarnings = (int) positive("maxHeaderWarnings", value);
      return this;
    }

    public MimeLimits build() {
      return new MimeLimits(this);
    }

    private static long positive(String name, long value) {
      if (value < 1) {
        throw new IllegalArgumentException(name + " < 1: " + value);
      }
      return value;
    }
  }
}
