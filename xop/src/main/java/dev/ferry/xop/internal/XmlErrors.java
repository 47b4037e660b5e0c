package dev.ferry.xop.internal;

import dev.ferry.xop.XopException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamException;

/**
 * Turns Woodstox's failures into Ferry's exceptions. Woodstox reports a hit limit as a plain
 * {@link XMLStreamException} whose message names it; this is the one place that reads those
 * messages, so that everything above sees a limit violation with the {@code XmlLimits} name, its
 * value and the offset (a Sender fault that names the limit, not "malformed XML").
 */
public final class XmlErrors {
  /** Woodstox's message start for each limit, and the {@code XmlLimits} name it stands for. */
  private static final String[][] LIMITS = {
      {"Maximum Element Depth limit", "XmlLimits.maxDepth"},
      {"Attribute limit", "XmlLimits.maxAttributesPerElement"},
      {"Maximum attribute size limit", "XmlLimits.maxAttributeBytes"},
      {"Text size limit", "XmlLimits.maxTextBytes"},
      {"Maximum Number of Child Elements limit", "XmlLimits.maxChildrenPerElement"},
      {"Maximum Element Count limit", "XmlLimits.maxElements"},
  };
  private static final Pattern VALUE = Pattern.compile("\\((\\d+)\\)");

  private XmlErrors() {}

  /**
   * Returns the exception to report for {@code e}: the {@link XopException} it carries, a limit
   * violation naming the limit, or a malformed-XML error with the parser's words and location.
   * Woodstox gives a hit limit no location: {@code fallback} (the reader's, or null) stands in.
   */
  public static XopException translate(XMLStreamException e, String context, Location fallback) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof XopException x) {
        return x;
      }
      if (t instanceof XMLStreamException s && s.getNestedException() instanceof XopException x) {
        return x;
      }
    }
    Location l = e.getLocation() != null ? e.getLocation() : fallback;
    long offset = l == null || l.getCharacterOffset() < 0 ? -1 : l.getCharacterOffset();
    String reason = reason(e);
    for (String[] limit : LIMITS) {
      if (reason.startsWith(limit[0])) {
        Matcher m = VALUE.matcher(reason);
        long value = m.find() ? Long.parseLong(m.group(1)) : 0;
        return XopException.limitExceeded(limit[1], value, value + 1, offset, context);
      }
    }
    return new XopException("malformed or refused XML: " + reason, offset, context, e);
  }

  /** Woodstox's message without the location it prefixes. */
  private static String reason(XMLStreamException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    int at = message.indexOf("\nMessage: ");
    return (at >= 0 ? message.substring(at + 10) : message).strip();
  }
}
