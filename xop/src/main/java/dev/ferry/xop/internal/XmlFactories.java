package dev.ferry.xop.internal;

import com.ctc.wstx.api.WstxInputProperties;
import com.ctc.wstx.stax.WstxInputFactory;
import com.ctc.wstx.stax.WstxOutputFactory;
import dev.ferry.xop.XmlLimits;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLOutputFactory;
import org.codehaus.stax2.XMLOutputFactory2;

/**
 * Builds the StAX factories Ferry uses: Woodstox, named directly (no service look-up, so the
 * choice is the same in every class loader), secure, and bounded by {@link XmlLimits}. Factories
 * are expensive; their owners build them once and share them across messages (they are
 * thread-safe once configured).
 */
public final class XmlFactories {
  private XmlFactories() {}

  /** Returns an input factory: namespace aware, no DTDs, no external entities, limits set. */
  public static XMLInputFactory input(XmlLimits limits) {
    return input(limits, 0);
  }

  /**
   * As {@link #input(XmlLimits)}, whose readers take their input {@code bufferChars} at a time
   * (0: Woodstox's 4,000): each reader allocates a char and a byte buffer of that length, 12 KB
   * at the default, several times what a small envelope holds.
   */
  public static XMLInputFactory input(XmlLimits limits, int bufferChars) {
    XMLInputFactory f = new WstxInputFactory();
    if (bufferChars > 0) {
      f.setProperty(WstxInputProperties.P_INPUT_BUFFER_LENGTH, bufferChars);
    }
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_COALESCING, false);
    f.setProperty(XMLInputFactory.IS_VALIDATING, false);
    f.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, limits.maxDepth());
    f.setProperty(WstxInputProperties.P_MAX_ATTRIBUTES_PER_ELEMENT,
        limits.maxAttributesPerElement());
    f.setProperty(WstxInputProperties.P_MAX_ATTRIBUTE_SIZE, limits.maxAttributeBytes());
    f.setProperty(WstxInputProperties.P_MAX_TEXT_LENGTH, limits.maxTextBytes());
    f.setProperty(WstxInputProperties.P_MAX_CHILDREN_PER_ELEMENT,
        limits.maxChildrenPerElement());
    f.setProperty(WstxInputProperties.P_MAX_ELEMENT_COUNT, limits.maxElements());
    f.setXMLResolver((publicId, systemId, base, ns) -> {
      throw new javax.xml.stream.XMLStreamException("external entity refused: " + systemId);
    });
    return f;
  }

  /** Returns an output factory that repairs no namespaces (callers declare what they use). */
  public static XMLOutputFactory2 output() {
    XMLOutputFactory2 f = new WstxOutputFactory();
    f.setProperty(XMLOutputFactory.IS_REPAIRING_NAMESPACES, false);
    return f;
  }
}
