package dev.ferry.jaxws.servlet.internal;

import dev.ferry.jaxws.internal.HandlerChains;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a {@code sun-jaxws.xml} deployment descriptor (Metro's format, which JAX-WS web
 * applications carry) into {@link EndpointSpec}s. DTDs and external entities are refused.
 *
 * <pre>
 * endpoints     = &lt;endpoints&gt; endpoint* &lt;/endpoints&gt;
 * endpoint      = &lt;endpoint name implementation url-pattern [wsdl] [service] [port]
 *                  [binding] [enable-mtom] [mtom-threshold-value]&gt; [handler-chains]
 *                 &lt;/endpoint&gt;
 * handler-chains = &lt;handler-chains&gt; (&lt;handler-chain&gt; handler* &lt;/handler-chain&gt;)*
 * handler       = &lt;handler&gt; [&lt;handler-name&gt;] &lt;handler-class&gt; &lt;/handler&gt;
 * </pre>
 *
 * <p>Anything else (an unknown element or attribute, a missing one, a duplicate name or URL
 * pattern) is a {@link DeploymentException} naming the file, the line and what was expected:
 * a descriptor is read whole and right, or not deployed at all.
 */
public final class Descriptor {
  /** Metro's runtime descriptor namespace. */
  public static final String NS = "http://java.sun.com/xml/ns/jax-ws/ri/runtime";
  private static final Set<String> ENDPOINT_ATTRIBUTES = Set.of("name", "implementation",
      "url-pattern", "wsdl", "service", "port", "binding", "enable-mtom",
      "mtom-threshold-value");

  private final XMLStreamReader in;
  private final String file;

  private Descriptor(XMLStreamReader in, String file) {
    this.in = in;
    this.file = file;
  }

  /**
   * Reads the descriptor in {@code xml}; {@code file} is its name in messages.
   *
   * @throws DeploymentException if it is not well-formed or not what the grammar says
   */
  public static List<EndpointSpec> read(InputStream xml, String file)
      throws DeploymentException {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    try {
      XMLStreamReader r = f.createXMLStreamReader(xml);
      try {
        return new Descriptor(r, file).endpoints();
      } finally {
        r.close();
      }
    } catch (XMLStreamException e) {
      int line = e.getLocation() == null ? -1 : e.getLocation().getLineNumber();
      throw new DeploymentException(file + (line > 0 ? ", line " + line : "")
          + ": not well-formed XML (or a DTD, which is refused): " + reason(e), e);
    }
  }

  /** The parser's message without the location it prefixes (reported in ours). */
  private static String reason(XMLStreamException e) {
    String m = String.valueOf(e.getMessage());
    int at = m.indexOf("Message: ");
    return at >= 0 ? m.substring(at + 9).strip() : m.strip();
  }

  private List<EndpointSpec> endpoints() throws XMLStreamException, DeploymentException {
    in.nextTag();
    expect(NS, "endpoints");
    List<EndpointSpec> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> patterns = new HashSet<>();
    while (in.nextTag() == XMLStreamConstants.START_ELEMENT) {
      expect(NS, "endpoint");
      EndpointSpec e = endpoint();
      if (!names.add(e.name())) {
        throw new DeploymentException(e.origin() + ": a second endpoint named \"" + e.name()
            + "\"");
      }
      if (!patterns.add(e.urlPattern())) {
        throw new DeploymentException(e.origin() + ": url-pattern " + e.urlPattern()
            + " is another endpoint's too");
      }
      out.add(e);
    }
    return out;
  }

  private EndpointSpec endpoint() throws XMLStreamException, DeploymentException {
    String at = here();
    for (int i = 0; i < in.getAttributeCount(); i++) {
      String a = in.getAttributeLocalName(i);
      String ns = in.getAttributeNamespace(i);
      if (!ENDPOINT_ATTRIBUTES.contains(a) || ns != null && !ns.isEmpty()) {
        throw new DeploymentException(at + ": <endpoint> has an attribute " + a
            + " that is not read here (expected: " + String.join(", ",
                ENDPOINT_ATTRIBUTES.stream().sorted().toList()) + ")");
      }
    }
    String name = required("name", at);
    String pattern = required("url-pattern", at);
    if (!pattern.startsWith("/")) {
      throw new DeploymentException(at + ": url-pattern " + pattern + " must start with /");
    }
    return new EndpointSpec(name, required("implementation", at), pattern, optional("wsdl"),
        qname("service", at), qname("port", at), optional("binding"), bool("enable-mtom", at),
        integer("mtom-threshold-value", at), handlers(), at);
  }

  /** The handler classes of the endpoint's chains, if it has any; leaves the endpoint closed. */
  private List<String> handlers() throws XMLStreamException, DeploymentException {
    List<String> classes = new ArrayList<>();
    while (in.nextTag() == XMLStreamConstants.START_ELEMENT) {
      try {
        classes.addAll(HandlerChains.read(in, file));
      } catch (WebServiceException e) {
        throw new DeploymentException(e.getMessage(), e);
      }
    }
    return List.copyOf(classes);
  }

  private void expect(String ns, String local) throws DeploymentException {
    if (!in.getLocalName().equals(local) || ns != null && !ns.equals(in.getNamespaceURI())) {
      throw new DeploymentException(here() + ": expected <" + local + ">"
          + (ns == null ? "" : " in " + ns) + ", found <" + in.getLocalName() + ">"
          + (in.getNamespaceURI() == null || in.getNamespaceURI().isEmpty() ? ""
              : " in " + in.getNamespaceURI()));
    }
  }

  private String here() {
    return file + ", line " + in.getLocation().getLineNumber();
  }

  private String optional(String attribute) {
    String v = in.getAttributeValue(null, attribute);
    return v == null || v.isBlank() ? null : v.strip();
  }

  private String required(String attribute, String at) throws DeploymentException {
    String v = optional(attribute);
    if (v == null) {
      throw new DeploymentException(at + ": <endpoint> needs the attribute " + attribute);
    }
    return v;
  }

  private QName qname(String attribute, String at) throws DeploymentException {
    String v = optional(attribute);
    if (v == null) {
      return null;
    }
    if (!v.startsWith("{") || v.indexOf('}') < 0 || v.endsWith("}")) {
      throw new DeploymentException(at + ": " + attribute + "=\"" + v + "\" is not a name"
          + " of the form {namespace}local");
    }
    return QName.valueOf(v);
  }

  private Boolean bool(String attribute, String at) throws DeploymentException {
    String v = optional(attribute);
    if (v == null) {
      return null;
    }
    if (!v.equals("true") && !v.equals("false")) {
      throw new DeploymentException(at + ": " + attribute + "=\"" + v + "\" (expected: true"
          + " or false)");
    }
    return Boolean.valueOf(v);
  }

  private Integer integer(String attribute, String at) throws DeploymentException {
    String v = optional(attribute);
    if (v == null) {
      return null;
    }
    try {
      int n = Integer.parseInt(v);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new DeploymentException(at + ": " + attribute + "=\"" + v + "\" (expected: a"
        + " number of bytes, 0 or more)");
  }

  /** Reads a descriptor given as a stream of the application, closing it. */
  public static List<EndpointSpec> readAndClose(InputStream xml, String file)
      throws DeploymentException, IOException {
    try (xml) {
      return read(xml, file);
    }
  }
}
