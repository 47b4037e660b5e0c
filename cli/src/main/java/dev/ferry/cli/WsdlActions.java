package dev.ferry.cli;

import dev.ferry.xop.XopCodec;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The SOAPAction of each operation a WSDL 1.1 binds ({@code soap:operation} or
 * {@code soap12:operation}), read from a file or a URL with the XML rules Ferry reads everything
 * with (no DTD, no external entity).
 */
final class WsdlActions {
  private static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";

  private WsdlActions() {}

  /** Reads {@code location}: a path, or an http(s) URL (such as a service's {@code ?wsdl}). */
  static Map<String, String> read(String location) throws IOException {
    URI uri = location.matches("(?i)https?://.*") ? URI.create(location) : null;
    try (InputStream in = uri != null ? uri.toURL().openStream()
        : Files.newInputStream(Path.of(location))) {
      return read(in);
    } catch (XMLStreamException e) {
      throw new IOException(location + " is not a WSDL Ferry can read: " + e.getMessage(), e);
    }
  }

  private static Map<String, String> read(InputStream in) throws XMLStreamException {
    XMLStreamReader r = XopCodec.create().newXmlReader(in, null);
    Map<String, String> actions = new LinkedHashMap<>();
    String operation = null;
    int depth = 0;
    int operationDepth = -1;
    boolean inBinding = false;
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.START_ELEMENT) {
        depth++;
        String name = r.getLocalName();
        if (WSDL_NS.equals(r.getNamespaceURI()) && name.equals("binding")) {
          inBinding = true;
        } else if (inBinding && WSDL_NS.equals(r.getNamespaceURI())
            && name.equals("operation")) {
          operation = r.getAttributeValue(null, "name");
          operationDepth = depth;
        } else if (operation != null && depth == operationDepth + 1
            && name.equals("operation")) {
          String action = r.getAttributeValue(null, "soapAction");
          actions.putIfAbsent(operation, action == null ? "" : action);
        }
      } else if (e == XMLStreamConstants.END_ELEMENT) {
        if (depth == operationDepth) {
          operation = null;
          operationDepth = -1;
        }
        if (WSDL_NS.equals(r.getNamespaceURI()) && r.getLocalName().equals("binding")) {
          inBinding = false;
        }
        depth--;
      }
    }
    return actions;
  }
}
