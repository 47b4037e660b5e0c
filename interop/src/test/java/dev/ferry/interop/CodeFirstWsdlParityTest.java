package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The WSDL Ferry generates for a code-first endpoint against CXF's and Metro's for the same
 * classes ({@link Shapes}: 29 operations, from primitives to faults, headers, Holders, RPC and
 * bare), compared as a client generator sees them ({@link ContractView}): element names,
 * types, occurrence, nillability, enumerations, inheritance and fault details. Ferry must give
 * the same view as both, but for the operations listed here, where CXF and Metro disagree with
 * each other and Ferry sides with one (docs/jaxws.md says which and why). A listed operation
 * that comes to agree with both fails the test too, so the list stays true.
 */
class CodeFirstWsdlParityTest {
  /** Operation: the runtime Ferry agrees with, where CXF and Metro differ. */
  private static final Map<String, JaxWsStack> SIDES = Map.of(
      // Metro marks array items and byte[] nillable; CXF does not (nor does JAXB for a bean)
      "Collections.reverse", JaxWsStack.CXF,
      "Collections.squares", JaxWsStack.CXF,
      "Primitives.bytes", JaxWsStack.CXF,
      // a code-first fault's properties: lexicographic and primitives required, as the
      // specification (3.7) and Metro say; CXF keeps declaration order, all optional
      "Faults.reserve", JaxWsStack.METRO);

  private static final Map<JaxWsStack, Map<String, String>> VIEWS = new LinkedHashMap<>();

  @BeforeAll
  static void generate() throws Exception {
    for (JaxWsStack stack : JaxWsStack.values()) {
      Map<String, String> ops = new TreeMap<>();
      for (Object service : Shapes.all()) {
        String name = service.getClass().getSimpleName();
        try (JaxWsStack.Served s = stack.serve(service, "/" + name, false, false)) {
          ContractView.of(s.uri() + "?wsdl").forEach((op, view) -> ops.put(name + "." + op,
              view));
        }
      }
      VIEWS.put(stack, ops);
    }
  }

  @AfterAll
  static void clear() {
    VIEWS.clear();
  }

  @Test
  void everyRuntimeDescribesTheSameOperations() {
    Set<String> ferry = VIEWS.get(JaxWsStack.FERRY).keySet();
    assertThat(ferry).hasSizeGreaterThanOrEqualTo(20);
    assertThat(VIEWS.get(JaxWsStack.CXF).keySet()).isEqualTo(ferry);
    assertThat(VIEWS.get(JaxWsStack.METRO).keySet()).isEqualTo(ferry);
  }

  @Test
  void ferryGivesAClientGeneratorWhatCxfAndMetroGive() {
    List<String> differences = new ArrayList<>();
    VIEWS.get(JaxWsStack.FERRY).forEach((op, ferry) -> {
      String cxf = VIEWS.get(JaxWsStack.CXF).get(op);
      String metro = VIEWS.get(JaxWsStack.METRO).get(op);
      JaxWsStack side = SIDES.get(op);
      if (side == null && !(ferry.equals(cxf) && ferry.equals(metro))) {
        differences.add(op + "\n-- Ferry\n" + ferry + "-- CXF\n" + cxf + "-- Metro\n" + metro);
      } else if (side != null && (!ferry.equals(VIEWS.get(side).get(op)) || cxf.equals(metro))) {
        differences.add(op + " (listed: Ferry as " + side + ")\n-- Ferry\n" + ferry + "-- CXF\n"
            + cxf + "-- Metro\n" + metro);
      }
    });
    assertThat(differences).as(String.join("\n", differences)).isEmpty();
  }

  @Test
  void aCodeFirstFaultKeepsEveryPropertyAndPrimitivesAreRequired() {
    String reserve = VIEWS.get(JaxWsStack.FERRY).get("Faults.reserve");
    assertThat(reserve).contains("  arg1 1..1 xsd:int\n")
        .contains("  available 1..1 xsd:int\n  message 0..1 xsd:string\n  sku 0..1 xsd:string");
  }
}
