package dev.ferry.jaxws.internal;

import dev.ferry.soap.SoapVersion;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.SchemaOutputResolver;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.AddressingFeature;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.transform.Result;
import javax.xml.transform.dom.DOMResult;
import javax.xml.transform.dom.DOMSource;
import org.glassfish.jaxb.runtime.api.JAXBRIContext;
import org.glassfish.jaxb.runtime.api.TypeReference;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Writes the WSDL 1.1 of a code-first endpoint: the schemas JAXB derives from its types
 * ({@code generateSchema}), plus a schema of the wrapper elements and of code-first fault
 * elements, then messages, port type, a SOAP 1.1 or 1.2 binding (document or RPC, literal) and
 * the service. Inline schemas import one another by namespace only.
 */
final class WsdlGenerator {
  private static final String XSD = "http://www.w3.org/2001/XMLSchema";
  private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
  private static final String POLICY = "http://www.w3.org/ns/ws-policy";

  private final SeiModel model;
  private final SoapVersion version;
  private final AddressingFeature addressing;
  private final QName service;
  private final QName port;
  private final JAXBRIContext schemaContext;
  private final Map<String, String> prefixes = new LinkedHashMap<>();
  /** The types JAXB's schemas name, which a wrapper's type must not take the name of. */
  private final Set<QName> jaxbTypes = new LinkedHashSet<>();
  private final StringBuilder out = new StringBuilder(8192);

  private WsdlGenerator(SeiModel model, SoapBindingImpl binding, QName service, QName port,
      Class<?>... seeAlsoFrom) {
    this.model = model;
    this.version = binding.version();
    this.addressing = binding.addressing();
    this.service = service;
    this.port = port;
    this.schemaContext = schemaContext(seeAlsoFrom);
    prefixes.put(XSD, "xsd");
    prefixes.put(model.targetNamespace(), "tns");
    if (addressing != null) {
      prefixes.put(WsAddressing.METADATA_NS, "wsam");
      prefixes.put(POLICY, "wsp");
    }
  }

  /**
   * Returns the WSDL of {@code model}'s endpoint named {@code service} and {@code port}, on
   * {@code binding} (its SOAP version; with WS-Addressing, a {@code wsam:Addressing} policy on
   * the binding and each message's {@code wsam:Action}).
   */
  static String generate(SeiModel model, SoapBindingImpl binding, QName service, QName port,
      Class<?>... seeAlsoFrom) {
    return new WsdlGenerator(model, binding, service, port, seeAlsoFrom).write();
  }

  /**
   * A context for the schema: the SEI's types and its global elements (bare and header parts,
   * fault beans), but not the wrappers' children, which are local elements of the wrappers.
   */
  private JAXBRIContext schemaContext(Class<?>[] seeAlsoFrom) {
    Set<Class<?>> classes = new LinkedHashSet<>();
    for (Class<?> c : seeAlsoFrom) {
      XmlSeeAlso also = c.getAnnotation(XmlSeeAlso.class);
      if (also != null) {
        Collections.addAll(classes, also.value());
      }
    }
    List<TypeReference> globals = new ArrayList<>();
    for (Operation op : model.operations()) {
      for (Part p : parts(op)) {
        if (p.isHeader() || op.style() == Operation.Style.BARE) {
          globals.add(p.typeReference());
        }
        Class<?> raw = SeiReader.raw(p.valueType());
        if (op.style() == Operation.Style.RPC && raw.isArray() && raw != byte[].class) {
          classes.add(raw); // so that JAXB writes the array's type
        }
        addBean(classes, p);
      }
      for (FaultType f : op.faults()) {
        if (f.bean() != null) {
          globals.add(f.bean().typeReference());
          classes.add(SeiReader.raw(f.bean().valueType()));
        }
        f.properties().forEach(p -> addBean(classes, p));
      }
    }
    try {
      return JAXBRIContext.newInstance(classes.toArray(new Class<?>[0]), globals, null,
          model.targetNamespace(), false, null);
    } catch (JAXBException e) {
      throw new WebServiceException("cannot derive the schema of " + model.sei().getName()
          + ": " + e, e);
    }
  }

  /** Adds the class of {@code p}'s value if it is a bean: a TypeReference does not bind it. */
  private static void addBean(Set<Class<?>> classes, Part p) {
    Class<?> raw = SeiReader.raw(p.valueType());
    while (raw.isArray()) {
      raw = raw.getComponentType();
    }
    if (SeiModel.isBean(raw)) {
      classes.add(raw);
    }
  }

  private static List<Part> parts(Operation op) {
    List<Part> all = new ArrayList<>(op.inParts());
    all.addAll(op.outParts());
    return all;
  }

  private String write() {
    String soapNs = version == SoapVersion.SOAP_11 ? "http://schemas.xmlsoap.org/wsdl/soap/"
        : "http://schemas.xmlsoap.org/wsdl/soap12/";
    List<String> schemas = schemas();
    messages();
    portType();
    binding();
    out.append("<wsdl:service name=\"").append(attr(service.getLocalPart()))
        .append("\"><wsdl:port name=\"").append(attr(port.getLocalPart()))
        .append("\" binding=\"tns:").append(attr(bindingName()))
        .append("\"><soap:address location=\"REPLACE_WITH_ACTUAL_URL\"/></wsdl:port>")
        .append("</wsdl:service>\n</wsdl:definitions>\n");
    // the start tag last: the sections above may have named namespaces it must declare
    StringBuilder head = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append("<wsdl:definitions xmlns:wsdl=\"").append(WSDL).append("\" xmlns:soap=\"")
        .append(soapNs).append('"');
    prefixes.forEach((ns, p) -> head.append(" xmlns:").append(p).append("=\"").append(attr(ns))
        .append('"'));
    head.append(" name=\"").append(attr(service.getLocalPart())).append("\" targetNamespace=\"")
        .append(attr(model.targetNamespace())).append("\">\n<wsdl:types>\n");
    schemas.forEach(s -> head.append(s).append('\n'));
    return head.append("</wsdl:types>\n").append(out).toString();
  }

  private String bindingName() {
    return model.portTypeName() + "Binding";
  }

  /** JAXB's schemas, then one per namespace of wrapper and code-first fault elements. */
  private List<String> schemas() {
    Map<String, DOMResult> byNs = new LinkedHashMap<>();
    try {
      schemaContext.generateSchema(new SchemaOutputResolver() {
        @Override
        public Result createOutput(String namespaceUri, String suggestedFileName) {
          DOMResult r = new DOMResult();
          r.setSystemId(suggestedFileName);
          byNs.put(namespaceUri, r);
          return r;
        }
      });
    } catch (IOException e) {
      throw new WebServiceException("cannot write the schema: " + e, e);
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, DOMResult> r : byNs.entrySet()) {
      Element schema = ((org.w3c.dom.Document) r.getValue().getNode()).getDocumentElement();
      NodeList imports = schema.getElementsByTagNameNS(XSD, "import");
      for (int i = 0; i < imports.getLength(); i++) {
        ((Element) imports.item(i)).removeAttribute("schemaLocation");
      }
      for (String kind : new String[] {"complexType", "simpleType"}) {
        NodeList types = schema.getElementsByTagNameNS(XSD, kind);
        for (int i = 0; i < types.getLength(); i++) {
          String name = ((Element) types.item(i)).getAttribute("name");
          if (!name.isEmpty()) {
            jaxbTypes.add(new QName(r.getKey(), name));
          }
        }
      }
      out.add(serialize(schema));
    }
    out.addAll(wrapperSchemas(byNs.keySet()));
    return out;
  }

  private static String serialize(Node n) {
    try {
      return Xml.bytes(new DOMSource(n)).utf8();
    } catch (IOException e) {
      throw new WebServiceException(e);
    }
  }

  private List<String> wrapperSchemas(Set<String> importable) {
    Map<String, StringBuilder> byNs = new LinkedHashMap<>();
    Set<String> done = new LinkedHashSet<>();
    for (Operation op : model.operations()) {
      if (op.style() == Operation.Style.WRAPPED) {
        wrapper(byNs, done, op.requestWrapper(), op.inParts());
        if (!op.isOneWay()) {
          wrapper(byNs, done, op.responseWrapper(), op.outParts());
        }
      }
      for (FaultType f : op.faults()) {
        if (f.bean() == null) {
          wrapper(byNs, done, f.element(), f.properties());
        }
      }
    }
    List<String> out = new ArrayList<>();
    byNs.forEach((ns, body) -> {
      StringBuilder s = new StringBuilder("<xsd:schema");
      prefixes.forEach((uri, p) -> s.append(" xmlns:").append(p).append("=\"").append(attr(uri))
          .append('"'));
      s.append(" targetNamespace=\"").append(attr(ns)).append("\">");
      for (String other : importable) {
        if (!other.equals(ns)) {
          s.append("<xsd:import namespace=\"").append(attr(other)).append("\"/>");
        }
      }
      out.add(s.append(body).append("</xsd:schema>").toString());
    });
    return out;
  }

  private void wrapper(Map<String, StringBuilder> byNs, Set<String> done, QName wrapper,
      List<Part> parts) {
    if (!done.add(wrapper.toString())) {
      return;
    }
    StringBuilder s = section(byNs, wrapper.getNamespaceURI());
    // a named type, as CXF and Metro write it, unless JAXB's schema has a type of that name
    boolean named = !jaxbTypes.contains(wrapper);
    String name = attr(wrapper.getLocalPart());
    s.append("<xsd:element name=\"").append(name).append('"');
    if (named) {
      s.append(" type=\"").append(prefixed(wrapper)).append("\"/><xsd:complexType name=\"")
          .append(name).append("\">");
    } else {
      s.append("><xsd:complexType>");
    }
    s.append("<xsd:sequence>");
    for (Part p : parts) {
      if (!p.isHeader()) {
        child(s, p);
      }
    }
    s.append("</xsd:sequence></xsd:complexType>").append(named ? "" : "</xsd:element>");
  }

  /**
   * A wrapper's child: required when its type has no null (a primitive, as in CXF and Metro),
   * else optional; a collection or array repeats.
   */
  private void child(StringBuilder s, Part p) {
    QName type = typeName(p.typeReference());
    boolean required = !p.isRepeated() && p.valueType() instanceof Class<?> c && c.isPrimitive();
    s.append("<xsd:element name=\"").append(attr(p.element().getLocalPart()))
        .append("\" type=\"").append(type == null ? "xsd:anyType" : prefixed(type)).append('"')
        .append(required ? "" : " minOccurs=\"0\"")
        .append(p.isRepeated() ? " maxOccurs=\"unbounded\"" : "").append("/>");
  }

  private StringBuilder section(Map<String, StringBuilder> byNs, String ns) {
    return byNs.computeIfAbsent(ns, k -> new StringBuilder());
  }

  /** The schema type of a part, or null for an anonymous one. */
  private QName typeName(TypeReference ref) {
    Type t = ref.type;
    return schemaContext.getTypeName(new TypeReference(ref.tagName, t, ref.annotations));
  }

  private String prefixed(QName name) {
    String p = prefixes.computeIfAbsent(name.getNamespaceURI(), ns -> "ns" + prefixes.size());
    return p + ":" + name.getLocalPart();
  }

  private void messages() {
    for (Operation op : model.operations()) {
      message(op.name(), op, op.inParts(), op.requestWrapper());
      if (!op.isOneWay()) {
        message(op.name() + "Response", op, op.outParts(), op.responseWrapper());
      }
    }
    Set<String> done = new LinkedHashSet<>();
    for (Operation op : model.operations()) {
      for (FaultType f : op.faults()) {
        if (done.add(f.exception().getSimpleName())) {
          out.append("<wsdl:message name=\"").append(attr(f.exception().getSimpleName()))
              .append("\"><wsdl:part name=\"fault\" element=\"").append(prefixed(f.element()))
              .append("\"/></wsdl:message>\n");
        }
      }
    }
  }

  private void message(String name, Operation op, List<Part> parts, QName wrapper) {
    out.append("<wsdl:message name=\"").append(attr(name)).append("\">");
    if (op.style() == Operation.Style.WRAPPED) {
      out.append("<wsdl:part name=\"parameters\" element=\"").append(prefixed(wrapper))
          .append("\"/>");
    }
    for (Part p : parts) {
      if (p.isHeader() || op.style() == Operation.Style.BARE) {
        out.append("<wsdl:part name=\"").append(attr(p.element().getLocalPart()))
            .append("\" element=\"").append(prefixed(p.element())).append("\"/>");
      } else if (op.style() == Operation.Style.RPC) {
        QName type = typeName(p.typeReference());
        out.append("<wsdl:part name=\"").append(attr(p.element().getLocalPart()))
            .append("\" type=\"").append(type == null ? "xsd:anyType" : prefixed(type))
            .append("\"/>");
      }
    }
    out.append("</wsdl:message>\n");
  }

  private void portType() {
    out.append("<wsdl:portType name=\"").append(attr(model.portTypeName())).append("\">");
    for (Operation op : model.operations()) {
      Actions actions = model.actions(op);
      out.append("<wsdl:operation name=\"").append(attr(op.name())).append("\">")
          .append("<wsdl:input message=\"tns:").append(attr(op.name())).append('"')
          .append(action(actions.input())).append("/>");
      if (!op.isOneWay()) {
        out.append("<wsdl:output message=\"tns:").append(attr(op.name()))
            .append("Response\"").append(action(actions.output())).append("/>");
      }
      for (FaultType f : op.faults()) {
        String n = attr(f.exception().getSimpleName());
        out.append("<wsdl:fault name=\"").append(n).append("\" message=\"tns:").append(n)
            .append('"').append(action(actions.faults().get(f.exception()))).append("/>");
      }
      out.append("</wsdl:operation>");
    }
    out.append("</wsdl:portType>\n");
  }

  private void binding() {
    boolean rpc = model.operations().stream().anyMatch(o -> o.style() == Operation.Style.RPC);
    out.append("<wsdl:binding name=\"").append(attr(bindingName())).append("\" type=\"tns:")
        .append(attr(model.portTypeName())).append("\"><soap:binding style=\"")
        .append(rpc ? "rpc" : "document")
        .append("\" transport=\"http://schemas.xmlsoap.org/soap/http\"/>");
    if (addressing != null) { // WS-Addressing 1.0 Metadata, section 3.1, as CXF and Metro say
      out.append("<wsp:Policy><wsam:Addressing")
          .append(addressing.isRequired() ? "" : " wsp:Optional=\"true\"").append('>')
          .append(addressing.getResponses() == AddressingFeature.Responses.ANONYMOUS
              ? "<wsp:Policy><wsam:AnonymousResponses/></wsp:Policy>" : "<wsp:Policy/>")
          .append("</wsam:Addressing></wsp:Policy>");
    }
    for (Operation op : model.operations()) {
      out.append("<wsdl:operation name=\"").append(attr(op.name()))
          .append("\"><soap:operation soapAction=\"").append(attr(op.action())).append("\"/>");
      io("input", op, op.inParts(), op.name());
      if (!op.isOneWay()) {
        io("output", op, op.outParts(), op.name() + "Response");
      }
      for (FaultType f : op.faults()) {
        String n = attr(f.exception().getSimpleName());
        out.append("<wsdl:fault name=\"").append(n).append("\"><soap:fault name=\"").append(n)
            .append("\" use=\"literal\"/></wsdl:fault>");
      }
      out.append("</wsdl:operation>");
    }
    out.append("</wsdl:binding>\n");
  }

  private void io(String which, Operation op, List<Part> parts, String message) {
    out.append("<wsdl:").append(which).append("><soap:body use=\"literal\"");
    if (op.style() == Operation.Style.RPC) {
      out.append(" namespace=\"").append(attr(model.targetNamespace())).append('"');
    }
    List<String> bodyParts = new ArrayList<>();
    for (Part p : parts) {
      if (!p.isHeader() && op.style() == Operation.Style.BARE) {
        bodyParts.add(p.element().getLocalPart());
      }
    }
    if (op.style() == Operation.Style.WRAPPED) {
      bodyParts.add("parameters");
    }
    if (op.style() != Operation.Style.RPC && parts.stream().anyMatch(Part::isHeader)) {
      out.append(" parts=\"").append(attr(String.join(" ", bodyParts))).append('"');
    }
    out.append("/>");
    for (Part p : parts) {
      if (p.isHeader()) {
        out.append("<soap:header message=\"tns:").append(attr(message)).append("\" part=\"")
            .append(attr(p.element().getLocalPart())).append("\" use=\"literal\"/>");
      }
    }
    out.append("</wsdl:").append(which).append('>');
  }

  /** A wsam:Action attribute with {@code action}, or nothing without WS-Addressing. */
  private String action(String action) {
    return addressing == null ? "" : " wsam:Action=\"" + attr(action) + "\"";
  }

  private static String attr(String s) {
    return s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;");
  }
}
