package dev.ferry.jaxws.internal;

import dev.ferry.soap.SoapCodec;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.SOAPBinding;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * What a client needs from a WSDL: each port of a service, with its address and its binding's
 * SOAP version. Read once, with Ferry's XML rules (no DTD, limits), within
 * {@link Wsdls#MAX_WSDL_BYTES}. Imported WSDLs are not followed.
 */
final class WsdlPorts {
  private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
  private static final String SOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/";
  private static final String SOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/";

  /** One port: its address and binding ID. */
  record Port(QName name, String address, String bindingId) {}

  private WsdlPorts() {}

  /** The ports of {@code service} in the WSDL at {@code url}, in document order. */
  static Map<QName, Port> read(URL url, QName service, SoapCodec codec) {
    try {
      byte[] bytes = Wsdls.read(url).getBytes(StandardCharsets.UTF_8);
      XMLStreamReader r = codec.xop().newXmlReader(new java.io.ByteArrayInputStream(bytes),
          null);
      return ports(r, service);
    } catch (IOException | XMLStreamException e) {
      throw new WebServiceException("cannot read the WSDL at " + url + ": " + e.getMessage(), e);
    }
  }

  private static Map<QName, Port> ports(XMLStreamReader r, QName service)
      throws XMLStreamException {
    String tns = null;
    Map<String, String> bindingIds = new LinkedHashMap<>();
    Map<QName, QName> portBindings = new LinkedHashMap<>();
    Map<QName, String> addresses = new LinkedHashMap<>();
    String binding = null;
    boolean inService = false;
    QName port = null;
    while (r.hasNext()) {
      int e = r.next();
      if (e == XMLStreamConstants.END_ELEMENT && WSDL.equals(r.getNamespaceURI())
          && r.getLocalName().equals("service")) {
        inService = false;
      }
      if (e != XMLStreamConstants.START_ELEMENT) {
        continue;
      }
      String ns = r.getNamespaceURI();
      String local = r.getLocalName();
      if (WSDL.equals(ns) && local.equals("definitions")) {
        tns = r.getAttributeValue(null, "targetNamespace");
      } else if (WSDL.equals(ns) && local.equals("binding")) {
        binding = r.getAttributeValue(null, "name");
      } else if ((SOAP11.equals(ns) || SOAP12.equals(ns)) && local.equals("binding")
          && binding != null) {
        bindingIds.put(binding, SOAP11.equals(ns) ? SOAPBinding.SOAP11HTTP_BINDING
            : SOAPBinding.SOAP12HTTP_BINDING);
      } else if (WSDL.equals(ns) && local.equals("service")) {
        inService = service.getLocalPart().equals(r.getAttributeValue(null, "name"));
      } else if (inService && WSDL.equals(ns) && local.equals("port")) {
        port = new QName(tns, r.getAttributeValue(null, "name"));
        portBindings.put(port, localPart(r.getAttributeValue(null, "binding")));
      } else if (inService && port != null && local.equals("address")
          && (SOAP11.equals(ns) || SOAP12.equals(ns))) {
        addresses.put(port, r.getAttributeValue(null, "location"));
      }
    }
    Map<QName, Port> ports = new LinkedHashMap<>();
    portBindings.forEach((p, b) -> {
      String id = bindingIds.get(b.getLocalPart());
      if (id != null) {
        ports.put(p, new Port(p, addresses.get(p), id));
      }
    });
    return ports;
  }

  private static QName localPart(String prefixed) {
    return new QName(prefixed.substring(prefixed.indexOf(':') + 1));
  }
}
