package dev.ferry.jaxws.internal;

import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.wsaddressing.W3CEndpointReference;
import java.io.IOException;
import java.util.List;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamSource;
import org.w3c.dom.Element;

/** WS-Addressing 1.0 endpoint references: an address and reference parameters. */
public final class EndpointReferences {
  private static final String WSA = "http://www.w3.org/2005/08/addressing";

  private EndpointReferences() {}

  /** An endpoint reference to {@code address} carrying {@code referenceParameters}. */
  public static W3CEndpointReference create(String address, List<Element> referenceParameters) {
    if (address == null) {
      throw new IllegalStateException("an endpoint reference needs an address");
    }
    StringBuilder xml = new StringBuilder("<wsa:EndpointReference xmlns:wsa=\"").append(WSA)
        .append("\"><wsa:Address>").append(address.replace("&", "&amp;").replace("<", "&lt;"))
        .append("</wsa:Address>");
    if (referenceParameters != null && !referenceParameters.isEmpty()) {
      xml.append("<wsa:ReferenceParameters>");
      for (Element e : referenceParameters) {
        try {
          xml.append(Xml.bytes(new DOMSource(e)).utf8());
        } catch (IOException x) {
          throw new WebServiceException(x);
        }
      }
      xml.append("</wsa:ReferenceParameters>");
    }
    xml.append("</wsa:EndpointReference>");
    return new W3CEndpointReference(new StreamSource(new java.io.StringReader(xml.toString())));
  }
}
