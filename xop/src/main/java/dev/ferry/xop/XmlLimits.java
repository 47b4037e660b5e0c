package dev.ferry.xop;

/**
 * Limits on XML that Ferry parses; immutable, with the defaults CXF uses. DTDs, processing
 * instructions in SOAP, and entity expansion are refused outright and have no limit to raise.
 *
 * <table>
 *   <caption>Limits and their defaults</caption>
 *   <tr><th>limit</th><th>default</th></tr>
 *   <tr><td>{@code maxDepth}</td><td>{@value #DEFAULT_MAX_DEPTH}</td></tr>
 *   <tr><td>{@code maxAttributesPerElement}</td>
 *       <td>{@value #DEFAULT_MAX_ATTRIBUTES_PER_ELEMENT}</td></tr>
 *   <tr><td>{@code maxAttributeBytes}</td><td>{@value #DEFAULT_MAX_ATTRIBUTE_BYTES}</td></tr>
 *   <tr><td>{@code maxTextBytes}</td><td>{@value #DEFAULT_MAX_TEXT_BYTES}</td></tr>
 *   <tr><td>{@code maxChildrenPerElement}</td>
 *       <td>{@value #DEFAULT_MAX_CHILDREN_PER_ELEMENT}</td></tr>
 *   <tr><td>{@code maxElements}</td><td>{@value #DEFAULT_MAX_ELEMENTS}</td></tr>
 * </table>
 */
public final class XmlLimits {
  public static final int DEFAULT_MAX_DEPTH = 100;
  public static final int DEFAULT_MAX_ATTRIBUTES_PER_ELEMENT = 500;
  public static final int DEFAULT_MAX_ATTRIBUTE_BYTES = 64 * 1024;
  public static final int DEFAULT_MAX_TEXT_BYTES = 128 * 1024 * 1024;
  public static final int DEFAULT_MAX_CHILDREN_PER_ELEMENT = 50_000;
  public static final long DEFAULT_MAX_ELEMENTS = 1_000_000;

  public static final XmlLimits DEFAULTS = builder().build();

  private final int maxDepth;
  private final int maxAttributesPerElement;
  private final int maxAttributeBytes;
  private final int maxTextBytes;
  private final int maxChildrenPerElement;
  private final long maxElements;

  private XmlLimits(Builder b) {
    maxDepth = b.maxDepth;
    maxAttributesPerElement = b.maxAttributesPerElement;
    maxAttributeBytes = b.maxAttributeBytes;
    maxTextBytes = b.maxTextBytes;
    maxChildrenPerElement = b.maxChildrenPerElement;
    maxElements = b.maxElements;
  }

  public static Builder builder() {
    return new Builder();
  }

  public int maxDepth() {
    return maxDepth;
  }

  public int maxAttributesPerElement() {
    return maxAttributesPerElement;
  }

  public int maxAttributeBytes() {
    return maxAttributeBytes;
  }

  public int maxTextBytes() {
    return maxTextBytes;
  }

  public int maxChildrenPerElement() {
    return maxChildrenPerElement;
  }

  public long maxElements() {
    return maxElements;
  }

  /** Builds {@link XmlLimits}; every value must be at least 1. */
  public static final class Builder {
    private int maxDepth = DEFAULT_MAX_DEPTH;
    private int maxAttributesPerElement = DEFAULT_MAX_ATTRIBUTES_PER_ELEMENT;
    private int maxAttributeBytes = DEFAULT_MAX_ATTRIBUTE_BYTES;
    private int maxTextBytes = DEFAULT_MAX_TEXT_BYTES;
    private int maxChildrenPerElement = DEFAULT_MAX_CHILDREN_PER_ELEMENT;
    private long maxElements = DEFAULT_MAX_ELEMENTS;

    private Builder() {}

    public Builder maxDepth(int v) {
      maxDepth = (int) positive("maxDepth", v);
      return this;
    }

    public Builder maxAttributesPerElement(int v) {
      maxAttributesPerElement = (int) positive("maxAttributesPerElement", v);
      return this;
    }

    public Builder maxAttributeBytes(int v) {
      maxAttributeBytes = (int) positive("maxAttributeBytes", v);
      return this;
    }

    public Builder maxTextBytes(int v) {
      maxTextBytes = (int) positive("maxTextBytes", v);
      return this;
    }

    public Builder maxChildrenPerElement(int v) {
      maxChildrenPerElement = (int) positive("maxChildrenPerElement", v);
      return this;
    }

    public Builder maxElements(long v) {
      maxElements = positive("maxElements", v);
      return this;
    }

    public XmlLimits build() {
      return new XmlLimits(this);
    }

    static long positive(String name, long v) {
      if (v < 1) {
        throw new IllegalArgumentException(name + " < 1: " + v);
      }
      return v;
    }
  }
}
