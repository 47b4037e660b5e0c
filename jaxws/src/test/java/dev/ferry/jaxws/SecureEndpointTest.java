package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.security.Authenticator;
import dev.ferry.security.ClientAuth;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.PasswordFile;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import dev.ferry.server.ServerOptions;
import dev.ferry.testkit.TestPki;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.SOAPBinding;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JAX-WS endpoint published at an {@code https://} address with a {@link ServerFeature}: TLS
 * with optional client certificates, HTTP Basic against a password file, roles, the server's
 * options, metrics and access log; and the JDK's {@code javax.net.ssl.keyStore} for an endpoint
 * published without TLS settings. Ferry's own JAX-WS port calls it.
 */
class SecureEndpointTest {
  static final QName SERVICE = new QName(Teller.NS, "TellerService");
  static final QName PORT = new QName(Teller.NS, "TellerPort");
  static final URI PUBLIC = URI.create("https://teller.example");

  @TempDir
  static Path dir;
  static TestPki pki;
  static TestPki.Credential clientCert;
  static TlsSettings serverTls;
  static ServerFeature feature;
  static Endpoint teller;
  static String address;
  static final List<String> accessLog = new ArrayList<>();
  /** Held: JUL keeps loggers weakly, and a collected one loses its level and handler. */
  static final Logger ACCESS_LOGGER = Logger.getLogger("dev.ferry.access");
  static final Handler ACCESS = new Handler() {
    @Override
    public void publish(LogRecord r) {
      synchronized (accessLog) {
        accessLog.add(r.getMessage());
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeAll
  static void publish() throws Exception {
    pki = TestPki.create("CN=Teller CA");
    TestPki.Credential server = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1")
        .make();
    clientCert = pki.issue("CN=teller-client,O=Ferry").make();
    Path users = Files.writeString(dir.resolve("users.txt"),
        PasswordFile.line("alice", "wonderland".toCharArray(), PasswordFile.MIN_ITERATIONS) + "\n"
        + PasswordFile.line("bob", "builder".toCharArray(), PasswordFile.MIN_ITERATIONS) + "\n");
    Map<String, Set<String>> roles = Map.of("alice", Set.of("admin"),
        "CN=teller-client,O=Ferry", Set.of("system"));
    // tag::https-endpoint[]
    serverTls = TlsSettings.builder()
        .identity(KeyMaterial.of(server.key(), server.chain()))
        .trust(TrustMaterial.of(pki.certificate()))  // client certificates chain to this CA
        .clientAuth(ClientAuth.OPTIONAL)
        .build();
    feature = ServerFeature.builder()
        .tls(serverTls)
        .options(ServerOptions.builder()
            .authenticator(Authenticator.basic(PasswordFile.load(users)).orCertificate()
                .withRoles(who -> roles.get(who.getName())))  // isUserInRole
            .maxRequests(64)
            .publicAddress(PUBLIC)                           // written into the ?wsdl
            .build())
        .build();
    address = Ports.url("/teller").replace("http:", "https:");
    teller = Endpoint.publish(address, new TellerImpl(), feature);
    // end::https-endpoint[]
    ACCESS_LOGGER.setLevel(Level.INFO);
    ACCESS_LOGGER.addHandler(ACCESS);
  }

  @AfterAll
  static void stop() {
    ACCESS_LOGGER.removeHandler(ACCESS);
    ACCESS_LOGGER.setLevel(null);
    teller.stop();
  }

  static Teller port(String url, TlsSettings tls) {
    Service service = Service.create(SERVICE);
    service.addPort(PORT, SOAPBinding.SOAP11HTTP_BINDING, url);
    Teller port = service.getPort(PORT, Teller.class);
    if (tls != null) {
      ((BindingProvider) port).getRequestContext().put(FerryProvider.TLS_PROPERTY, tls);
    }
    return port;
  }

  static TlsSettings clientTls(TestPki.Credential identity) throws Exception {
    TlsSettings.Builder b = TlsSettings.builder().trust(TrustMaterial.of(pki.certificate()));
    if (identity != null) {
      b.identity(KeyMaterial.of(identity.key(), identity.chain()));
    }
    return b.build();
  }

  static Teller basic(String user, String password) throws Exception {
    Teller port = port(address, clientTls(null));
    Map<String, Object> rc = ((BindingProvider) port).getRequestContext();
    rc.put(BindingProvider.USERNAME_PROPERTY, user);
    rc.put(BindingProvider.PASSWORD_PROPERTY, password);
    return port;
  }

  @Test
  void basicCallersOverTlsAreTheEndpointsPrincipalWithTheirRoles() throws Exception {
    assertThat(basic("alice", "wonderland").whoAmI("admin")).isEqualTo("alice admin=true");
    assertThat(basic("bob", "builder").whoAmI("admin")).isEqualTo("bob admin=false");
  }

  @Test
  void aClientCertificateIdentifiesACallerWithoutCredentials() throws Exception {
    assertThat(port(address, clientTls(clientCert)).whoAmI("system"))
        .isEqualTo("CN=teller-client,O=Ferry system=true");
  }

  @Test
  void aWrongPasswordOrNoCredentialsAreRefusedBeforeTheEndpoint() throws Exception {
    assertThatThrownBy(() -> basic("alice", "nope").whoAmI("admin"))
        .isInstanceOf(WebServiceException.class).hasMessageContaining("401");
    assertThatThrownBy(() -> port(address, clientTls(null)).whoAmI("admin"))
        .isInstanceOf(WebServiceException.class).hasMessageContaining("401");
  }

  @Test
  void aClientThatDoesNotTrustTheServersCaFailsItsHandshake() {
    assertThatThrownBy(() -> port(address, TlsSettings.jdkDefault()).whoAmI("admin"))
        .isInstanceOf(WebServiceException.class)
        .hasMessageContaining("PKIX path building failed");
  }

  @Test
  void theServersOptionsMetricsAndAccessLogCoverTheEndpoint() throws Exception {
    basic("alice", "wonderland").whoAmI("admin");
    HttpClient http = HttpClient.newBuilder().sslContext(clientTls(null).sslContext()).build();
    String auth = "Basic " + Base64.getEncoder().encodeToString(
        "alice:wonderland".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> wsdl = http.send(HttpRequest.newBuilder(URI.create(address + "?wsdl"))
        .header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(wsdl.statusCode()).isEqualTo(200);
    assertThat(wsdl.body()).contains("location=\"" + PUBLIC + "/teller\"");
    HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(
        URI.create(address.replace("/teller", "/metrics"))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.body()).containsPattern(
        "ferry_server_requests_total\\{endpoint=\"/teller\",status=\"200\"} [1-9]");
    synchronized (accessLog) {
      assertThat(accessLog).anyMatch(l -> l.contains("\"POST /teller\" 200"))
          .anyMatch(l -> l.contains("\"POST /teller\" 401"));
    }
  }

  @Test
  void anotherFeatureOnTheSamePortIsRefusedNamingTheFirstEndpoint() throws Exception {
    String other = address.replace("/teller", "/other");
    assertThatThrownBy(() -> Endpoint.publish(other, new TellerImpl(),
        ServerFeature.builder().tls(serverTls).build()))
        .isInstanceOf(WebServiceException.class)
        .hasMessageContaining("was started by " + address);
    assertThatThrownBy(() -> Endpoint.publish(other.replace("https:", "http:"), new TellerImpl(),
        feature)).hasMessageContaining("shares its scheme");
    Endpoint second = Endpoint.publish(other, new TellerImpl(), feature);
    try {
      assertThat(basic("alice", "wonderland").whoAmI("x")).isEqualTo("alice x=false");
    } finally {
      second.stop();
    }
  }

  @Test
  void withoutTlsSettingsAnHttpsEndpointTakesTheJdksKeyStore() throws Exception {
    TestPki.Credential server = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1")
        .make();
    Path store = server.writePkcs12(dir.resolve("server.p12"), "server", "changeit".toCharArray());
    String url = Ports.url("/plain-teller").replace("http:", "https:");
    assertThatThrownBy(() -> Endpoint.publish(url, new TellerImpl()))
        .isInstanceOf(WebServiceException.class)
        .hasMessageContaining("javax.net.ssl.keyStore");
    System.setProperty("javax.net.ssl.keyStore", store.toString());
    System.setProperty("javax.net.ssl.keyStorePassword", "changeit");
    Endpoint e;
    try {
      e = Endpoint.publish(url, new TellerImpl());
    } finally {
      System.clearProperty("javax.net.ssl.keyStore");
      System.clearProperty("javax.net.ssl.keyStorePassword");
    }
    try {
      assertThat(port(url, clientTls(null)).whoAmI("admin")).isEqualTo("nobody admin=false");
    } finally {
      e.stop();
    }
  }
}
