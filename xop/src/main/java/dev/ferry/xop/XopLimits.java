package dev.ferry.xop;

import dev.ferry.mime.MimeLimits;
import java.util.Objects;

/**
 * Limits of the XOP layer: the MIME limits of the package, the XML limits of the root part, and
 * what this layer adds itself.
 *
 * <table>
 *   <caption>Limits and their defaults</caption>
 *   <tr><th>limit</th><th>default</th><th>what it bounds</th></tr>
 *   <tr><td>{@code mime}</td><td>{@link MimeLimits#DEFAULTS}</td>
 *       <td>the multipart package</td></tr>
 *   <tr><td>{@code xml}</td><td>{@link XmlLimits#DEFAULTS}</td><td>the root part's XML</td></tr>
 *   <tr><td>{@code maxRootBytes}</td><td>{@value #DEFAULT_MAX_ROOT_BYTES}</td>
 *       <td>the root part, which is held in memory</td></tr>
 *   <tr><td>{@code maxHeldRootBytes}</td><td>{@value #DEFAULT_MAX_HELD_ROOT_BYTES}</td>
 *       <td>the roots held at once by all the packages a codec read and did not close</td></tr>
 *   <tr><td>{@code attachmentMemoryBytes}</td><td>{@value #DEFAULT_ATTACHMENT_MEMORY_BYTES}</td>
 *       <td>bytes of an attachment kept in memory before it spools to a private temp file</td></tr>
 * </table>
 */
public final class XopLimits {
  /** 64 MiB: a 12 MiB blob as inline base64 (16.8 MB of envelope), as CXF takes by default. */
  public static final int DEFAULT_MAX_ROOT_BYTES = 64 * 1024 * 1024;
  /** 256 MiB: four of the largest roots at once; more wait for none, they are refused. */
  public static final long DEFAULT_MAX_HELD_ROOT_BYTES = 256L * 1024 * 1024;
  public static final int DEFAULT_ATTACHMENT_MEMORY_BYTES = 256 * 1024;

  public static final XopLimits DEFAULTS = builder().build();

  private final MimeLimits mime;
  private final XmlLimits xml;
  private final int maxRootBytes;
  private final long maxHeldRootBytes;
  private final int attachmentMemoryBytes;

  private XopLimits(Builder b) {
    mime = b.mime;
    xml = b.xml;
    maxRootBytes = b.maxRootBytes;
    maxHeldRootBytes = b.maxHeldRootBytes;
    attachmentMemoryBytes = b.attachmentMemoryBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  public MimeLimits mime() {
    return mime;
  }

  public XmlLimits xml() {
    return xml;
  }

  public int maxRootBytes() {
    return maxRootBytes;
  }

  /**
   * Bytes of root parts held at once by the packages one codec read and has not seen closed:
   * a root that would go past it is refused while it is read, so that many large envelopes at
   * once cannot take the heap (a server or broker shares one codec across its requests).
   */
  public long maxHeldRootBytes() {
    return maxHeldRootBytes;
  }

  public int attachmentMemoryBytes() {
    return attachmentMemoryBytes;
  }

  /** Builds {@link XopLimits}. */
  public static final class Builder {
    private MimeLimits mime = MimeLimits.DEFAULTS;
    private XmlLimits xml = XmlLimits.DEFAULTS;
    private int maxRootBytes = DEFAULT_MAX_ROOT_BYTES;
    private long maxHeldRootBytes = DEFAULT_MAX_HELD_ROOT_BYTES;
    private int attachmentMemoryBytes = DEFAULT_ATTACHMENT_MEMORY_BYTES;

    private Builder() {}

    public Builder mime(MimeLimits mime) {
      this.mime = Objects.requireNonNull(mime);
      return this;
    }

    public Builder xml(XmlLimits xml) {
      this.xml = Objects.requireNonNull(xml);
      return this;
    }

    public Builder maxRootBytes(int v) {
      maxRootBytes = (int) XmlLimits.Builder.positive("maxRootBytes", v);
      return this;
    }

    public Builder maxHeldRootBytes(long v) {
      maxHeldRootBytes = XmlLimits.Builder.positive("maxHeldRootBytes", v);
      return this;
    }

    /** Bytes of an attachment kept in memory before spooling to a file; 0 spools at once. */
    public Builder attachmentMemoryBytes(int v) {
      if (v < 0) {
        throw new IllegalArgumentException("attachmentMemoryBytes < 0: " + v);
      }
      attachmentMemoryBytes = v;
      return this;
    }

    public XopLimits build() {
      return new XopLimits(this);
    }
  }
}
