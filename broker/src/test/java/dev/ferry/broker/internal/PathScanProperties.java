package dev.ferry.broker.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamReader;
import javax.xml.xpath.XPath;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * The streaming scan agrees with the JDK's XPath 1.0 (evaluated on a DOM tree of the same Body)
 * on random Bodies and random expressions of the subset, and, when it stopped early, the rest of
 * the Body could not have changed the outcome.
 */
class PathScanProperties {
  private static final Map<String, String> NS = Map.of("p", "urn:p");
  private static final XMLInputFactory STAX = XMLInputFactory.newFactory();

  @Property(tries = 1000)
  void agreesWithTheJdksXpath(@ForAll("bodies") String body, @ForAll("expressions") String expr)
      throws Exception {
    String xml = "<Body xmlns:p=\"urn:p\">" + body + "</Body>";
    assertThat(scan(xml, expr)).as("%s on %s", expr, xml).isEqualTo(jdk(xml, expr));
  }

  /** The scan's outcome, feeding it events until it is decided (then it must stay so). */
  static boolean scan(String xml, String expr) throws Exception {
    PathScan s = PathCompiler.compile(expr, NS).newScan();
    XMLStreamReader r = STAX.createXMLStreamReader(new StringReader(xml));
    Boolean decidedAs = null;
    while (r.hasNext()) {
      switch (r.next()) {
        case XMLStreamConstants.START_ELEMENT -> s.start(r);
        case XMLStreamConstants.END_ELEMENT -> s.end();
        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA,
            XMLStreamConstants.SPACE -> s.text(r);
        case XMLStreamConstants.COMMENT, XMLStreamConstants.PROCESSING_INSTRUCTION ->
            s.boundary();
        default -> { }
      }
      if (s.decided() && decidedAs == null) {
        decidedAs = s.result();
      }
    }
    assertThat(s.decided()).isTrue();
    assertThat(s.result()).as("changed after it was decided").isEqualTo(decidedAs);
    return s.result();
  }

  static boolean jdk(String xml, String expr) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    Document d = f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    Element bodyElement = d.getDocumentElement();
    XPath x = XPathFactory.newInstance().newXPath();
    x.setNamespaceContext(new javax.xml.namespace.NamespaceContext() {
      @Override
      public String getNamespaceURI(String prefix) {
        return NS.getOrDefault(prefix, "");
      }

      @Override
      public String getPrefix(String uri) {
        return null;
      }

      @Override
      public java.util.Iterator<String> getPrefixes(String uri) {
        return null;
      }
    });
    String relative = expr.startsWith("/") ? "." + expr : "./" + expr;
    return (Boolean) x.evaluate(relative, bodyElement, XPathConstants.BOOLEAN);
  }

  @Provide
  Arbitrary<String> bodies() {
    return element(3).list().ofMaxSize(3).map(l -> String.join("", l));
  }

  private Arbitrary<String> element(int depth) {
    Arbitrary<String> name = Arbitraries.of("a", "b", "p:a", "c");
    Arbitrary<String> attrs = Arbitraries.of("", " k=\"1\"", " k=\"x\"", " p:k=\"1\"",
        " k=\"2\" j=\"1\"");
    Arbitrary<String> text = Arbitraries.of("", "1", "x", " 2 ", "<!--c-->1", "<![CDATA[x]]>",
        "&amp;", "1.5");
    Arbitrary<String> children = depth == 0 ? Arbitraries.just("")
        : Arbitraries.lazy(() -> element(depth - 1)).list().ofMaxSize(3)
            .map(l -> String.join("", l));
    return Combinators.combine(name, attrs, text, children, text).as(
        (n, a, t1, c, t2) -> "<" + n + a + ">" + t1 + c + t2 + "</" + n + ">");
  }

  @Provide
  Arbitrary<String> expressions() {
    Arbitrary<String> name = Arbitraries.of("a", "b", "p:a", "*", "p:*", "c");
    Arbitrary<String> predicate = Arbitraries.of("", "", "[1]", "[2]", "[@k]", "[@k='1']",
        "[@k!='x']", "[@p:k]", "[@k='1'][2]", "[1][@k='2']", "[@j = 1]");
    Arbitrary<String> sep = Arbitraries.of("/", "//");
    Arbitrary<String> step = Combinators.combine(sep, name, predicate).as((s, n, p) -> s + n + p);
    Arbitrary<String> path = step.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join("", l));
    Arbitrary<String> tail = Arbitraries.of("", "", "/@k", "/text()", "[. = '1']", "[.='x']",
        "[text() = 'x']");
    Arbitrary<String> comparison = Arbitraries.of("", "", " = '1'", " != 'x'", " = 1", " > 1",
        " <= 1.5", " = ''", " = ' 2 '", " = '&'", " != 2");
    return Combinators.combine(path, tail, comparison).as((p, t, c) -> p + t + c);
  }

  @Property(tries = 200)
  void decidesAtTheFirstMatchWithoutReadingFurther(@ForAll("bodies") String rest)
      throws Exception {
    // the selected node comes first: the scan is decided before the rest is read
    String xml = "<Body><o><s>IBM</s></o>" + rest + "</Body>";
    PathScan s = PathCompiler.compile("//o[1]/s = 'IBM'", NS).newScan();
    XMLStreamReader r = STAX.createXMLStreamReader(new StringReader(xml));
    int events = 0;
    while (!s.decided()) {
      events++;
      switch (r.next()) {
        case XMLStreamConstants.START_ELEMENT -> s.start(r);
        case XMLStreamConstants.END_ELEMENT -> s.end();
        case XMLStreamConstants.CHARACTERS -> s.text(r);
        default -> { }
      }
    }
    assertThat(s.result()).isTrue();
    assertThat(events).isEqualTo(5); // Body, o, s, IBM, /s
  }
}
