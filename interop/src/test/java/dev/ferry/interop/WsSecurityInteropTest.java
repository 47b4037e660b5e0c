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
import java.security.KeyStore;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.security.auth.callback.CallbackHandler;
import org.apache.cxf.Bus;
import org.apache.cxf.endpoint.Client;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsServerFactoryBean;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.apache.wss4j.common.ConfigurationConstants;
import org.apache.wss4j.common.crypto.Merlin;
import org.apache.wss4j.common.ext.WSPasswordCallback;
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
  private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
  private static final String WSU = "http://docs.oasis-open.org/wss/2004/01/"
      + "oasis-200401-wss-wssecurity-utility-1.0.xsd";
  private static final char[] STORE = "changeit".toCharArray();
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

  /** A CXF crypto: a key store with {@code own} (may be null) and a trust store with the CA. */
  private static Merlin merlin(TestPki.Credential own, java.security.cert.X509Certificate peer)
      throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    if (own != null) {
      ks.setKeyEntry("own", own.key(), STORE, own.chain());
    }
    if (peer != null) {
      ks.setCertificateEntry("peer", peer);
    }
    KeyStore ts = KeyStore.getInstance("PKCS12");
    ts.load(null, null);
    ts.setCertificateEntry("ca", pki.certificate());
    Merlin m = new Merlin();
    m.setKeyStore(ks);
    m.setTrustStore(ts);
    return m;
  }

  private static CallbackHandler passwords() {
    return callbacks -> {
      for (javax.security.auth.callback.Callback c : callbacks) {
        WSPasswordCallback pc = (WSPasswordCallback) c;
        pc.setPassword(pc.getUsage() == WSPasswordCallback.USERNAME_TOKEN ? "wonderland"
            : new String(STORE));
      }
    };
  }

  /** CXF's outbound settings as its users write them. */
  private static Map<String, Object> cxfOut(String actions, Merlin crypto, boolean encrypt) {
    Map<String, Object> p = new HashMap<>();
    p.put(ConfigurationConstants.ACTION, actions);
    p.put(ConfigurationConstants.USER, "alice");
    p.put(ConfigurationConstants.PASSWORD_TYPE, "PasswordDigest");
    p.put(ConfigurationConstants.PW_CALLBACK_REF, passwords());
    p.put(ConfigurationConstants.SIGNATURE_USER, "own");
    p.put(ConfigurationConstants.SIG_PROP_REF_ID, "crypto");
    p.put("crypto", crypto);
    p.put(ConfigurationConstants.SIG_KEY_ID, "DirectReference");
    p.put(ConfigurationConstants.SIG_ALGO, WsSecurityPolicy.RSA_SHA256);
    p.put(ConfigurationConstants.SIG_DIGEST_ALGO, WsSecurityPolicy.SHA256);
    p.put(ConfigurationConstants.SIGNATURE_PARTS, "{Element}{" + WSU + "}Timestamp;{Element}{"
        + SOAP11 + "}Body");
    if (encrypt) {
      p.put(ConfigurationConstants.ENCRYPTION_USER, "peer");
      p.put(ConfigurationConstants.ENC_PROP_REF_ID, "crypto");
      p.put(ConfigurationConstants.ENC_SYM_ALGO, WsSecurityPolicy.AES256_GCM);
      p.put(ConfigurationConstants.ENCRYPTION_PARTS, "{Content}{" + SOAP11 + "}Body");
    }
    return p;
  }

  /** CXF's inbound settings: what it requires, checked with {@code crypto}. */
  private static Map<String, Object> cxfIn(String actions, Merlin crypto) {
    Map<String, Object> p = new HashMap<>();
    p.put(ConfigurationConstants.ACTION, actions);
    p.put(ConfigurationConstants.PW_CALLBACK_REF, passwords());
    p.put(ConfigurationConstants.SIG_VER_PROP_REF_ID, "crypto");
    p.put(ConfigurationConstants.DEC_PROP_REF_ID, "crypto");
    p.put("crypto", crypto);
    return p;
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
      Merlin crypto = merlin(client, service.certificate());
      c.getOutInterceptors().add(new WSS4JOutInterceptor(cxfOut(
          "UsernameToken Timestamp Signature Encrypt", crypto, true)));
      c.getInInterceptors().add(new WSS4JInInterceptor(cxfIn("Timestamp Signature", crypto)));
      Holder<String> name = new Holder<>("from CXF");
      Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(
          "signed, sealed".getBytes())));
      port.testMtom(name, data);
      assertThat(name.value).isEqualTo("from CXF");
      assertThat(Blobs.read(data.value)).isEqualTo("signed, sealed".getBytes());

      // without the encryption Ferry's policy asks for, CXF's request is refused
      c.getOutInterceptors().clear();
      c.getOutInterceptors().add(new WSS4JOutInterceptor(cxfOut(
          "UsernameToken Timestamp Signature", crypto, false)));
      assertThatThrownBy(() -> port.testMtom(new Holder<>("x"), new Holder<>(new DataHandler(
          new BytesDataSource(new byte[1]))))).isInstanceOf(SOAPFaultException.class)
          .hasMessageContaining("an encrypted Body");
    }
  }

  @Test
  void ferryClientToCxfServer() throws Exception {
    Merlin crypto = merlin(service, client.certificate());
    JaxWsServerFactoryBean factory = new JaxWsServerFactoryBean();
    factory.setBus(bus);
    factory.setServiceBean(new EchoPortImpl());
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    factory.setAddress("http://127.0.0.1:" + port + "/echo");
    factory.setWsdlLocation(CxfPeer.wsdlUrl());
    factory.setServiceName(EchoContract.SERVICE);
    factory.setEndpointName(EchoContract.PORT);
    factory.getInInterceptors().add(new WSS4JInInterceptor(cxfIn(
        "UsernameToken Timestamp Signature Encrypt", crypto)));
    factory.getOutInterceptors().add(new WSS4JOutInterceptor(cxfOut("Timestamp Signature",
        crypto, false)));
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
