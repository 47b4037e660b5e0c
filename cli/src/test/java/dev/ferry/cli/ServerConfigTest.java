package dev.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  private static final String REPLY = "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/"
      + "soap-envelope\"><s:Body><q:quote xmlns:q=\"urn:q\">42</q:quote></s:Body></s:Envelope>";

  @Test
  void anEndpointCanRequireWsSecurity(@TempDir Path dir) throws Exception {
    Path yaml = Files.writeString(dir.resolve("endpoints.yaml"), """
        endpoints:
          - path: /echo
            service: echo
            wsSecurity:
              inbound: {timestamp: 5m}
        """);
    SoapServer.Builder builder = SoapServer.builder();
    ServerConfig.apply(yaml, CODEC, builder);
    try (SoapServer server = builder.build().start();
        SoapClient client = SoapClient.create();
        SoapResponse r = client.call(server.uri("/echo"), EchoService.request(CODEC,
            SoapVersion.SOAP_11, MtomPolicy.NEVER, "n", ByteString.of(new byte[10])), null)) {
      assertThat(r.fault().code().getLocalPart()).isEqualTo("InvalidSecurity");
    }
    Path bad = Files.writeString(dir.resolve("bad.yaml"), """
        endpoints:
          - path: /echo
            service: echo
            wsSecurity: {inbound: {timestamp: later}}
        """);
    assertThatThrownBy(() -> ServerConfig.apply(bad, CODEC, SoapServer.builder()))
        .hasMessageContaining("endpoints[0].wsSecurity: inbound.timestamp: expected a duration");
  }

  @Test
  void servesTheEchoAndAFixedReplyWithItsWsdl(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("reply.xml"), REPLY);
    Files.writeString(dir.resolve("q.wsdl"), "<definitions><soap:address xmlns:soap=\"x\" "
        + "location=\"http://old/\"/></definitions>");
    Path yaml = Files.writeString(dir.resolve("endpoints.yaml"), """
        endpoints:
          - path: /echo
            service: echo
          - path: /quotes
            reply: reply.xml
            wsdl: q.wsdl
        """);
    SoapServer.Builder builder = SoapServer.builder();
    assertThat(ServerConfig.apply(yaml, CODEC, builder)).containsExactly("/echo", "/quotes");
    try (SoapServer server = builder.build().start();
        SoapClient client = SoapClient.create()) {
      try (SoapResponse r = client.call(server.uri("/quotes"), EchoService.request(CODEC,
          SoapVersion.SOAP_12, MtomPolicy.ALWAYS, "any", ByteString.of(new byte[3000])), null)) {
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.message().toByteString().utf8()).isEqualTo(REPLY);
      }
      try (SoapResponse r = client.call(server.uri("/echo"), EchoService.request(CODEC,
          SoapVersion.SOAP_11, MtomPolicy.NEVER, "n", ByteString.of(new byte[10])), null)) {
        assertThat(EchoService.readEcho(r.message()).name()).isEqualTo("n");
      }
      try (HttpClient http = HttpClient.newHttpClient()) {
        HttpResponse<String> wsdl = http.send(HttpRequest.newBuilder(
            URI.create(server.uri("/quotes") + "?wsdl")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(wsdl.body()).contains("location=\"" + server.uri("/quotes") + "\"");
      }
    }
  }

  @Test
  void aWsdlIsServedWithTheSchemaItImports(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("reply.xml"), REPLY);
    Files.createDirectories(dir.resolve("types"));
    Files.writeString(dir.resolve("types/q.xsd"), "<xs:schema xmlns:xs=\"http://www.w3.org/2001"
        + "/XMLSchema\" targetNamespace=\"urn:q\"><xs:element name=\"quote\" type=\"xs:int\"/>"
        + "</xs:schema>");
    Files.writeString(dir.resolve("q.wsdl"), "<w:definitions xmlns:w=\"http://schemas.xmlsoap"
        + ".org/wsdl/\"><w:types><xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\">"
        + "<xs:import namespace=\"urn:q\" schemaLocation=\"types/q.xsd\"/></xs:schema>"
        + "</w:types></w:definitions>");
    SoapServer.Builder builder = SoapServer.builder();
    apply(dir, "endpoints:\n  - path: /quotes\n    reply: reply.xml\n    wsdl: q.wsdl\n",
        builder);
    try (SoapServer server = builder.build().start();
        HttpClient http = HttpClient.newHttpClient()) {
      String base = server.uri("/quotes").toString();
      assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "?wsdl")).build(),
          HttpResponse.BodyHandlers.ofString()).body())
          .contains("schemaLocation=\"" + base + "?xsd=types/q.xsd\"");
      assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "?xsd=types/q.xsd"))
          .build(), HttpResponse.BodyHandlers.ofString()).body()).contains("name=\"quote\"");
    }
    Files.delete(dir.resolve("types/q.xsd"));
    assertThatThrownBy(() -> apply(dir, "endpoints:\n  - path: /q\n    reply: reply.xml\n"
        + "    wsdl: q.wsdl\n", SoapServer.builder())).hasMessageContaining("types/q.xsd");
  }

  @Test
  void namesWhatIsWrong(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("not-soap.xml"), "<html/>");
    assertThatThrownBy(() -> apply(dir, "endpoints:\n  - path: /a\n    reply: not-soap.xml\n"))
        .hasMessageContaining("endpoints[0].reply").hasMessageContaining("not a SOAP envelope");
    assertThatThrownBy(() -> apply(dir, "endpoints:\n  - path: /a\n    reply: missing.xml\n"))
        .hasMessageContaining("endpoints[0].reply").hasMessageContaining("missing.xml");
    assertThatThrownBy(() -> apply(dir, "endpoints:\n  - path: /a\n    service: stock\n"))
        .hasMessageContaining("the only built-in service is echo");
    assertThatThrownBy(() -> apply(dir, "endpoints:\n  - path: a\n    service: echo\n"))
        .hasMessageContaining("endpoints[0].path");
    assertThatThrownBy(() -> apply(dir, "endpoints:\n  - path: /a\n"))
        .hasMessageContaining("either service: echo or reply: FILE");
    assertThatThrownBy(() -> apply(dir, "endpoints:\n  - path: /a\n    servce: echo\n"))
        .hasMessageContaining("unknown key \"servce\"");
    assertThatThrownBy(() -> apply(dir, "routes: []\n")).hasMessageContaining("endpoints:");
  }

  private static void apply(Path dir, String yaml) throws IOException {
    apply(dir, yaml, SoapServer.builder());
  }

  private static void apply(Path dir, String yaml, SoapServer.Builder builder)
      throws IOException {
    ServerConfig.apply(Files.writeString(dir.resolve("e.yaml"), yaml), CODEC, builder);
  }
}
