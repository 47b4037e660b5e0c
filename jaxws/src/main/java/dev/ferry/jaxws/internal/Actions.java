package dev.ferry.jaxws.internal;

import jakarta.xml.ws.Action;
import jakarta.xml.ws.FaultAction;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The WS-Addressing actions of one operation: its request's, its reply's and each declared
 * fault's. {@code @Action} and {@code @FaultAction} name them; else the request's is the SOAP
 * action if it has one, and the rest follow the default pattern of WS-Addressing 1.0 Metadata
 * (4.4.4): {@code [namespace]/[port type]/[operation]Request}, {@code ...Response},
 * {@code .../[operation]/Fault/[fault]} (":" for a URN namespace), as CXF and Metro derive them.
 */
record Actions(String input, String output, Map<Class<?>, String> faults) {
  /** The actions of {@code op} in a port type {@code portType} of namespace {@code ns}. */
  static Actions of(String ns, String portType, Operation op) {
    Action a = op.method().getAnnotation(Action.class);
    String delimiter = ns.startsWith("urn:") ? ":" : "/";
    String base = (ns.endsWith(delimiter) ? ns : ns + delimiter) + portType + delimiter;
    String input = a != null && !a.input().isEmpty() ? a.input()
        : !op.action().isEmpty() ? op.action()
        : base + op.name() + (op.isOneWay() ? "" : "Request");
    String output = a != null && !a.output().isEmpty() ? a.output()
        : base + op.name() + "Response";
    Map<Class<?>, String> faults = new LinkedHashMap<>();
    for (FaultType f : op.faults()) {
      String named = null;
      for (FaultAction fa : a == null ? new FaultAction[0] : a.fault()) {
        if (fa.className() == f.exception() && !fa.value().isEmpty()) {
          named = fa.value();
        }
      }
      faults.put(f.exception(), named != null ? named : base + op.name() + delimiter + "Fault"
          + delimiter + f.exception().getSimpleName());
    }
    return new Actions(input, output, Map.copyOf(faults));
  }

  /** The action of a fault answering {@code t}: its declared fault's, else SOAP's generic one. */
  String fault(Throwable t) {
    for (Map.Entry<Class<?>, String> e : faults.entrySet()) {
      if (e.getKey().isInstance(t)) {
        return e.getValue();
      }
    }
    return WsAddressing.SOAP_FAULT_ACTION;
  }
}
