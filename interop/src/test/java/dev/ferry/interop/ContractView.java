package dev.ferry.interop;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.wsdl.Binding;
import javax.wsdl.BindingOperation;
import javax.wsdl.Definition;
import javax.wsdl.Fault;
import javax.wsdl.Import;
import javax.wsdl.Message;
import javax.wsdl.Operation;
import javax.wsdl.Part;
import javax.wsdl.WSDLException;
import javax.wsdl.extensions.schema.Schema;
import javax.wsdl.extensions.soap.SOAPBinding;
import javax.wsdl.extensions.soap.SOAPHeader;
import javax.wsdl.extensions.soap.SOAPOperation;
import javax.wsdl.factory.WSDLFactory;
import javax.wsdl.xml.WSDLReader;
import javax.xml.namespace.QName;
import org.apache.ws.commons.schema.XmlSchemaAll;
import org.apache.ws.commons.schema.XmlSchemaAny;
import org.apache.ws.commons.schema.XmlSchemaAttribute;
import org.apache.ws.commons.schema.XmlSchemaAttributeOrGroupRef;
import org.apache.ws.commons.schema.XmlSchemaChoice;
import org.apache.ws.commons.schema.XmlSchemaCollection;
import org.apache.ws.commons.schema.XmlSchemaComplexContentExtension;
import org.apache.ws.commons.schema.XmlSchemaComplexType;
import org.apache.ws.commons.schema.XmlSchemaElement;
import org.apache.ws.commons.schema.XmlSchemaEnumerationFacet;
import org.apache.ws.commons.schema.XmlSchemaFacet;
import org.apache.ws.commons.schema.utils.XmlSchemaObjectBase;
import org.apache.ws.commons.schema.XmlSchemaParticle;
import org.apache.ws.commons.schema.XmlSchemaSequence;
import org.apache.ws.commons.schema.XmlSchemaSimpleType;
import org.apache.ws.commons.schema.XmlSchemaSimpleTypeList;
import org.apache.ws.commons.schema.XmlSchemaSimpleTypeRestriction;
import org.apache.ws.commons.schema.XmlSchemaType;

/**
 * What a client generator (wsdl2java, wsimport, zeep) sees of a WSDL, one text per operation:
 * its style, the elements of its request and response (for wrapped operations, the wrapper's
 * children), header parts, and each fault's message and detail element; every element with its
 * wire name, type, occurrence and nillability, named types expanded (their base's content
 * first), enumerations listed. Two runtimes that give the same text for an operation give a
 * generator the same code for it. Read with wsdl4j and Apache XmlSchema (both CXF's), following
 * WSDL and schema imports.
 */
final class ContractView {
  private static final String XSD = "http://www.w3.org/2001/XMLSchema";

  private final XmlSchemaCollection schemas = new XmlSchemaCollection();
  private int inline;

  private ContractView() {}

  /** The operations of the WSDL at {@code url}, each described, by name. */
  static Map<String, String> of(String url) throws WSDLException {
    WSDLReader reader = WSDLFactory.newInstance().newWSDLReader();
    reader.setFeature("javax.wsdl.verbose", false);
    reader.setFeature("javax.wsdl.importDocuments", true);
    Definition d = reader.readWSDL(url);
    ContractView view = new ContractView();
    view.schemas.setBaseUri(url);
    view.readSchemas(d, new HashSet<>());
    Map<String, String> ops = new TreeMap<>();
    for (Object b : d.getAllBindings().values()) {
      Binding binding = (Binding) b;
      String style = style(binding);
      for (Object o : binding.getBindingOperations()) {
        BindingOperation bo = (BindingOperation) o;
        ops.put(bo.getName(), view.operation(bo, style));
      }
    }
    return ops;
  }

  private void readSchemas(Definition d, Set<String> seen) {
    if (!seen.add(d.getDocumentBaseURI() + "#" + d.getTargetNamespace())) {
      return;
    }
    if (d.getTypes() != null) {
      for (Object e : d.getTypes().getExtensibilityElements()) {
        if (e instanceof Schema s) { // several inline schemas may share a namespace
          schemas.read(s.getElement(), d.getDocumentBaseURI() + "#schema" + seen.size() + "."
              + (++inline));
        }
      }
    }
    for (Object list : d.getImports().values()) {
      for (Object i : (List<?>) list) {
        Definition imported = ((Import) i).getDefinition();
        if (imported != null) {
          readSchemas(imported, seen);
        }
      }
    }
  }

  private static String style(Binding b) {
    for (Object e : b.getExtensibilityElements()) {
      if (e instanceof SOAPBinding s && s.getStyle() != null) {
        return s.getStyle();
      }
    }
    return "document";
  }

  private String operation(BindingOperation bo, String bindingStyle) {
    String style = bindingStyle;
    for (Object e : bo.getExtensibilityElements()) {
      if (e instanceof SOAPOperation so && so.getStyle() != null) {
        style = so.getStyle();
      }
    }
    Operation op = bo.getOperation();
    StringBuilder out = new StringBuilder("style " + style + "\n");
    boolean rpc = style.equals("rpc");
    if (op.getInput() != null) {
      message(out, "in", op.getInput().getMessage(), headers(bo.getBindingInput() == null ? null
          : bo.getBindingInput().getExtensibilityElements()), rpc);
    }
    if (op.getOutput() != null) {
      message(out, "out", op.getOutput().getMessage(), headers(bo.getBindingOutput() == null
          ? null : bo.getBindingOutput().getExtensibilityElements()), rpc);
    } else {
      out.append("one-way\n");
    }
    Map<String, String> faults = new TreeMap<>();
    for (Object f : op.getFaults().values()) {
      Fault fault = (Fault) f;
      StringBuilder s = new StringBuilder();
      message(s, "fault " + fault.getName() + " message " + fault.getMessage().getQName()
          .getLocalPart(), fault.getMessage(), Set.of(), false);
      faults.put(fault.getName(), s.toString());
    }
    faults.values().forEach(out::append);
    return out.toString();
  }

  private static Set<String> headers(List<?> extensions) {
    Set<String> parts = new HashSet<>();
    if (extensions != null) {
      for (Object e : extensions) {
        if (e instanceof SOAPHeader h) {
          parts.add(h.getPart());
        }
      }
    }
    return parts;
  }

  private void message(StringBuilder out, String label, Message m, Set<String> headers,
      boolean rpc) {
    for (Object p : m.getOrderedParts(null)) {
      Part part = (Part) p;
      boolean header = headers.contains(part.getName());
      out.append(label).append(header ? " header" : "");
      if (rpc && !header) {
        out.append(" part ").append(part.getName()).append(' ')
            .append(type(part.getTypeName(), schemas.getTypeByQName(part.getTypeName()), "  ",
                new HashSet<>()));
      } else {
        XmlSchemaElement e = schemas.getElementByQName(part.getElementName());
        out.append(" element ");
        if (e == null) {
          out.append(part.getElementName()).append(" (not declared)\n");
          continue;
        }
        out.append(element(e, 1, 1, "  ", new HashSet<>()));
      }
    }
  }

  private String element(XmlSchemaElement e, long min, long max, String indent,
      Set<QName> expanded) {
    XmlSchemaElement target = e.isRef() ? e.getRef().getTarget() : e;
    QName name = e.isRef() ? e.getRef().getTargetQName() : target.getWireName();
    String head = name + " " + min + ".." + (max == Long.MAX_VALUE ? "n" : max)
        + (target.isNillable() ? " nillable" : "") + " ";
    return head + type(target.getSchemaTypeName(), target.getSchemaType(), indent, expanded);
  }

  private String type(QName name, XmlSchemaType type, String indent, Set<QName> expanded) {
    if (name != null && XSD.equals(name.getNamespaceURI())) {
      return "xsd:" + name.getLocalPart() + "\n";
    }
    XmlSchemaType t = type != null ? type : name == null ? null : schemas.getTypeByQName(name);
    String label = name == null ? "anonymous" : name.toString();
    if (t == null) {
      return label + " (not declared)\n";
    }
    if (name != null && !expanded.add(name)) {
      return label + " (above)\n";
    }
    if (t instanceof XmlSchemaSimpleType s) {
      return label + " " + simple(s) + "\n";
    }
    StringBuilder out = new StringBuilder(label + "\n");
    content((XmlSchemaComplexType) t, out, indent, expanded);
    return out.toString();
  }

  private String simple(XmlSchemaSimpleType s) {
    if (s.getContent() instanceof XmlSchemaSimpleTypeRestriction r) {
      List<String> values = new ArrayList<>();
      for (XmlSchemaFacet f : r.getFacets()) {
        if (f instanceof XmlSchemaEnumerationFacet ef) {
          values.add(String.valueOf(ef.getValue()));
        }
      }
      return "restricts " + r.getBaseTypeName() + (values.isEmpty() ? "" : " to " + values);
    }
    if (s.getContent() instanceof XmlSchemaSimpleTypeList l) {
      return "list of " + l.getItemTypeName();
    }
    return String.valueOf(s.getContent());
  }

  private void content(XmlSchemaComplexType t, StringBuilder out, String indent,
      Set<QName> expanded) {
    XmlSchemaParticle particle = t.getParticle();
    List<XmlSchemaAttributeOrGroupRef> attributes = t.getAttributes();
    if (t.getContentModel() != null
        && t.getContentModel().getContent() instanceof XmlSchemaComplexContentExtension x) {
      XmlSchemaType base = schemas.getTypeByQName(x.getBaseTypeName());
      out.append(indent).append("extends ").append(x.getBaseTypeName()).append('\n');
      if (base instanceof XmlSchemaComplexType bt) {
        content(bt, out, indent, expanded);
      }
      particle = x.getParticle();
      attributes = x.getAttributes();
    }
    if (t.isAbstract()) {
      out.append(indent).append("abstract\n");
    }
    particle(particle, out, indent, expanded);
    for (XmlSchemaAttributeOrGroupRef a : attributes) {
      if (a instanceof XmlSchemaAttribute at) {
        out.append(indent).append('@').append(at.getWireName()).append(' ')
            .append(at.getUse()).append(' ').append(at.getSchemaTypeName()).append('\n');
      }
    }
  }

  private void particle(XmlSchemaParticle p, StringBuilder out, String indent,
      Set<QName> expanded) {
    List<? extends XmlSchemaObjectBase> items;
    String group;
    if (p instanceof XmlSchemaSequence s) {
      items = s.getItems();
      group = "sequence";
    } else if (p instanceof XmlSchemaAll a) {
      items = a.getItems();
      group = "all";
    } else if (p instanceof XmlSchemaChoice c) {
      items = c.getItems();
      group = "choice";
    } else {
      return;
    }
    if (!group.equals("sequence")) {
      out.append(indent).append(group).append('\n');
    }
    for (XmlSchemaObjectBase item : items) {
      if (item instanceof XmlSchemaElement e) {
        out.append(indent).append(element(e, e.getMinOccurs(), e.getMaxOccurs(), indent + "  ",
            expanded));
      } else if (item instanceof XmlSchemaAny any) {
        out.append(indent).append("any ").append(any.getMinOccurs()).append("..")
            .append(any.getMaxOccurs() == Long.MAX_VALUE ? "n" : any.getMaxOccurs()).append('\n');
      } else if (item instanceof XmlSchemaParticle nested) {
        particle(nested, out, indent + "  ", expanded);
      }
    }
  }
}
