package dev.ferry.soap;

import dev.ferry.xop.XopLimits;
import java.util.Objects;

/**
 * Limits of the SOAP layer: the XOP limits (which hold the MIME and XML limits, and the envelope
 * size as {@link XopLimits#maxRootBytes()}) and the number of header blocks.
 *
 * <table>
 *   <caption>Limits and their defaults</caption>
 *   <tr><th>limit</th><th>default</th></tr>
 *   <tr><td>{@code xop}</td><td>{@link XopLimits#DEFAULTS}</td></tr>
 *   <tr><td>{@code maxHeaderBlocks}</td><td>{@value #DEFAULT_MAX_HEADER_BLOCKS}</td></tr>
 * </table>
 */
public final class SoapLimits {
  public static final int DEFAULT_MAX_HEADER_BLOCKS = 200;
  public static final SoapLimits DEFAULTS = builder().build();

  private final XopLimits xop;
  private final int maxHeaderBlocks;

  private SoapLimits(Builder b) {
    xop = b.xop;
    maxHeaderBlocks = b.maxHeaderBlocks;
  }

  public static Builder builder() {
    return new Builder();
  }

  public XopLimits xop() {
    return xop;
  }

  public int maxHeaderBlocks() {
    return maxHeaderBlocks;
  }

  /** Builds {@link SoapLimits}. */
  public static final class Builder {
    private XopLimits xop = XopLimits.DEFAULTS;
    private int maxHeaderBlocks = DEFAULT_MAX_HEADER_BLOCKS;

    private Builder() {}

    public Builder xop(XopLimits xop) {
      this.xop = Objects.requireNonNull(xop);
      return this;
    }

    public Builder maxHeaderBlocks(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("maxHeaderBlocks < 1: " + v);
      }
      maxHeaderBlocks = v;
      return this;
    }

    public SoapLimits build() {
      return new SoapLimits(this);
    }
  }
}
