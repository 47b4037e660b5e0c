package dev.ferry.jaxws.servlet.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;

class DescriptorTest {
  static final String FILE = "WEB-INF/sun-jaxws.xml";

  static List<EndpointSpec> read(String xml) throws DeploymentException {
    return Descriptor.read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)),
        FILE);
  }

  static String endpoints(String... lines) {
    return "<?xml version=\"1.0\"?>\n<endpoints xmlns=\"" + Descriptor.NS
        + "\" version=\"2.0\">\n" + String.join("\n", lines) + "\n</endpoints>\n";
  }

  @Test
  void readsEndpointsWithTheirAttributesAndHandlerChains() throws Exception {
    List<EndpointSpec> specs = read(endpoints(
        "<endpoint name=\"echo\" implementation=\"a.Echo\" url-pattern=\"/echo\"",
        "    wsdl=\"WEB-INF/wsdl/echo.wsdl\" service=\"{urn:e}EchoService\"",
        "    port=\"{urn:e}EchoPort\" enable-mtom=\"true\" mtom-threshold-value=\"1024\"",
        "    binding=\"http://www.w3.org/2003/05/soap/bindings/HTTP/\">",
        "  <handler-chains xmlns=\"https://jakarta.ee/xml/ns/jakartaee\">",
        "    <handler-chain><handler><handler-name>log</handler-name>",
        "      <handler-class>a.Log</handler-class></handler>",
        "      <handler><handler-class> a.Count </handler-class></handler></handler-chain>",
        "  </handler-chains>",
        "</endpoint>",
        "<endpoint name=\"raw\" implementation=\"a.Raw\" url-pattern=\"/raw\"/>"));
    assertThat(specs).hasSize(2);
    EndpointSpec echo = specs.get(0);
    assertThat(echo.implementation()).isEqualTo("a.Echo");
    assertThat(echo.wsdl()).isEqualTo("WEB-INF/wsdl/echo.wsdl");
    assertThat(echo.service()).isEqualTo(new QName("urn:e", "EchoService"));
    assertThat(echo.port()).isEqualTo(new QName("urn:e", "EchoPort"));
    assertThat(echo.mtom()).isTrue();
    assertThat(echo.mtomThreshold()).isEqualTo(1024);
    assertThat(echo.handlers()).containsExactly("a.Log", "a.Count");
    assertThat(echo.origin()).isEqualTo(FILE + ", line 3");
    assertThat(specs.get(1).handlers()).isEmpty();
    assertThat(specs.get(1).mtom()).isNull();
  }

  @Test
  void everyMistakeNamesTheFileTheLineAndWhatWasExpected() {
    assertThatThrownBy(() -> read(endpoints("<endpoint name=\"e\" url-pattern=\"/e\"/>")))
        .isInstanceOf(DeploymentException.class)
        .hasMessage(FILE + ", line 3: <endpoint> needs the attribute implementation");
    assertThatThrownBy(() -> read(endpoints(
        "<endpoint name=\"e\" implementation=\"a.E\" url-pattern=\"/e\" features=\"x\"/>")))
        .hasMessageStartingWith(FILE + ", line 3: <endpoint> has an attribute features that is"
            + " not read here (expected: binding, enable-mtom,");
    assertThatThrownBy(() -> read(endpoints(
        "<endpoint name=\"e\" implementation=\"a.E\" url-pattern=\"/e\"/>",
        "<endpoint name=\"e\" implementation=\"a.F\" url-pattern=\"/f\"/>")))
        .hasMessage(FILE + ", line 4: a second endpoint named \"e\"");
    assertThatThrownBy(() -> read(endpoints(
        "<endpoint name=\"e\" implementation=\"a.E\" url-pattern=\"/e\"/>",
        "<endpoint name=\"f\" implementation=\"a.F\" url-pattern=\"/e\"/>")))
        .hasMessage(FILE + ", line 4: url-pattern /e is another endpoint's too");
    assertThatThrownBy(() -> read(endpoints(
        "<endpoint name=\"e\" implementation=\"a.E\" url-pattern=\"/e\" service=\"Svc\"/>")))
        .hasMessageContaining("line 3: service=\"Svc\" is not a name of the form");
    assertThatThrownBy(() -> read(endpoints(
        "<endpoint name=\"e\" implementation=\"a.E\" url-pattern=\"e\"/>")))
        .hasMessage(FILE + ", line 3: url-pattern e must start with /");
    assertThatThrownBy(() -> read(endpoints(
        "<endpoint name=\"e\" implementation=\"a.E\" url-pattern=\"/e\"",
        "   enable-mtom=\"yes\"/>")))
        .hasMessageContaining("line 3: enable-mtom=\"yes\" (expected: true or false)");
    assertThatThrownBy(() -> read(endpoints(
        "<endpoint name=\"e\" implementation=\"a.E\" url-pattern=\"/e\">",
        "<handler-chains><handler-chain><handler><handler-name>x</handler-name></handler>",
        "</handler-chain></handler-chains></endpoint>")))
        .hasMessage(FILE + ", line 4: <handler> has no <handler-class>");
    assertThatThrownBy(() -> read("<endpoint xmlns=\"" + Descriptor.NS + "\"/>"))
        .hasMessageContaining("line 1: expected <endpoints> in " + Descriptor.NS
            + ", found <endpoint>");
  }

  @Test
  void malformedXmlAndDtdsAreRefusedWithTheirLine() {
    assertThatThrownBy(() -> read(endpoints(
        "<endpoint name=\"e\" implementation=\"a.E\" url-pattern=\"/e\">")))
        .isInstanceOf(DeploymentException.class)
        .hasMessageStartingWith(FILE + ", line 4: not well-formed XML");
    assertThatThrownBy(() -> read("<?xml version=\"1.0\"?>\n<!DOCTYPE endpoints ["
        + "<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<endpoints xmlns=\"" + Descriptor.NS
        + "\">&x;</endpoints>"))
        .isInstanceOf(DeploymentException.class)
        .hasMessageContaining("not well-formed XML (or a DTD, which is refused)");
  }
}
