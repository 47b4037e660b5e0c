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
 *   <tr><td>{@code attachmentMemoryBytes}</td><td>{@value #DEFAULT_ATTACHMENT_MEMORY_BYTES}</td>
 *       <td>bytes of an attachment kept in memory before it spools to a private temp file</td></tr>
 * </table>
 */
public final class XopLimits {
  public static final int DEFAULT_MAX_ROOT_BYTES = 16 * 1024 * 1024;
  public static final int DEFAULT_ATTACHMENT_MEMORY_BYTES = 256 * 1024;

  public static final XopLimits DEFAULTS = builder().build();

  private final MimeLimits mime;
  private final XmlLimits xml;
  private final int maxRootBytes;
  private final int attachmentMemoryBytes;

  private XopLimits(Builder b) {
    mime = b.mime;
    xml = b.xml;
    maxRootBytes = b.maxRootBytes;
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

  public int attachmentMemoryBytes() {
    return attachmentMemoryBytes;
  }

  /** Builds {@link XopLimits}. */
  public static final class Builder {
    private MimeLimits mime = MimeLimits.DEFAULTS;
    private XmlLimits xml = XmlLimits.DEFAULTS;
    private int maxRootBytes = DEFAULT_MAX_ROOT_BYTES;
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
