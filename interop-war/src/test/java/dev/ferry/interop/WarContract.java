package dev.ferry.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.testkit.Zeep;
import dev.ferry.war.Teller;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.WebServiceException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.cxf.jaxws.JaxWsProxyFactoryBean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The WAR this module builds ({@code WEB-INF/sun-jaxws.xml}, Ferry's jars in
 * {@code WEB-INF/lib}, nothing in {@code web.xml} about Ferry) deployed in a servlet container,
 * as its users deploy one, and called by CXF's, Metro's and zeep's clients; the same WAR
 * without its descriptor (discovery); and broken copies of it, which are not deployed at all.
 * One subclass per container.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WarContract {
  /** The users of the container's realm: alice is a clerk and an admin, bob neither. */
  static final Map<String, String> PASSWORDS = Map.of("alice", "wonderland", "bob", "builder");
  static final Map<String, List<String>> ROLES = Map.of("alice", List.of("clerk", "admin"),
      "bob", List.of());
  static final Path WAR = Path.of(System.getProperty("ferry.war.dir"));

  @TempDir
  static Path dir;
  URI base;
  final List<LogRecord> deployLog = new ArrayList<>();
  /** Why the container did not start the last application it was given, if it says. */
  Throwable failure;
  /** Held: JUL keeps loggers weakly, and a collected one loses its handler. */
  final Logger deployLogger = Logger.getLogger("dev.ferry.jaxws.servlet");
  final Handler capture = new Handler() {
    @Override
    public void publish(LogRecord r) {
      synchronized (deployLog) {
        deployLog.add(r);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  /** Starts the container with {@link #PASSWORDS} and {@link #ROLES} as its realm. */
  abstract void start(Path work) throws Exception;

  /**
   * Deploys the web application in {@code war} (a folder or a .war) at {@code contextPath}
   * of the running container; returns its base URL, or null if the container did not start it.
   */
  abstract URI deploy(Path war, String contextPath) throws Exception;

  abstract void stop() throws Exception;

  @BeforeAll
  void startAndDeploy() throws Exception {
    deployLogger.setLevel(Level.ALL);
    deployLogger.addHandler(capture);
    start(dir);
    base = deploy(packed(WAR, dir.resolve("ferry.war")), "/app");
    assertThat(base).as("the WAR started: %s", failure).isNotNull();
  }

  @AfterAll
  void stopAll() throws Exception {
    deployLogger.removeHandler(capture);
    stop();
  }

  /** The folder zipped as a .war, as a build writes one. */
  static Path packed(Path folder, Path war) throws IOException {
    try (var out = new java.util.zip.ZipOutputStream(Files.newOutputStream(war));
        Stream<Path> files = Files.walk(folder)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new java.util.zip.ZipEntry(folder.relativize(p).toString()
            .replace('\\', '/')));
        Files.copy(p, out);
        out.closeEntry();
      }
    }
    return war;
  }

  /** A copy of the WAR's folder, to change. */
  Path copy(String name) throws IOException {
    Path target = dir.resolve(name);
    try (Stream<Path> files = Files.walk(WAR)) {
      for (Path p : files.toList()) {
        Path t = target.resolve(WAR.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return target;
  }

  static HttpResponse<String> get(URI uri) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String echo(dev.ferry.interop.cxfmtom.TestMtomPortType port, String name,
      byte[] blob) {
    Holder<String> n = new Holder<>(name);
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(blob)));
    port.testDataHandler(n, data);
    assertThat(Blobs.read(data.value)).isEqualTo(blob);
    return n.value;
  }

  Teller teller(String user) {
    JaxWsProxyFactoryBean f = new JaxWsProxyFactoryBean();
    f.setServiceClass(Teller.class);
    f.setAddress(base + "/teller");
    if (user != null) {
      f.setUsername(user);
      f.setPassword(PASSWORDS.get(user));
    }
    return f.create(Teller.class);
  }

  @Test
  void cxfEchoesAttachmentsThatTheServerSpoolsPastTheThreshold() {
    dev.ferry.interop.cxfmtom.TestMtomPortType port = JaxWsStack.CXF.port(
        dev.ferry.interop.cxfmtom.TestMtomPortType.class, MtomContractInteropTest.CONTRACT,
        URI.create(base + "/echo"), false, true);
    assertThat(echo(port, "big", Blobs.of(4 * Blobs.MIB))).isEqualTo("big spooled=true");
    assertThat(echo(port, "small", Blobs.of(Blobs.KIB))).isEqualTo("small spooled=false");
  }

  @Test
  void metroEchoesFromTheWsdlTheWarServes() throws Exception {
    dev.ferry.interop.metromtom.TestMtomPortType port = JaxWsStack.METRO.port(
        dev.ferry.interop.metromtom.TestMtomPortType.class, MtomContractInteropTest.CONTRACT,
        URI.create(base + "/echo"), false, true);
    byte[] blob = Blobs.of(Blobs.MIB);
    Holder<String> n = new Holder<>("metro");
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesDataSource(blob)));
    port.testDataHandler(n, data);
    assertThat(n.value).isEqualTo("metro spooled=true");
    assertThat(Blobs.read(data.value)).isEqualTo(blob);
  }

  @Test
  void theWsdlNamedByTheDescriptorIsServedAtTheContainersAddress() throws Exception {
    HttpResponse<String> wsdl = get(URI.create(base + "/echo?wsdl"));
    assertThat(wsdl.statusCode()).isEqualTo(200);
    assertThat(wsdl.body()).contains("SOAPBuilders-mime-cr-test")
        .contains("location=\"" + base + "/echo\"");
  }

  @Test
  void theContainersCallerAndRolesReachTheEndpointPastTheDescriptorsHandler() {
    assertThat(teller("alice").whoAmI("admin")).isEqualTo("alice admin=true handled");
    assertThatThrownBy(() -> teller("bob").whoAmI("admin"))
        .isInstanceOf(WebServiceException.class).hasStackTraceContaining("403");
    assertThatThrownBy(() -> teller(null).whoAmI("admin"))
        .isInstanceOf(WebServiceException.class).hasStackTraceContaining("401");
  }

  @Test
  void aProviderEndpointEchoesRawXml() throws Exception {
    String envelope = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">"
        + "<s:Body><r:ping xmlns:r=\"urn:ferry:war:raw\">hi</r:ping></s:Body></s:Envelope>";
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(base + "/raw")).header("Content-Type", "text/xml; charset=utf-8")
        .header("SOAPAction", "\"\"").POST(HttpRequest.BodyPublishers.ofString(envelope))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("urn:ferry:war:raw").contains(">hi</");
  }

  @Test
  void zeepCallsTheEchoAndTheSecuredTellerFromTheirWsdls() throws Exception {
    Map<String, String> out = Zeep.run(Zeep.python(), WarContract.class,
        "zeep_war_client.py", dir, base.toString(), "alice", PASSWORDS.get("alice"));
    assertThat(out).containsEntry("echo_name", "zeep spooled=false")
        .containsEntry("echo_same", "True")
        .containsEntry("teller", "alice admin=true handled");
  }

  @Test
  void withoutADescriptorTheAnnotatedClassesAreFoundAndDeployed() throws Exception {
    Path war = copy("found");
    Files.delete(war.resolve("WEB-INF/sun-jaxws.xml"));
    URI found = deploy(war, "/found");
    assertThat(found).isNotNull();
    assertThat(get(URI.create(found + "/TestMtomService?wsdl")).statusCode()).isEqualTo(200);
    JaxWsProxyFactoryBean f = new JaxWsProxyFactoryBean();
    f.setServiceClass(Teller.class);
    f.setAddress(found + "/TellerService");
    assertThat(f.create(Teller.class).whoAmI("admin")).isEqualTo("nobody admin=false");
    assertThat(get(URI.create(found + "/RawEchoService?wsdl")).statusCode())
        .as("a Provider without a WSDL serves none").isEqualTo(405);
  }

  /** Deploys a copy whose descriptor is {@code descriptor}; returns what the log said. */
  String failedDeployment(String name, String descriptor) throws Exception {
    Path war = copy(name);
    Files.writeString(war.resolve("WEB-INF/sun-jaxws.xml"), descriptor);
    synchronized (deployLog) {
      deployLog.clear();
    }
    URI at = deploy(war, "/" + name);
    URI where = URI.create(base.toString().replace("/app", "/" + name));
    assertThat(at).as("the container did not start the application").isNull();
    assertThat(get(URI.create(where + "/echo?wsdl")).statusCode())
        .as("nothing of it answers").isEqualTo(404);
    synchronized (deployLog) {
      return deployLog.stream().map(LogRecord::getMessage).reduce("", (a, b) -> a + b + "\n");
    }
  }

  static String descriptor(String... endpoints) {
    return "<?xml version=\"1.0\"?>\n"
        + "<endpoints xmlns=\"http://java.sun.com/xml/ns/jax-ws/ri/runtime\" version=\"2.0\">\n"
        + "  <endpoint name=\"echo\" implementation=\"dev.ferry.war.MtomEcho\""
        + " url-pattern=\"/echo\"/>\n" + String.join("\n", endpoints) + "\n</endpoints>\n";
  }

  @Test
  void aMissingClassFailsTheWholeApplicationNamingTheLine() throws Exception {
    assertThat(failedDeployment("missing-class", descriptor(
        "  <endpoint name=\"gone\" implementation=\"dev.ferry.war.Gone\""
        + " url-pattern=\"/gone\"/>")))
        .contains("endpoint \"gone\" (WEB-INF/sun-jaxws.xml, line 4): the implementation"
            + " dev.ferry.war.Gone is not in the web application");
  }

  @Test
  void aMissingWsdlFailsTheWholeApplicationNamingIt() throws Exception {
    assertThat(failedDeployment("missing-wsdl", descriptor(
        "  <endpoint name=\"raw\" implementation=\"dev.ferry.war.RawEcho\" url-pattern=\"/raw\""
        + " wsdl=\"WEB-INF/wsdl/raw.wsdl\"/>")))
        .contains("endpoint \"raw\" (WEB-INF/sun-jaxws.xml, line 4): the WSDL"
            + " WEB-INF/wsdl/raw.wsdl is not in the web application");
  }

  @Test
  void aMalformedDescriptorFailsTheApplicationNamingTheLine() throws Exception {
    assertThat(failedDeployment("malformed", descriptor(
        "  <endpoint name=\"raw\" implementation=\"dev.ferry.war.RawEcho\" url-pattern=\"/raw\">")))
        .contains("WEB-INF/sun-jaxws.xml, line 5: not well-formed XML");
  }
}
