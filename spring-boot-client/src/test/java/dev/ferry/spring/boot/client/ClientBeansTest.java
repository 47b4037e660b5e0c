package dev.ferry.spring.boot.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.client.SoapResponse;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TlsSettings;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.xop.MtomPolicy;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.xml.namespace.QName;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.wss4j.common.ConfigurationConstants;
import org.apache.wss4j.common.ext.WSPasswordCallback;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Named client beans from properties calling CXF's server: a typed port whose messages carry
 * a WS-Security UsernameToken and Timestamp that CXF's WSS4J checks, one without (refused), and
 * a {@code SoapService} over TLS from an SSL bundle to Ferry's own server.
 */
@SpringBootTest(classes = ClientBeansTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.NONE)
class ClientBeansTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  private static final TestPki PKI = TestPki.create("CN=Client test CA");
  private static org.apache.cxf.endpoint.Server cxf;
  private static String cxfAddress;
  private static SoapServer tlsServer;
  private static Path caPem;

  @BeforeAll
  static void servers() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    cxfAddress = "http://127.0.0.1:" + port + "/quotes";
    JaxWsServerFactoryBean f = new JaxWsServerFactoryBean();
    f.setServiceClass(QuotesImpl.class);
    f.setServiceBean(new QuotesImpl());
    f.setAddress(cxfAddress);
    Map<String, Object> in = new HashMap<>();
    in.put(ConfigurationConstants.ACTION, "UsernameToken Timestamp");
    in.put(ConfigurationConstants.PASSWORD_TYPE, "PasswordDigest");
    in.put(ConfigurationConstants.PW_CALLBACK_REF, (javax.security.auth.callback.CallbackHandler)
        callbacks -> {
          for (Callback c : callbacks) {
            WSPasswordCallback pc = (WSPasswordCallback) c;
            if (pc.getIdentifier().equals("alice")) {
              pc.setPassword("wonderland");
            }
          }
        });
    f.getInInterceptors().add(new WSS4JInInterceptor(in));
    cxf = f.create();

    TestPki.Credential server = PKI.issue("CN=localhost").dns("localhost").ip("127.0.0.1")
        .make();
    caPem = TestPki.writePem(Files.createTempFile("client-test-ca", ".pem"),
        PKI.certificate());
    SoapCodec codec = SoapCodec.create();
    tlsServer = SoapServer.builder().port(0)
        .tls(TlsSettings.builder().identity(KeyMaterial.of(server.key(), server.chain()))
            .build())
        .endpoint("/echo", Dispatcher.builder().element(new QName("urn:echo", "ping"),
            request -> codec.payload(request.version(), MtomPolicy.NEVER, List.of(), body -> {
              body.writeStartElement("e", "pong", "urn:echo");
              body.writeNamespace("e", "urn:echo");
              body.writeEndElement();
            })).build())
        .build().start();
  }

  @AfterAll
  static void stop() throws IOException {
    cxf.destroy();
    tlsServer.close();
    Files.deleteIfExists(caPem);
  }

  @DynamicPropertySource
  static void clients(DynamicPropertyRegistry r) {
    r.add("ferry.clients.quotes.address", () -> cxfAddress);
    r.add("ferry.clients.quotes.service-interface", Quotes.class::getName);
    r.add("ferry.clients.quotes.timeout", () -> "5s");
    r.add("ferry.clients.quotes.ws-security.username", () -> "alice");
    r.add("ferry.clients.quotes.ws-security.password", () -> "wonderland");
    r.add("ferry.clients.quotes.ws-security.timestamp", () -> "5m");
    r.add("ferry.clients.bare.address", () -> cxfAddress);
    r.add("ferry.clients.bare.service-interface", Quotes.class::getName);
    r.add("ferry.clients.echo.address", () -> tlsServer.uri("/echo").toString()
        .replace("http:", "https:"));
    r.add("ferry.clients.echo.ssl-bundle", () -> "peers");
    r.add("spring.ssl.bundle.pem.peers.truststore.certificate", () -> caPem.toUri().toString());
  }

  @Autowired
  @Qualifier("quotes")
  Quotes quotes;
  @Autowired
  @Qualifier("bare")
  Quotes bare;
  @Autowired
  SoapService echo;

  @Test
  void aTypedPortWithWsSecurityIsServedByCxf() {
    assertThat(quotes.price("FERRY")).isEqualTo(52.5);
  }

  @Test
  void aPortWithoutWsSecurityIsRefusedByTheSameService() {
    assertThatThrownBy(() -> bare.price("FERRY")).isInstanceOf(SOAPFaultException.class)
        .hasMessageContaining("security error");
  }

  @Test
  void aSoapServiceCallsOverTlsWithTheBundlesTrust() throws Exception {
    var payload = SoapCodec.create().payload(SoapVersion.SOAP_11, MtomPolicy.NEVER, List.of(),
        body -> {
          body.writeStartElement("e", "ping", "urn:echo");
          body.writeNamespace("e", "urn:echo");
          body.writeEndElement();
        });
    assertThat(echo.address().getScheme()).isEqualTo("https");
    try (SoapResponse reply = echo.call(payload, "")) {
      assertThat(reply.message().body().utf8()).contains("pong");
    }
  }
}
