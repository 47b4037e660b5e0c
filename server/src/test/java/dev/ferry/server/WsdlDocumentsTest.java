package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarOutputStream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A contract over several files, served as CXF serves one: the WSDL at ?wsdl, what it imports at
 * ?wsdl=KEY and ?xsd=KEY, every relative location (nested, with "..", an include, a cycle)
 * rewritten to the service's address, absolute ones left alone, and nothing else reachable.
 */
class WsdlDocumentsTest {
  private static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
  private static final String XSD_NS = "http://www.w3.org/2001/XMLSchema";
  private static final String ADDRESS = "http://host:8080/orders";

  @TempDir
  Path dir;

  /** wsdl/orders.wsdl > binding/orders-binding.wsdl > ../../types/orders.xsd > common.xsd. */
  private Path contract() throws IOException {
    write("wsdl/orders.wsdl", definitions("<wsdl:import namespace=\"urn:b\""
        + " location=\"binding/orders-binding.wsdl\"/><wsdl:service name=\"Orders\"><wsdl:port"
        + " name=\"p\" binding=\"b:B\" xmlns:b=\"urn:b\"><soap:address location=\"http://x/\"/>"
        + "</wsdl:port></wsdl:service>"));
    write("wsdl/binding/orders-binding.wsdl", definitions("<wsdl:types><xsd:schema"
        + " xmlns:xsd=\"" + XSD_NS + "\"><xsd:import namespace=\"urn:t\""
        + " schemaLocation=\"../../types/orders.xsd\"/></xsd:schema></wsdl:types>"));
    write("types/orders.xsd", schema("urn:t", "<xsd:include schemaLocation=\"./common.xsd\"/>"
        + "<xsd:import namespace=\"http://www.w3.org/2005/08/addressing\""
        + " schemaLocation=\"http://www.w3.org/2006/03/addressing/ws-addr.xsd\"/>"
        + "<xsd:element name=\"order\" type=\"xsd:string\"/>"));
    write("types/common.xsd", schema("urn:t", "<xsd:include schemaLocation=\"orders.xsd\"/>"
        + "<xsd:element name=\"code\" type=\"xsd:int\"/>"));
    return dir.resolve("wsdl/orders.wsdl");
  }

  @Test
  void everyRelativeLocationIsServedAtTheServicesAddress() throws Exception {
    WsdlDocuments docs = WsdlDocuments.load(contract().toUri().toURL());
    assertThat(docs.wsdlKeys()).containsExactly("binding/orders-binding.wsdl");
    assertThat(docs.schemaKeys()).containsExactly("../types/orders.xsd", "../types/common.xsd");

    String wsdl = docs.document("wsdl", ADDRESS);
    assertThat(wsdl).contains("location=\"" + ADDRESS + "?wsdl=binding/orders-binding.wsdl\"")
        .contains("<soap:address location=\"" + ADDRESS + "\"/>");
    assertThat(docs.document("wsdl=binding/orders-binding.wsdl", ADDRESS))
        .contains("schemaLocation=\"" + ADDRESS + "?xsd=../types/orders.xsd\"");
    String types = docs.document("xsd=../types/orders.xsd", ADDRESS);
    assertThat(types).contains("schemaLocation=\"" + ADDRESS + "?xsd=../types/common.xsd\"")
        .contains("schemaLocation=\"http://www.w3.org/2006/03/addressing/ws-addr.xsd\"")
        .contains("name=\"order\"");
    assertThat(docs.document("XSD=..%2Ftypes%2Fcommon.xsd", ADDRESS))
        .contains("schemaLocation=\"" + ADDRESS + "?xsd=../types/orders.xsd\"")
        .contains("name=\"code\"");
    assertThat(docs.document("xsd=../../etc/passwd", ADDRESS)).isNull();
    assertThat(docs.document("xsd=orders.wsdl", ADDRESS)).isNull();
    assertThat(docs.document("wsdl=../types/orders.xsd", ADDRESS)).isNull();
  }

  @Test
  void aWsdlWithoutRelativeImportsIsServedAsItIs() throws Exception {
    String text = definitions("<wsdl:types><xsd:schema xmlns:xsd=\"" + XSD_NS + "\">"
        + "<xsd:import namespace=\"urn:x\"/></xsd:schema></wsdl:types>");
    write("one.wsdl", text);
    WsdlDocuments docs = WsdlDocuments.load(dir.resolve("one.wsdl").toUri().toURL());
    assertThat(docs.document("wsdl", ADDRESS)).isEqualTo(text);
    assertThat(docs.schemaKeys()).isEmpty();
  }

  @Test
  void theDocumentsLoadFromAJarAsFromAFolder() throws Exception {
    contract();
    Path jar = dir.resolve("contract.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
      for (String f : new String[] {"wsdl/orders.wsdl", "wsdl/binding/orders-binding.wsdl",
          "types/orders.xsd", "types/common.xsd"}) {
        out.putNextEntry(new ZipEntry("META-INF/" + f));
        out.write(Files.readAllBytes(dir.resolve(f)));
        out.closeEntry();
      }
    }
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
      URL url = loader.getResource("META-INF/wsdl/orders.wsdl");
      assertThat(url.getProtocol()).isEqualTo("jar");
      WsdlDocuments docs = WsdlDocuments.load(url);
      assertThat(docs.schemaKeys()).containsExactly("../types/orders.xsd",
          "../types/common.xsd");
      assertThat(docs.document("xsd=../types/common.xsd", ADDRESS)).contains("name=\"code\"");
    }
  }

  @Test
  void aMissingSchemaIsNamedWithTheDocumentImportingIt() throws Exception {
    contract();
    Files.delete(dir.resolve("types/common.xsd"));
    assertThatThrownBy(() -> WsdlDocuments.load(dir.resolve("wsdl/orders.wsdl").toUri()
        .toURL())).isInstanceOf(IOException.class)
        .hasMessageContaining("types/common.xsd")
        .hasMessageContaining("imported by " + dir.resolve("types/orders.xsd").toUri().toURL());
  }

  @Test
  void aDocumentWithADtdIsRefused() throws Exception {
    write("dtd.wsdl", "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x SYSTEM \"file:///etc/"
        + "passwd\">]>" + definitions("<wsdl:documentation>&x;</wsdl:documentation>"));
    assertThatThrownBy(() -> WsdlDocuments.load(dir.resolve("dtd.wsdl").toUri().toURL()))
        .isInstanceOf(IOException.class).hasMessageContaining("DOCTYPE");
  }

  @Test
  void aChainOfMaxDocumentsLoadsAndOneMoreIsRefused() throws Exception {
    int schemas = WsdlDocuments.MAX_DOCUMENTS - 1;
    write("chain.wsdl", definitions("<wsdl:types><xsd:schema xmlns:xsd=\"" + XSD_NS + "\">"
        + "<xsd:import namespace=\"urn:s\" schemaLocation=\"s1.xsd\"/></xsd:schema>"
        + "</wsdl:types>"));
    for (int i = 1; i <= schemas; i++) {
      write("s" + i + ".xsd", schema("urn:s", "<xsd:include schemaLocation=\"s" + (i + 1)
          + ".xsd\"/>"));
    }
    write("s" + (schemas + 1) + ".xsd", schema("urn:s", ""));
    URL url = dir.resolve("chain.wsdl").toUri().toURL();
    assertThatThrownBy(() -> WsdlDocuments.load(url)).isInstanceOf(IOException.class)
        .hasMessageContaining("more than " + WsdlDocuments.MAX_DOCUMENTS + " documents");
    write("s" + schemas + ".xsd", schema("urn:s", ""));
    assertThat(WsdlDocuments.load(url).schemaKeys()).hasSize(schemas);
  }

  @Test
  void aDocumentOverTheSizeLimitIsRefused() throws Exception {
    write("big.wsdl", definitions("<wsdl:types><xsd:schema xmlns:xsd=\"" + XSD_NS + "\">"
        + "<xsd:import namespace=\"urn:s\" schemaLocation=\"big.xsd\"/></xsd:schema>"
        + "</wsdl:types>"));
    String padding = "<!--" + "x".repeat(WsdlDocuments.MAX_DOCUMENT_BYTES) + "-->";
    write("big.xsd", schema("urn:s", padding));
    assertThatThrownBy(() -> WsdlDocuments.load(dir.resolve("big.wsdl").toUri().toURL()))
        .isInstanceOf(IOException.class).hasMessageContaining("big.xsd is larger than "
            + WsdlDocuments.MAX_DOCUMENT_BYTES + " bytes");
  }

  @Test
  void theServerServesEachDocumentAndAnswers404ForOthers() throws Exception {
    WsdlDocuments docs = WsdlDocuments.load(contract().toUri().toURL());
    try (SoapServer server = SoapServer.builder().port(0).endpoint("/orders",
            Dispatcher.builder().fallback(request -> null).wsdl(docs).build()).build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      String base = server.uri("/orders").toString();
      HttpResponse<String> types = get(http, base + "?xsd=../types/orders.xsd");
      assertThat(types.statusCode()).isEqualTo(200);
      assertThat(types.headers().firstValue("Content-Type")).hasValueSatisfying(
          t -> assertThat(t).startsWith("text/xml"));
      assertThat(types.body()).contains("schemaLocation=\"" + base + "?xsd=../types/common.xsd\"");
      assertThat(get(http, base + "?wsdl").body()).contains("<soap:address location=\"" + base
          + "\"/>");
      assertThat(get(http, base + "?xsd=../types/nothing.xsd").statusCode()).isEqualTo(404);
      assertThat(get(http, base + "?xsd=%2Fetc%2Fpasswd").statusCode()).isEqualTo(404);
      assertThat(get(http, base + "?other").statusCode()).isEqualTo(405);
    }
  }

  private static HttpResponse<String> get(HttpClient http, String uri) throws Exception {
    return http.send(HttpRequest.newBuilder(java.net.URI.create(uri)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private void write(String path, String text) throws IOException {
    Path p = dir.resolve(path);
    Files.createDirectories(p.getParent());
    try (OutputStream out = Files.newOutputStream(p)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String definitions(String content) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><wsdl:definitions xmlns:wsdl=\"" + WSDL_NS
        + "\" xmlns:soap=\"http://schemas.xmlsoap.org/wsdl/soap/\" targetNamespace=\"urn:o\">"
        + content + "</wsdl:definitions>";
  }

  private static String schema(String ns, String content) {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><xsd:schema xmlns:xsd=\"" + XSD_NS
        + "\" targetNamespace=\"" + ns + "\">" + content + "</xsd:schema>";
  }
}
