package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapRequest;
import dev.ferry.client.SoapResponse;
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
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.soap.SOAPFaultException;
import java.time.Duration;
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

/**
 * WS-Security between Ferry and CXF 4 (WSS4J's DOM implementation, configured as CXF users do,
 * with its interceptors): UsernameToken (digest), Timestamp, X.509 signature of the Body and
 * Timestamp and encryption of the Body, each way; keys and certificates made here.
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

  @Test
  void cxfClientToFerryServer() throws Exception {
    WsSecurity ferry = WsSecurity.builder().inbound(REQUEST).outbound(REPLY).credentials(
        WsSecurityCredentials.builder().passwords(u -> u.equals("alice")
            ? "wonderland".toCharArray() : null)
            .key(KeyMaterial.of(service.key(), service.chain()))
            .trust(TrustMaterial.of(pki.certificate())).build()).build();
    try (SoapServer server = SoapServer.builder().endpoint("/echo", Dispatcher.builder()
        .guard(ferry).element(EchoService.REQUEST, EchoService::echo).build()).build().start()) {
      TestMtomPort port = CxfPeer.client(bus, server.uri("/echo"), false);
      Client c = ClientProxy.getClient(port);
      Merlin crypto = CxfSecurity.merlin(pki, client, service.certificate());
      c.getOutInterceptors().add(new WSS4JOutInterceptor(CxfSecurity.out(
          "UsernameToken Timestamp Signature Encrypt", crypto, "wonderland")));
      c.getInInterceptors().add(new WSS4JInInterceptor(CxfSecurity.in("Timestamp Signature",
          crypto, "wonderland")));
      Holder<String> name = new Holder<>("from CXF");
      Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(
          "signed, sealed".getBytes())));
      port.testMtom(name, data);
      assertThat(name.value).isEqualTo("from CXF");
      assertThat(Blobs.read(data.value)).isEqualTo("signed, sealed".getBytes());

      // without the encryption Ferry's policy asks for, CXF's request is refused
      c.getOutInterceptors().clear();
      c.getOutInterceptors().add(new WSS4JOutInterceptor(CxfSecurity.out(
          "UsernameToken Timestamp Signature", crypto, "wonderland")));
      assertThatThrownBy(() -> port.testMtom(new Holder<>("x"), new Holder<>(new DataHandler(
          new BytesDataSource(new byte[1]))))).isInstanceOf(SOAPFaultException.class)
          .hasMessageContaining("an encrypted Body");
    }
  }

  @Test
  void ferryClientToCxfServer() throws Exception {
    Merlin crypto = CxfSecurity.merlin(pki, service, client.certificate());
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    JaxWsServerFactoryBean factory = CxfSecurity.echoService(bus, java.net.URI.create(
        "http://127.0.0.1:" + port + "/echo"), false);
    factory.getInInterceptors().add(new WSS4JInInterceptor(CxfSecurity.in(
        "UsernameToken Timestamp Signature Encrypt", crypto, "wonderland")));
    factory.getOutInterceptors().add(new WSS4JOutInterceptor(CxfSecurity.out(
        "Timestamp Signature", crypto, "wonderland")));
    org.apache.cxf.endpoint.Server cxf = factory.create();
    WsSecurity ferry = WsSecurity.builder().outbound(REQUEST).inbound(REPLY).credentials(
        WsSecurityCredentials.builder().user("alice", "wonderland".toCharArray())
            .key(KeyMaterial.of(client.key(), client.chain()))
            .recipient(service.certificate())
            .trust(TrustMaterial.of(pki.certificate())).build()).build();
    try (SoapClient c = SoapClient.create()) {
      var request = SoapRequest.builder(java.net.URI.create("http://127.0.0.1:" + port
          + "/echo"), EchoService.request(CODEC, SoapVersion.SOAP_11, MtomPolicy.NEVER,
          "from Ferry", ByteString.encodeUtf8("signed, sealed")))
          .soapAction(EchoService.SOAP_ACTION).guard(ferry).build();
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
}
