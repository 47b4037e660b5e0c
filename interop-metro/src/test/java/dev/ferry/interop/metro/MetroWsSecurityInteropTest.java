package dev.ferry.interop.metro;

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
import dev.ferry.soap.FaultException;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.xop.MtomPolicy;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Dispatch;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Provider;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.ServiceMode;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.WebServiceProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMResult;
import javax.xml.transform.stream.StreamSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * WS-Security between Ferry and Metro 4 (WSIT), Metro set up as its users do: a
 * WS-SecurityPolicy in the WSDL (an asymmetric binding of X.509 tokens, a Timestamp, the Body
 * signed and encrypted each way, Basic256Sha256 with RSA-SHA256 signatures) and its key stores
 * named in the policy. A Metro client calls a Ferry service (also with a UsernameToken), a
 * Ferry client calls a Metro service; keys and certificates are made here.
 */
class MetroWsSecurityInteropTest {
  private static final String NS = "http://cxf.apache.org/mime";
  private static final QName SERVICE = new QName(NS, "TestMtomService");
  private static final QName PORT = new QName(NS, "TestMtomPort");
  private static final String TYPES = EchoService.NAMESPACE;
  private static final String AES256_CBC = "http://www.w3.org/2001/04/xmlenc#aes256-cbc";
  private static final String PASSWORD = "changeit";
  private static final SoapCodec CODEC = SoapCodec.create();

  /**
   * What the policy asks of each message, as Ferry says it (Basic256Sha256's algorithms).
   * Metro writes an {@code xsi:type} the schema does not know on the key info of its encrypted
   * keys: received messages are not checked against the schema.
   */
  private static final WsSecurityPolicy POLICY = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().encryptBody()
      .keyTransport(WsSecurityPolicy.RSA_OAEP_MGF1P).contentEncryption(AES256_CBC)
      .validateSchema(false).build();

  @TempDir
  static Path dir;
  private static TestPki pki;
  private static TestPki.Credential ferry;
  private static TestPki.Credential metro;

  @BeforeAll
  static void keys() throws Exception {
    pki = TestPki.create("CN=Metro interop CA", TestPki.KeyType.RSA);
    ferry = pki.issue("CN=ferry,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    metro = pki.issue("CN=metro,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    metro.writePkcs12(dir.resolve("metro.p12"), "own", PASSWORD.toCharArray());
    TestPki other = TestPki.create("CN=Another CA", TestPki.KeyType.RSA);
    other.issue("CN=metro,O=Ferry").keyType(TestPki.KeyType.RSA).make()
        .writePkcs12(dir.resolve("stranger.p12"), "own", PASSWORD.toCharArray());
    trustStore(dir.resolve("metro-trust.p12"), ferry.certificate());
  }

  /** A PKCS#12 trust store of the CA and the peer's certificate (alias {@code peer}). */
  private static void trustStore(Path file, X509Certificate peer) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setCertificateEntry("ca", pki.certificate());
    ks.setCertificateEntry("peer", peer);
    try (OutputStream out = Files.newOutputStream(file)) {
      ks.store(out, PASSWORD.toCharArray());
    }
  }

  /**
   * The WSDL with Metro's key store assertions for {@code side} ("client" or "server"), whose
   * key is in {@code metro.p12} and whose trust in {@code metro-trust.p12}, written to a file.
   */
  private static Path wsdl(String side, URI address) throws IOException {
    return wsdl(side, address, "metro.p12", "");
  }

  /**
   * As {@link #wsdl(String, URI)}, with Metro's key in {@code keyStore} and {@code tokens} (an
   * assertion of supporting tokens, or nothing) in the policy.
   */
  private static Path wsdl(String side, URI address, String keyStore, String tokens)
      throws IOException {
    String sc = "xmlns:sc=\"http://schemas.sun.com/2006/03/wss/" + side + "\""
        + " xmlns:wspp=\"http://java.sun.com/xml/ns/wsit/policy\" wspp:visibility=\"private\"";
    String stores = "<sc:KeyStore " + sc + " location=\"" + dir.resolve(keyStore)
        + "\" type=\"PKCS12\" storepass=\"" + PASSWORD + "\" alias=\"own\" keypass=\""
        + PASSWORD + "\"/>\n<sc:TrustStore " + sc + " location=\""
        + dir.resolve("metro-trust.p12") + "\" type=\"PKCS12\" storepass=\"" + PASSWORD
        + "\" peeralias=\"peer\"/>";
    String text;
    try (InputStream in = MetroWsSecurityInteropTest.class.getResourceAsStream(
        "/secured-echo.wsdl")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Path file = dir.resolve(side + "-" + keyStore + "-" + tokens.hashCode() + ".wsdl");
    Files.writeString(file, text.replace("KEYSTORES", stores).replace("TOKENS", tokens)
        .replace("ADDRESS", address.toString()));
    return file;
  }

  private static WsSecurityCredentials.Builder ferryCredentials() throws IOException {
    return WsSecurityCredentials.builder().key(KeyMaterial.of(ferry.key(), ferry.chain()))
        .recipient(metro.certificate()).trust(TrustMaterial.of(pki.certificate()));
  }

  private static URI loopback(String path) throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return URI.create("http://127.0.0.1:" + s.getLocalPort() + path);
    }
  }

  private static String testMtom(String name, byte[] blob) {
    return "<t:testMtom xmlns:t=\"" + TYPES + "\"><t:name>" + name + "</t:name><t:attachinfo>"
        + Base64.getEncoder().encodeToString(blob) + "</t:attachinfo></t:testMtom>";
  }

  private static Document dom(Source s) throws Exception {
    DOMResult r = new DOMResult();
    TransformerFactory.newInstance().newTransformer().transform(s, r);
    return (Document) r.getNode();
  }

  private static String text(Document d, String local) {
    return d.getElementsByTagNameNS(TYPES, local).item(0).getTextContent();
  }

  @Test
  void metroClientToFerryService() throws Exception {
    WsSecurity guard = WsSecurity.builder().inbound(POLICY).outbound(POLICY)
        .credentials(ferryCredentials().build()).build();
    AtomicInteger served = new AtomicInteger();
    try (SoapServer server = SoapServer.builder().endpoint("/echo", Dispatcher.builder()
        .guard(guard).element(EchoService.REQUEST, m -> {
          served.incrementAndGet();
          return EchoService.echo(m);
        }).build()).build().start()) {
      Service service = Service.create(wsdl("client", server.uri("/echo")).toUri().toURL(),
          SERVICE);
      Dispatch<Source> dispatch = service.createDispatch(PORT, Source.class,
          Service.Mode.PAYLOAD);
      byte[] blob = "signed, sealed".getBytes(StandardCharsets.UTF_8);
      Document reply = dom(dispatch.invoke(new StreamSource(new StringReader(
          testMtom("from Metro", blob)))));
      assertThat(text(reply, "name")).isEqualTo("from Metro");
      assertThat(Base64.getMimeDecoder().decode(text(reply, "attachinfo"))).isEqualTo(blob);

      assertThat(served).hasValue(1);

      // the same client with a key of a CA Ferry does not trust is refused before the echo
      // (Metro reports Ferry's fault, which is not signed, as a failure to verify it)
      Dispatch<Source> stranger = Service.create(wsdl("client", server.uri("/echo"),
          "stranger.p12", "").toUri().toURL(), SERVICE).createDispatch(PORT, Source.class,
          Service.Mode.PAYLOAD);
      assertThatThrownBy(() -> stranger.invoke(new StreamSource(new StringReader(
          testMtom("x", blob))))).isInstanceOf(WebServiceException.class);
      assertThat(served).hasValue(1);
    }
  }

  /** A UsernameToken (password as text) among the signed and encrypted supporting tokens. */
  private static final String USERNAME_TOKEN = "<sp:SignedEncryptedSupportingTokens><wsp:Policy>"
      + "<sp:UsernameToken sp:IncludeToken=\"http://docs.oasis-open.org/ws-sx/ws-securitypolicy"
      + "/200702/IncludeToken/AlwaysToRecipient\"><wsp:Policy><sp:WssUsernameToken10/>"
      + "</wsp:Policy></sp:UsernameToken></wsp:Policy></sp:SignedEncryptedSupportingTokens>";

  @Test
  void metroUsernameTokenToFerryService() throws Exception {
    WsSecurityPolicy withToken = WsSecurityPolicy.builder()
        .usernameToken(WsSecurityPolicy.Password.TEXT).timestamp(Duration.ofMinutes(5))
        .signBody().signTimestamp().encryptBody()
        .keyTransport(WsSecurityPolicy.RSA_OAEP_MGF1P).contentEncryption(AES256_CBC)
        .validateSchema(false).build();
    WsSecurity guard = WsSecurity.builder().inbound(withToken).outbound(POLICY)
        .credentials(ferryCredentials().passwords(u -> u.equals("alice")
            ? "wonderland".toCharArray() : null).build()).build();
    AtomicReference<String> caller = new AtomicReference<>();
    try (SoapServer server = SoapServer.builder().endpoint("/echo", Dispatcher.builder()
        .guard(guard).fallback(new dev.ferry.server.Endpoint() {
          @Override
          public dev.ferry.soap.Payload handle(dev.ferry.soap.Message request) {
            throw new AssertionError();
          }

          @Override
          public dev.ferry.soap.Payload handle(dev.ferry.soap.Message request,
              jakarta.servlet.http.HttpServletRequest http) throws Exception {
            caller.set(http.getUserPrincipal().getName());
            return EchoService.echo(request);
          }
        }).build()).build().start()) {
      Dispatch<Source> dispatch = Service.create(wsdl("client", server.uri("/echo"),
          "metro.p12", USERNAME_TOKEN).toUri().toURL(), SERVICE).createDispatch(PORT,
          Source.class, Service.Mode.PAYLOAD);
      dispatch.getRequestContext().put(BindingProvider.USERNAME_PROPERTY, "alice");
      dispatch.getRequestContext().put(BindingProvider.PASSWORD_PROPERTY, "wonderland");
      Document reply = dom(dispatch.invoke(new StreamSource(new StringReader(
          testMtom("with a token", new byte[] {1, 2})))));
      assertThat(text(reply, "name")).isEqualTo("with a token");
      assertThat(caller.get()).isEqualTo("alice");
      // the wrong password is refused
      dispatch.getRequestContext().put(BindingProvider.PASSWORD_PROPERTY, "looking-glass");
      caller.set(null);
      assertThatThrownBy(() -> dispatch.invoke(new StreamSource(new StringReader(
          testMtom("x", new byte[] {3}))))).isInstanceOf(WebServiceException.class);
      assertThat(caller.get()).isNull();
    }
  }

  /** Metro's echo: the request's name and bytes back in a testMtomResponse. */
  @WebServiceProvider(serviceName = "TestMtomService", portName = "TestMtomPort",
      targetNamespace = NS)
  @ServiceMode(Service.Mode.PAYLOAD)
  public static final class MetroEcho implements Provider<Source> {
    @Override
    public Source invoke(Source request) {
      try {
        Document d = dom(request);
        return new StreamSource(new StringReader("<t:testMtomResponse xmlns:t=\"" + TYPES
            + "\"><t:name>" + text(d, "name") + "</t:name><t:attachinfo>"
            + text(d, "attachinfo") + "</t:attachinfo></t:testMtomResponse>"));
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Test
  void ferryClientToMetroService() throws Exception {
    URI address = loopback("/echo");
    Path wsdl = wsdl("server", address);
    Endpoint endpoint = Endpoint.create(new MetroEcho());
    StreamSource metadata = new StreamSource(Files.newInputStream(wsdl), wsdl.toUri()
        .toString());
    endpoint.setMetadata(List.of(metadata));
    endpoint.publish(address.toString());
    try (SoapClient client = SoapClient.create()) {
      WsSecurity guard = WsSecurity.builder().outbound(POLICY).inbound(POLICY)
          .credentials(ferryCredentials().build()).build();
      SoapRequest request = SoapRequest.builder(address, EchoService.request(CODEC,
          SoapVersion.SOAP_11, MtomPolicy.NEVER, "from Ferry",
          ByteString.encodeUtf8("signed, sealed"))).guard(guard).build();
      try (SoapResponse r = client.call(request)) {
        assertThat(r.isFault()).as(r.isFault() ? r.fault().reason() : "").isFalse();
        EchoService.Echo e = EchoService.readEcho(r.message());
        assertThat(e.name()).isEqualTo("from Ferry");
        assertThat(e.attachinfo().utf8()).isEqualTo("signed, sealed");
        assertThat(r.principal().getName()).isEqualTo("CN=metro,O=Ferry");
      }
      // with WSS4J's schema check on, Metro's reply is refused: its encrypted key's KeyInfo
      // carries an xsi:type the schema does not know
      WsSecurity validating = WsSecurity.builder().outbound(POLICY).inbound(WsSecurityPolicy
          .builder().timestamp(Duration.ofMinutes(5)).signBody().encryptBody().build())
          .credentials(ferryCredentials().build()).build();
      assertThatThrownBy(() -> client.call(SoapRequest.builder(address, EchoService.request(
          CODEC, SoapVersion.SOAP_11, MtomPolicy.NEVER, "x", ByteString.encodeUtf8("y")))
          .guard(validating).build())).isInstanceOf(FaultException.class)
          .hasStackTraceContaining("KeyInfoType");
      // a request without what the policy asks for is refused by Metro
      SoapRequest unsigned = SoapRequest.builder(address, EchoService.request(CODEC,
          SoapVersion.SOAP_11, MtomPolicy.NEVER, "x", ByteString.encodeUtf8("y"))).build();
      try (SoapResponse r = client.call(unsigned)) {
        assertThat(r.isFault()).isTrue();
      }
    } finally {
      endpoint.stop();
    }
  }
}
