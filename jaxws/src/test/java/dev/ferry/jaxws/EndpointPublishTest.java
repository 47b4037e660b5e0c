package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.soap.Fault;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.Blobs;
import dev.ferry.xop.Attachment;
import dev.ferry.xop.MtomPolicy;
import jakarta.xml.ws.Endpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * JAX-WS implementations published with {@code Endpoint.publish} on Ferry's server, called with
 * Ferry's plain SOAP client and hand-written messages: what goes over the wire is checked here.
 */
class EndpointPublishTest {
  static final String TYPES = "http://cxf.apache.org/mime/types";
  static final SoapCodec CODEC = SoapCodec.create();
  static final EchoImpl ECHO = new EchoImpl();
  static Endpoint echo;
  static Endpoint shapes;
  static Endpoint bank;
  static URI echoUri;
  static URI shapesUri;
  static URI bankUri;
  static SoapClient client;

  @BeforeAll
  static void publish() {
    String at = Ports.url("");
    echoUri = URI.create(at + "/echo");
    shapesUri = URI.create(at + "/shapes");
    bankUri = URI.create(at + "/bank");
    echo = Endpoint.publish(echoUri.toString(), ECHO);
    shapes = Endpoint.publish(shapesUri.toString(), new ShapesImpl());
    bank = Endpoint.publish(bankUri.toString(), new Bank());
    client = SoapClient.create();
  }

  @AfterAll
  static void stop() {
    client.close();
    echo.stop();
    shapes.stop();
    bank.stop();
  }

  @Test
  void theProviderIsFerrysAndTheEndpointIsPublished() {
    assertThat(jakarta.xml.ws.spi.Provider.provider()).isInstanceOf(FerryProvider.class);
    assertThat(echo.isPublished()).isTrue();
  }

  @Test
  void anMtomEchoComesBackAttachedFromTheRequestsSpool() throws Exception {
    byte[] blob = Blobs.random(200_000, 5);
    try (SoapResponse r = client.call(echoUri, testMtom(MtomPolicy.ALWAYS, "n", blob),
        "urn:testMtom")) {
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.contentType()).startsWith("multipart/related")
          .contains("application/xop+xml");
      String envelope = r.message().toByteString().utf8();
      assertThat(envelope).contains("testMtomResponse").contains("<ns2:name>n</ns2:name>")
          .contains("xop:Include");
      Attachment a = r.buffer().attachments().attachments().iterator().next();
      assertThat(a.bytes().toByteArray()).isEqualTo(blob);
    }
    assertThat(ECHO.handedAnAttachment).as("the endpoint got the spooled attachment").isTrue();
    assertThat(ECHO.operation).isEqualTo(new QName("http://cxf.apache.org/mime", "testMtom"));
  }

  @Test
  void aPlainRequestGetsAPlainReplyWithTheBlobInline() throws Exception {
    byte[] blob = Blobs.random(3000, 6);
    try (SoapResponse r = client.call(echoUri, testMtom(MtomPolicy.NEVER, "plain", blob), "")) {
      assertThat(r.contentType()).startsWith("text/xml");
      assertThat(r.message().toByteString().utf8())
          .contains(ByteString.of(blob).base64());
    }
  }

  @Test
  void theContextShowsTheHttpRequest() throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      Payload p = testMtom(MtomPolicy.NEVER, "ctx", new byte[3]);
      java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
      p.writeTo(body);
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(echoUri)
          .header("Content-Type", p.contentType()).header("X-Tenant", "acme")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
    }
    assertThat(ECHO.tenant).isEqualTo("acme");
    assertThat(ECHO.remoteAddress).isEqualTo("127.0.0.1");
  }

  @Test
  void soap12EndpointWithHeaderListAndOutParts() throws Exception {
    String body = "<ns1:count xmlns:ns1=\"urn:shapes\"><words>a</words><words>ccc</words>"
        + "<words>bb</words></ns1:count>";
    String header = "<t:tenant xmlns:t=\"urn:shapes\">acme</t:tenant>";
    try (SoapResponse r = client.call(shapesUri, raw(SoapVersion.SOAP_12, header, body),
        null)) {
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.contentType()).startsWith("application/soap+xml");
      assertThat(r.message().toByteString().utf8()).contains("<count>3</count>")
          .contains("<longest>acme:ccc</longest>");
    }
  }

  @Test
  void bareAndRpcOperations() throws Exception {
    try (SoapResponse r = client.call(shapesUri, raw(SoapVersion.SOAP_12, "",
        "<s:person xmlns:s=\"urn:shapes\">Ada</s:person>"), null)) {
      assertThat(r.message().toByteString().utf8()).contains("greeting")
          .contains("Hello, Ada");
    }
    try (SoapResponse r = client.call(shapesUri, raw(SoapVersion.SOAP_12, "",
        "<s:total xmlns:s=\"urn:shapes\"><values><item>2</item><item>40</item></values>"
            + "</s:total>"), // an RPC array: one part of JAXB's array type, as CXF sends it
        null)) {
      assertThat(r.message().toByteString().utf8()).contains("totalResponse")
          .contains("<sum>42</sum>");
    }
  }

  @Test
  void aDeclaredFaultCarriesItsBeanAndACodeFirstOneItsProperties() throws Exception {
    Fault f = fault(withdraw("bogus", 1));
    assertThat(f.code()).isEqualTo(SoapVersion.SOAP_11.receiverFaultCode());
    assertThat(f.reason()).isEqualTo("no account bogus");
    assertThat(f.detail()).isEqualTo("bogus");
    try (SoapResponse r = client.call(bankUri, withdraw("bogus", 1), null)) {
      assertThat(r.message().toByteString().utf8()).contains("noSuchAccount")
          .contains("<account>bogus</account>");
    }
    Fault over = fault(withdraw("a", 500));
    assertThat(over.reason()).isEqualTo("balance 100 < 500");
    assertThat(over.detail()).isEmpty(); // its one property, the message, is the reason
    try (SoapResponse r = client.call(bankUri, withdraw("a", 500), null)) {
      assertThat(r.message().toByteString().utf8()).contains("<detail><ns2:Overdrawn");
    }
  }

  @Test
  void soapFaultExceptionsKeepTheirCodeAndOtherExceptionsAreServerFaults() throws Exception {
    Fault negative = fault(withdraw("a", -1));
    assertThat(negative.code()).isEqualTo(new QName("urn:bank", "NegativeAmount"));
    assertThat(negative.reason()).isEqualTo("amounts are positive");
    Fault zero = fault(withdraw("a", 0));
    assertThat(zero.code()).isEqualTo(SoapVersion.SOAP_11.receiverFaultCode());
    assertThat(zero.reason()).isEqualTo("zero");
  }

  @Test
  void anUnknownOperationIsAClientFault() throws Exception {
    Fault f = fault(raw(SoapVersion.SOAP_11, "", "<b:transfer xmlns:b=\"urn:bank\"/>"));
    assertThat(f.code()).isEqualTo(SoapVersion.SOAP_11.senderFaultCode());
    assertThat(f.reason()).contains("no operation here");
  }

  @Test
  void aValueThatDoesNotParseIsASenderFaultNamingIt() throws Exception {
    try (SoapResponse r = client.call(shapesUri, raw(SoapVersion.SOAP_12, "",
        "<s:add xmlns:s=\"urn:shapes\"><arg0>abc</arg0><arg1>3</arg1></s:add>"), null)) {
      assertThat(r.status()).isEqualTo(400);
      Fault f = r.fault();
      assertThat(f.code()).isEqualTo(SoapVersion.SOAP_12.senderFaultCode());
      assertThat(f.reason()).contains("add").contains("arg0").contains("abc");
    }
  }

  @Test
  void theGeneratedWsdlDescribesTheOperationsAndFaults() throws Exception {
    String wsdl = get(URI.create(bankUri + "?wsdl"));
    assertThat(wsdl).contains("<wsdl:operation name=\"withdraw\">")
        .contains("element name=\"withdraw\"").contains("name=\"amount\" type=\"xsd:long\"")
        .contains("noSuchAccount").contains("name=\"Overdrawn\"")
        .contains("soap:address location=\"" + bankUri + "\"");
    String shapesWsdl = get(URI.create(shapesUri + "?wsdl"));
    assertThat(shapesWsdl).contains("http://schemas.xmlsoap.org/wsdl/soap12/")
        .contains("maxOccurs=\"unbounded\"").contains("soap:header");
  }

  private static String get(URI uri) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      return r.body();
    }
  }

  private static Payload withdraw(String account, long amount) {
    return raw(SoapVersion.SOAP_11, "", "<b:withdraw xmlns:b=\"urn:bank\"><account>" + account
        + "</account><amount>" + amount + "</amount></b:withdraw>");
  }

  private static Fault fault(Payload request) throws IOException {
    try (SoapResponse r = client.call(request == null ? null : bankUri, request, null)) {
      assertThat(r.status()).isEqualTo(500);
      return r.fault();
    }
  }

  static Payload testMtom(MtomPolicy policy, String name, byte[] blob) {
    return CODEC.payload(SoapVersion.SOAP_11, policy, List.of(), body -> {
      body.writeStartElement("t", "testMtom", TYPES);
      body.writeNamespace("t", TYPES);
      body.writeStartElement("t", "name", TYPES);
      body.writeCharacters(name);
      body.writeEndElement();
      body.writeStartElement("t", "attachinfo", TYPES);
      body.writeBinary(blob, 0, blob.length, "application/octet-stream");
      body.writeEndElement();
      body.writeEndElement();
    });
  }

  static Payload raw(SoapVersion version, String headerXml, String bodyXml) {
    String env = version.namespace();
    String xml = "<s:Envelope xmlns:s=\"" + env + "\">" + (headerXml.isEmpty() ? ""
        : "<s:Header>" + headerXml + "</s:Header>") + "<s:Body>" + bodyXml
        + "</s:Body></s:Envelope>";
    return new Payload() {
      @Override
      public String contentType() {
        return version.mediaType() + "; charset=UTF-8";
      }

      @Override
      public void writeTo(java.io.OutputStream out) throws IOException {
        out.write(xml.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    };
  }
}
