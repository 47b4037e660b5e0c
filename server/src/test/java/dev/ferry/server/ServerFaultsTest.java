package dev.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.mime.MimeLimits;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapLimits;
import dev.ferry.soap.SoapVersion;
import dev.ferry.xop.XopCodec;
import dev.ferry.xop.XopLimits;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the server answers to requests it cannot serve, as the SOAP HTTP bindings say. */
class ServerFaultsTest {
  private static final String NS = "urn:ferry:test";
  private static final String WSDL = "<wsdl:definitions xmlns:wsdl=\"http://schemas.xmlsoap.org/"
      + "wsdl/\" xmlns:soap=\"http://schemas.xmlsoap.org/wsdl/soap/\"><wsdl:service name=\"s\">"
      + "<wsdl:port name=\"p\"><soap:address location=\"http://placeholder/\"/></wsdl:port>"
      + "</wsdl:service></wsdl:definitions>";
  private static SoapServer server;
  private static HttpClient http;

  @BeforeAll
  static void start() throws IOException {
    SoapCodec small = SoapCodec.create(SoapLimits.builder().xop(XopLimits.builder()
        .mime(MimeLimits.builder().maxPartBytes(50_000).build()).build()).build(),
        XopCodec.builder());
    server = SoapServer.builder().codec(small)
        .endpoint("/echo", Dispatcher.builder().element(new QName(NS, "testMtom"),
            request -> request.copy().toPayload()).wsdl(WSDL).build())
        .endpoint("/fail", Dispatcher.builder().fallback(req -> {
          throw new IllegalStateException("boom");
        }).build())
        .endpoint("/soap11", Dispatcher.builder().versions(SoapVersion.SOAP_11).fallback(
            request -> request.copy().toPayload()).build())
        .build().start();
    http = HttpClient.newHttpClient();
  }

  @AfterAll
  static void stop() throws IOException {
    http.close();
    server.close();
  }

  private HttpResponse<String> post(String path, String contentType, String body)
      throws Exception {
    return http.send(HttpRequest.newBuilder(server.uri(path)).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String envelope11(String header, String body) {
    return "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">" + header
        + "<s:Body>" + body + "</s:Body></s:Envelope>";
  }

  @Test
  void anUnsupportedMediaTypeIs415() throws Exception {
    assertThat(post("/echo", "application/json", "{}").statusCode()).isEqualTo(415);
  }

  @Test
  void getWithoutWsdlIs405() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri("/echo")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(405);
    assertThat(r.headers().firstValue("Allow")).contains("POST, GET");
  }

  @Test
  void malformedXmlIsAClientFaultWithWhere() throws Exception {
    HttpResponse<String> r = post("/echo", "text/xml", "<s:Envelope xmlns:s=\""
        + "http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><oops></s:Body>");
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.body()).contains("faultcode").contains("Client").contains("malformed");
  }

  @Test
  void anUnknownEnvelopeNamespaceIsVersionMismatch() throws Exception {
    HttpResponse<String> r = post("/echo", "text/xml",
        "<s:Envelope xmlns:s=\"urn:not-soap\"><s:Body/></s:Envelope>");
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.body()).contains("VersionMismatch");
  }

  @Test
  void aMustUnderstandHeaderNobodyKnowsIsAMustUnderstandFault() throws Exception {
    HttpResponse<String> r = post("/echo", "application/soap+xml", "<s:Envelope xmlns:s=\""
        + "http://www.w3.org/2003/05/soap-envelope\"><s:Header><x:Secret xmlns:x=\"urn:x\" "
        + "s:mustUnderstand=\"true\">1</x:Secret></s:Header><s:Body/></s:Envelope>");
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("application/soap+xml");
    assertThat(r.body()).contains("MustUnderstand").contains("Secret");
  }

  @Test
  void anUnknownOperationIsASenderFault() throws Exception {
    HttpResponse<String> r = post("/echo", "application/soap+xml", "<s:Envelope xmlns:s=\""
        + "http://www.w3.org/2003/05/soap-envelope\"><s:Body><x:other xmlns:x=\"urn:x\"/>"
        + "</s:Body></s:Envelope>");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("Sender").contains("no operation here").contains("other");
  }

  @Test
  void anEndpointFailureIsAServerFault() throws Exception {
    HttpResponse<String> r = post("/fail", "text/xml", envelope11("", "<x:op xmlns:x=\"urn:x\"/>"));
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.body()).contains("Server").contains("boom")
        .doesNotContain("IllegalStateException").doesNotContain("java.");
  }

  @Test
  void anEnvelopeOfAnotherVersionThanItsMediaTypeOrItsEndpointIsVersionMismatch()
      throws Exception {
    String s12 = "<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body>"
        + "<x:op xmlns:x=\"urn:x\"/></s:Body></s:Envelope>";
    HttpResponse<String> r = post("/fail", "text/xml", s12);
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.body()).contains("VersionMismatch").contains("the envelope is SOAP 1.2 but its"
        + " Content-Type text/xml says SOAP 1.1").doesNotContain("boom");
    r = post("/fail", "application/soap+xml", envelope11("", "<x:op xmlns:x=\"urn:x\"/>"));
    assertThat(r.body()).contains("VersionMismatch").contains("soap-envelope\"");
    // a SOAP 1.1 endpoint answers a SOAP 1.2 request in SOAP 1.1, as CXF does
    r = post("/soap11", "application/soap+xml", s12);
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/xml");
    assertThat(r.body()).contains("http://schemas.xmlsoap.org/soap/envelope/")
        .contains("VersionMismatch").contains("this endpoint speaks SOAP 1.1");
    assertThat(post("/soap11", "text/xml", envelope11("", "<x:op xmlns:x=\"urn:x\"/>"))
        .statusCode()).isEqualTo(200);
  }

  @Test
  void aTransferCodingOtherThanChunkedIs501AndAFaultsBytesAreLogged() throws Exception {
    String body = envelope11("", "<x:op xmlns:x=\"urn:x\"/>");
    String head = "POST /soap11 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml\r\n"
        + "Transfer-Encoding: gzip, chunked\r\n\r\n";
    String chunked = Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write((head + chunked).getBytes(StandardCharsets.US_ASCII));
      String status = new java.io.BufferedReader(new java.io.InputStreamReader(
          s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
      assertThat(status).contains("501");
    }
    List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Logger access = java.util.logging.Logger.getLogger("dev.ferry.access");
    java.util.logging.Handler h = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        lines.add(r.getMessage());
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    java.util.logging.Level level = access.getLevel();
    access.setLevel(java.util.logging.Level.INFO);
    access.addHandler(h);
    try {
      HttpResponse<String> r = post("/fail", "text/xml", body);
      assertThat(r.statusCode()).isEqualTo(500);
      int bytes = r.body().getBytes(StandardCharsets.UTF_8).length;
      String logged = "\"POST /fail\" 500";
      long deadline = System.nanoTime() + 10_000_000_000L; // the line comes after the reply
      while (lines.stream().noneMatch(l -> l.contains(logged)) && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(lines).anyMatch(l -> l.contains(logged) && l.contains("out=" + bytes + " "));
    } finally {
      access.removeHandler(h);
      access.setLevel(level);
    }
  }


  @Test
  void healthAndMetricsAnswer() throws Exception {
    HttpResponse<String> health = http.send(HttpRequest.newBuilder(server.uri("/health"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(health.body()).contains("UP");
    post("/echo", "application/json", "{}");
    HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(
        URI.create(server.uri("/metrics").toString())).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.body()).contains("ferry_server_in_flight").contains("ferry_spool_file_bytes")
        .contains("ferry_server_latency_seconds");
  }


  @Test
  void aBodyWithNoElementIsASenderFaultThatSaysSo() throws Exception {
    for (String body : new String[] {"", "<!-- only a comment -->", "  \n  "}) {
      HttpResponse<String> r = post("/echo", "text/xml", envelope11("", body));
      assertThat(r.statusCode()).as(body).isEqualTo(500);
      assertThat(r.body()).as(body).contains("Client").contains("holds no element")
          .doesNotContain("Exception");
    }
  }

  @Test
  void twoBodiesAreASenderFaultThatSaysSo() throws Exception {
    HttpResponse<String> r = post("/echo", "text/xml", envelope11("",
        "<x:a xmlns:x=\"urn:x\"/>").replace("</s:Envelope>",
        "<s:Body><x:b xmlns:x=\"urn:x\"/></s:Body></s:Envelope>"));
    assertThat(r.statusCode()).isEqualTo(500);
    assertThat(r.body()).contains("Client").contains("after the Body")
        .doesNotContain("Exception");
  }

  @Test
  void anAttributeLimitInTheBodyIsASenderFaultNamingIt() throws Exception {
    String longValue = "<t:testMtom xmlns:t=\"" + NS + "\" a=\""
        + "v".repeat(100_000) + "\"/>";
    StringBuilder many = new StringBuilder("<t:testMtom xmlns:t=\"" + NS
        + "\"");
    for (int i = 0; i < 10_000; i++) {
      many.append(" a").append(i).append("=\"1\"");
    }
    many.append("/>");
    String deep = "<a>".repeat(200) + "</a>".repeat(200);
    String[][] cases = {{longValue, "XmlLimits.maxAttributeBytes"},
        {many.toString(), "XmlLimits.maxAttributesPerElement"}, {deep, "XmlLimits.maxDepth"}};
    for (String[] c : cases) {
      HttpResponse<String> r = post("/echo", "application/soap+xml", envelope11("", c[0])
          .replace("http://schemas.xmlsoap.org/soap/envelope/",
              "http://www.w3.org/2003/05/soap-envelope"));
      assertThat(r.statusCode()).as(c[1]).isEqualTo(400);
      assertThat(r.body()).as(c[1]).contains("Sender").contains(c[1]).contains("LimitExceeded")
          .doesNotContain("IOException");
    }
  }

  /** An MTOM request whose one xop:Include points at {@code href}; the package has part a@x. */
  private static String mtomWithInclude(String href) {
    return "--b\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\n"
        + "Content-ID: <root@x>\r\n\r\n" + envelope11("", "<t:testMtom xmlns:t=\""
        + NS + "\"><t:name>n</t:name><t:attachinfo><xop:Include xmlns:xop="
        + "\"http://www.w3.org/2004/08/xop/include\" href=\"" + href + "\"/></t:attachinfo>"
        + "</t:testMtom>") + "\r\n--b\r\nContent-Type: application/octet-stream\r\n"
        + "Content-ID: <a@x>\r\n\r\nhello\r\n--b--\r\n";
  }

  static final String MTOM_TYPE = "multipart/related; boundary=b; type=\"application/xop+xml\";"
      + " start=\"<root@x>\"; start-info=\"text/xml\"";

  @Test
  void anIncludeOfAMissingPartTheRootOrAnotherSchemeIsASenderFault() throws Exception {
    assertThat(post("/echo", MTOM_TYPE, mtomWithInclude("cid:a@x")).statusCode())
        .isEqualTo(200);
    String[][] cases = {{"cid:missing@x", "which no part of the package has"},
        {"cid:root@x", "the root part itself"}, {"file:///etc/passwd", "not a cid: URL"},
        {"http://127.0.0.1:9/x", "not a cid: URL"}};
    for (String[] c : cases) {
      HttpResponse<String> r = post("/echo", MTOM_TYPE, mtomWithInclude(c[0]));
      assertThat(r.statusCode()).as(c[0]).isEqualTo(500);
      assertThat(r.body()).as(c[0]).contains("Client").contains(c[1]).doesNotContain("root:x:0");
    }
  }

  @Test
  void servesTheWsdlWithItsOwnAddress() throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(
        URI.create(server.uri("/echo") + "?wsdl")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("location=\"" + server.uri("/echo") + "\"")
        .doesNotContain("placeholder");
  }
}
