package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.broker.Broker;
import dev.ferry.broker.Routes;
import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
import dev.ferry.jaxws.GuardFeature;
import dev.ferry.sample.EchoService;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.xop.MtomPolicy;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceFeature;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.cxf.Bus;
import org.apache.cxf.endpoint.Client;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.apache.wss4j.common.crypto.Merlin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WS-Security between Ferry and CXF 4 (WSS4J's DOM implementation, configured as CXF users do,
 * with its interceptors): UsernameToken (digest), Timestamp, X.509 signature of the Body and
 * Timestamp and encryption of the Body, each way; keys and certificates made here. Ferry's side
 * is its own API ({@code Dispatcher}, {@code SoapRequest}) or JAX-WS ({@code GuardFeature}).
 */
class WsSecurityInteropTest {
  private static final SoapCodec CODEC = SoapCodec.create();
  /** What Ferry asks of a request, and sends back. */
  private static final WsSecurityPolicy REQUEST = WsSecurityPolicy.builder()
      .usernameToken(WsSecurityPolicy.Password.DIGEST).timestamp(Duration.ofMinutes(5))
      .signBody().signTimestamp().encryptBody().build();
  private static final WsSecurityPolicy REPLY = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().build();

  private static TestPki pki;
  private static TestPki.Credential client;
  private static TestPki.Credential service;
  private static Bus bus;

  @BeforeAll
  static void start() {
    pki = TestPki.create("CN=Interop WSS CA", TestPki.KeyType.RSA);
    client = pki.issue("CN=client,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    service = pki.issue("CN=service,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    bus = CxfPeer.newBus();
  }

  @AfterAll
  static void stop() {
    bus.shutdown(true);
  }

  /** Ferry's guard as a service: it asks {@link #REQUEST} of alice and answers {@link #REPLY}. */
  private static WsSecurity ferryService() throws java.io.IOException {
    return WsSecurity.builder().inbound(REQUEST).outbound(REPLY).credentials(
        WsSecurityCredentials.builder().passwords(u -> u.equals("alice")
            ? "wonderland".toCharArray() : null)
            .key(KeyMaterial.of(service.key(), service.chain()))
            .trust(TrustMaterial.of(pki.certificate())).build()).build();
  }

  /** Ferry's guard as alice's client: it sends {@link #REQUEST}, asks {@link #REPLY}. */
  private static WsSecurity ferryClient() throws java.io.IOException {
    return WsSecurity.builder().outbound(REQUEST).inbound(REPLY).credentials(
        WsSecurityCredentials.builder().user("alice", "wonderland".toCharArray())
            .key(KeyMaterial.of(client.key(), client.chain()))
            .recipient(service.certificate())
            .trust(TrustMaterial.of(pki.certificate())).build()).build();
  }

  /** CXF's client of the echo at {@code uri}, with WSS4J's interceptors doing {@code out}. */
  private static TestMtomPort cxfClient(java.net.URI uri, String out) throws Exception {
    TestMtomPort port = CxfPeer.client(bus, uri, false);
    Client c = ClientProxy.getClient(port);
    Merlin crypto = CxfSecurity.merlin(pki, client, service.certificate());
    c.getOutInterceptors().add(new WSS4JOutInterceptor(CxfSecurity.out(out, crypto,
        "wonderland")));
    c.getInInterceptors().add(new WSS4JInInterceptor(CxfSecurity.in("Timestamp Signature",
        crypto, "wonderland")));
    return port;
  }

  /** CXF's echo service at {@code uri}, asking Ferry's {@link #REQUEST} of its callers. */
  private static org.apache.cxf.endpoint.Server cxfService(java.net.URI uri) throws Exception {
    Merlin crypto = CxfSecurity.merlin(pki, service, client.certificate());
    JaxWsServerFactoryBean factory = CxfSecurity.echoService(bus, uri, false);
    factory.getInInterceptors().add(new WSS4JInInterceptor(CxfSecurity.in(
        "UsernameToken Timestamp Signature Encrypt", crypto, "wonderland")));
    factory.getOutInterceptors().add(new WSS4JOutInterceptor(CxfSecurity.out(
        "Timestamp Signature", crypto, "wonderland")));
    return factory.create();
  }

  private static void assertEchoes(TestMtomPort port, String text) {
    Holder<String> name = new Holder<>(text);
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(
        "signed, sealed".getBytes())));
    port.testMtom(name, data);
    assertThat(name.value).isEqualTo(text);
    assertThat(Blobs.read(data.value)).isEqualTo("signed, sealed".getBytes());
  }

  /** Ferry's JAX-WS port of the echo contract, calling {@code uri}. */
  private static TestMtomPort ferryPort(java.net.URI uri, WebServiceFeature... features)
      throws java.net.MalformedURLException {
    TestMtomPort port = Service.create(new java.net.URL(CxfPeer.wsdlUrl()),
        EchoContract.SERVICE).getPort(EchoContract.PORT, TestMtomPort.class, features);
    ((BindingProvider) port).getRequestContext().put(
        BindingProvider.ENDPOINT_ADDRESS_PROPERTY, uri.toString());
    return port;
  }

  private static java.net.URI loopback() {
    return java.net.URI.create("http://127.0.0.1:" + JaxWsStack.freePort() + "/echo");
  }

  @Test
  void cxfClientToFerryServer() throws Exception {
    try (SoapServer server = SoapServer.builder().endpoint("/echo", Dispatcher.builder()
        .guard(ferryService()).element(EchoService.REQUEST, EchoService::echo).build()).build()
        .start()) {
      assertEchoes(cxfClient(server.uri("/echo"),
          "UsernameToken Timestamp Signature Encrypt"), "from CXF");
      // without the encryption Ferry's policy asks for, CXF's request is refused (the fault
      // does not say which check failed: that goes to the server's log)
      TestMtomPort unencrypted = cxfClient(server.uri("/echo"),
          "UsernameToken Timestamp Signature");
      assertThatThrownBy(() -> assertEchoes(unencrypted, "x"))
          .isInstanceOf(SOAPFaultException.class).hasMessageContaining("wsse:Security")
          .satisfies(e -> assertThat(((SOAPFaultException) e).getFault().getFaultCodeAsQName()
              .getLocalPart()).isEqualTo("InvalidSecurity"));
    }
  }

  @Test
  void cxfClientToFerryJaxWsEndpoint() throws Exception {
    EchoPortImpl echo = new EchoPortImpl();
    Endpoint endpoint = Endpoint.create(echo, new GuardFeature(ferryService()));
    java.net.URI uri = loopback();
    endpoint.publish(uri.toString());
    try {
      assertEchoes(cxfClient(uri, "UsernameToken Timestamp Signature Encrypt"), "from CXF");
      assertThat(echo.lastCaller()).isEqualTo("alice");
      TestMtomPort unsigned = cxfClient(uri, "UsernameToken Timestamp Encrypt");
      assertThatThrownBy(() -> assertEchoes(unsigned, "x"))
          .isInstanceOf(SOAPFaultException.class);
    } finally {
      endpoint.stop();
    }
  }

  @Test
  void ferryClientToCxfServer() throws Exception {
    java.net.URI uri = loopback();
    org.apache.cxf.endpoint.Server cxf = cxfService(uri);
    try (SoapClient c = SoapClient.create()) {
      var request = SoapRequest.builder(uri, EchoService.request(CODEC, SoapVersion.SOAP_11,
          MtomPolicy.NEVER, "from Ferry", ByteString.encodeUtf8("signed, sealed")))
          .soapAction(EchoService.SOAP_ACTION).guard(ferryClient()).build();
      try (SoapResponse r = c.call(request)) {
        assertThat(r.isFault()).as(r.isFault() ? r.fault().reason() : "").isFalse();
        EchoService.Echo e = EchoService.readEcho(r.message());
        assertThat(e.name()).isEqualTo("from Ferry");
        assertThat(e.attachinfo().utf8()).isEqualTo("signed, sealed");
        assertThat(r.principal().getName()).isEqualTo("CN=service,O=Ferry");
      }
    } finally {
      cxf.destroy();
    }
  }

  @Test
  void ferryJaxWsPortToCxfServer() throws Exception {
    java.net.URI uri = loopback();
    org.apache.cxf.endpoint.Server cxf = cxfService(uri);
    try {
      assertEchoes(ferryPort(uri, new GuardFeature(ferryClient())), "from Ferry's port");
      // a port without the guard: CXF's WSS4J refuses it
      TestMtomPort plain = ferryPort(uri);
      assertThatThrownBy(() -> assertEchoes(plain, "x")).isInstanceOf(SOAPFaultException.class);
    } finally {
      cxf.destroy();
    }
  }

  /**
   * CXF's client signs and encrypts for the gateway; the broker ends WS-Security (verifies,
   * decrypts, removes the Security header) and a Ferry server with no WS-Security of its own
   * answers the plain message.
   */
  @Test
  void cxfClientThroughABrokerThatEndsWsSecurity(@TempDir Path dir) throws Exception {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    service.writeChainPem(dir.resolve("gateway.pem"));
    service.writeKeyPem(dir.resolve("gateway.key"));
    try (SoapServer plain = SoapServer.builder().endpoint("/echo", Dispatcher.builder()
            .element(EchoService.REQUEST, request -> {
              seen.add(request.toByteString().utf8());
              return EchoService.echo(request);
            }).build()).build().start();
        Broker gateway = Broker.builder().routes(Routes.load(Files.writeString(
            dir.resolve("routes.yaml"), "routes:\n  - path: /echo\n    to: "
                + plain.uri("/echo") + "\n    wsSecurity:\n      inbound: {timestamp: 5m,"
                + " signBody: true, signTimestamp: true, encryptBody: true}\n"
                + "      trust: ca.pem\n      certificate: gateway.pem\n"
                + "      key: gateway.key\n      terminate: true\n"))).build().start()) {
      TestMtomPort port = CxfPeer.client(bus, gateway.uri("/echo"), false);
      ClientProxy.getClient(port).getOutInterceptors().add(new WSS4JOutInterceptor(
          CxfSecurity.out("Timestamp Signature Encrypt", CxfSecurity.merlin(pki, client,
              service.certificate()), "wonderland")));
      assertEchoes(port, "from CXF, in the clear past the gateway");
      assertThat(seen).singleElement().asString()
          .contains(">from CXF, in the clear past the gateway<")
          .doesNotContain("Security").doesNotContain("EncryptedData");
    }
  }
}
