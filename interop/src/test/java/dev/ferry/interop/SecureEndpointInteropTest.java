package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.interop.cxfmtom.TestMtomPortType;
import dev.ferry.jaxws.ServerFeature;
import dev.ferry.security.Authenticator;
import dev.ferry.security.ClientAuth;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.PasswordFile;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import dev.ferry.server.ServerOptions;
import dev.ferry.testkit.TestPki;
import jakarta.activation.DataHandler;
import jakarta.annotation.Resource;
import jakarta.jws.WebService;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.soap.MTOMFeature;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Principal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;
import org.apache.cxf.configuration.jsse.TLSClientParameters;
import org.apache.cxf.frontend.ClientProxy;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.apache.cxf.transport.http.HTTPConduit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CXF 4's client calls a JAX-WS endpoint Ferry publishes at {@code https://} with a
 * {@code ServerFeature}: the MTOM echo over TLS, the caller by HTTP Basic or by its client
 * certificate, seen by the implementation with its roles; a wrong password is refused.
 */
class SecureEndpointInteropTest {
  @TempDir
  static Path dir;
  static TestPki pki;
  static TestPki.Credential clientCert;
  static Endpoint endpoint;
  static String address;
  static final Bus BUS = BusFactory.newInstance().createBus();

  /** CXF's generated interface; the name comes back as who called and one role. */
  @WebService(serviceName = "TestMtomService", portName = "TestMtomPort",
      targetNamespace = MtomEchoImpls.NS,
      endpointInterface = "dev.ferry.interop.cxfmtom.TestMtomPortType")
  public static class Whoami implements TestMtomPortType {
    @Resource
    private WebServiceContext context;

    @Override
    public void testDataHandler(Holder<String> name, Holder<DataHandler> attachinfo) {
      Principal p = context.getUserPrincipal();
      name.value = p.getName() + " admin=" + context.isUserInRole("admin");
      attachinfo.value = new DataHandler(new BytesDataSource(Blobs.read(attachinfo.value)));
    }

    @Override
    public void testByteArray(Holder<String> name, Holder<byte[]> attachinfo) {}
  }

  @BeforeAll
  static void publish() throws Exception {
    pki = TestPki.create("CN=Interop TLS CA");
    TestPki.Credential server = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1")
        .make();
    clientCert = pki.issue("CN=cxf-client,O=Ferry").make();
    Path users = Files.writeString(dir.resolve("users.txt"),
        PasswordFile.line("alice", "wonderland".toCharArray(), PasswordFile.MIN_ITERATIONS));
    ServerFeature feature = ServerFeature.builder()
        .tls(TlsSettings.builder().identity(KeyMaterial.of(server.key(), server.chain()))
            .trust(TrustMaterial.of(pki.certificate())).clientAuth(ClientAuth.OPTIONAL).build())
        .options(ServerOptions.builder()
            .authenticator(Authenticator.basic(PasswordFile.load(users)).orCertificate()
                .withRoles(who -> who.getName().equals("alice") ? Set.of("admin") : Set.of()))
            .build())
        .build();
    address = "https://127.0.0.1:" + JaxWsStack.freePort() + "/secure-echo";
    endpoint = Endpoint.publish(address, new Whoami(), new MTOMFeature(), feature);
  }

  @AfterAll
  static void stop() {
    endpoint.stop();
    BUS.shutdown(true);
  }

  /** CXF's port as its users set up TLS and Basic: on the conduit and the factory. */
  static TestMtomPortType cxf(String user, String password, TestPki.Credential identity)
      throws Exception {
    JaxWsProxyFactoryBean factory = new JaxWsProxyFactoryBean();
    factory.setBus(BUS);
    factory.setServiceClass(TestMtomPortType.class);
    factory.setWsdlURL(MtomContractInteropTest.CONTRACT.wsdl().toString());
    factory.setServiceName(MtomContractInteropTest.CONTRACT.service());
    factory.setEndpointName(MtomContractInteropTest.CONTRACT.port());
    factory.setAddress(address);
    factory.setProperties(new HashMap<>(Map.of("mtom-enabled", true)));
    factory.setUsername(user);
    factory.setPassword(password);
    TestMtomPortType port = factory.create(TestMtomPortType.class);
    TlsSettings trust = TlsSettings.builder().trust(TrustMaterial.of(pki.certificate()))
        .identity(identity == null ? null : KeyMaterial.of(identity.key(), identity.chain()))
        .build();
    TLSClientParameters tls = new TLSClientParameters();
    tls.setTrustManagers(new TrustManager[] {trust.trustManager()});
    if (identity != null) {
      tls.setKeyManagers(new KeyManager[] {trust.keyManager()});
    }
    ((HTTPConduit) ClientProxy.getClient(port).getConduit()).setTlsClientParameters(tls);
    return port;
  }

  static String echo(TestMtomPortType port, byte[] blob) {
    Holder<String> name = new Holder<>("?");
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(blob)));
    port.testDataHandler(name, data);
    assertThat(Blobs.read(data.value)).isEqualTo(blob);
    return name.value;
  }

  @Test
  void cxfsBasicCallerOverTlsIsThePrincipalWithItsRoles() throws Exception {
    assertThat(echo(cxf("alice", "wonderland", null), Blobs.of(Blobs.MIB)))
        .isEqualTo("alice admin=true");
  }

  @Test
  void cxfsClientCertificateIdentifiesItsCaller() throws Exception {
    assertThat(echo(cxf(null, null, clientCert), Blobs.of(64 * Blobs.KIB)))
        .isEqualTo("CN=cxf-client,O=Ferry admin=false");
  }

  @Test
  void aWrongPasswordFromCxfIsRefused() throws Exception {
    TestMtomPortType port = cxf("alice", "nope", null);
    assertThatThrownBy(() -> echo(port, new byte[] {1})).hasStackTraceContaining("401");
  }
}
