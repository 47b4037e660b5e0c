package dev.ferry.jaxws.internal;

import dev.ferry.soap.SoapCodec;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.SOAPBinding;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * What a client needs from a WSDL: each port of a service, with its address and its binding's
 * SOAP version. The service, its bindings and the WSDLs they sit in may be spread over
 * documents joined by {@code wsdl:import} (as CXF serves a contract over several files, each at
 * {@code ?wsdl=...}): imports are followed, schemas are not read. Each document is read once,
 * with Ferry's XML rules (no DTD, limits), within {@link Wsdls#MAX_WSDL_BYTES}, and at most
 * {@link #MAX_DOCUMENTS} of them.
 */
final class WsdlPorts {
  static final int MAX_DOCUMENTS = dev.ferry.server.WsdlDocuments.MAX_DOCUMENTS;
  private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
  private static final String SOAP11 = "http://schemas.xmlsoap.org/wsdl/soap/";
  private static final String SOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/";

  /** One port: its address and binding ID. */
  record Port(QName name, String address, String bindingId) {}

  private final QName service;
  private final Map<String, String> bindingIds = new LinkedHashMap<>();
  private final Map<QName, QName> portBindings = new LinkedHashMap<>();
  private final Map<QName, String> addresses = new LinkedHashMap<>();
  private final Deque<URL> imports = new ArrayDeque<>();

  private WsdlPorts(QName service) {
    this.service = service;
  }

  /** The ports of {@code service} in the WSDL at {@code url} and those it imports. */
  static Map<QName, Port> read(URL url, QName service, SoapCodec codec) {
    WsdlPorts ports = new WsdlPorts(service);
    Set<String> seen = new HashSet<>();
    ports.imports.add(url);
    while (!ports.imports.isEmpty()) {
      URL next = ports.imports.poll();
      if (!seen.add(next.toString())) {
        continue;
      }
      if (seen.size() > MAX_DOCUMENTS) {
        throw new WebServiceException("the WSDL at " + url + " imports more than "
            + MAX_DOCUMENTS + " documents");
      }
      try {
        byte[] bytes = Wsdls.read(next).getBytes(StandardCharsets.UTF_8);
        ports.scan(codec.xop().newXmlReader(new java.io.ByteArrayInputStream(bytes), null),
            next);
      } catch (IOException | XMLStreamException e) {
        throw new WebServiceException("cannot read the WSDL at " + next
            + (next.equals(url) ? "" : ", imported from " + url) + ": " + e.getMessage(), e);
      }
    }
    return ports.ports();
  }

  private void scan(XMLStreamReader r, URL base) throws XMLStreamException, IOException {
    String tns = null;
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
      } else if (WSDL.equals(ns) && local.equals("import")) {
        String location = r.getAttributeValue(null, "location");
        if (location != null && !location.isEmpty()) {
          imports.add(new URL(base, location));
        }
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
  }

  private Map<QName, Port> ports() {
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
