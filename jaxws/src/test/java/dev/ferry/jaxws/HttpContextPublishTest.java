package dev.ferry.jaxws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.jaxws.internal.BytesSource;
import dev.ferry.jaxws.internal.MtomEchoPort;
import dev.ferry.security.Authenticator;
import dev.ferry.security.PasswordFile;
import dev.ferry.server.Metrics;
import dev.ferry.server.ServerOptions;
import dev.ferry.testkit.Blobs;
import jakarta.activation.DataHandler;
import jakarta.xml.ws.BindingProvider;
import jakarta.xml.ws.Endpoint;
import jakarta.xml.ws.Holder;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.soap.MTOMFeature;
import jakarta.xml.ws.spi.http.HttpContext;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.xml.namespace.QName;
import org.jboss.ws.undertow_httpspi.UndertowContextFactory;
import org.jboss.ws.undertow_httpspi.UndertowServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Endpoints hosted by another HTTP container through the {@code jakarta.xml.ws.spi.http} SPI:
 * Undertow, with JBoss's bridge (what WildFly uses), calls Ferry's handler for each exchange.
 */
class HttpContextPublishTest {
  static final QName ECHO_SERVICE = new QName("http://cxf.apache.org/mime", "TestMtomService");

  @TempDir
  static Path dir;
  static UndertowServer undertow;
  static String base;
  static Endpoint echo;
  static Endpoint teller;
  static final Metrics METRICS = Metrics.create("ferry.server");

  @BeforeAll
  static void publish() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    undertow = new UndertowServer(port, "127.0.0.1");
    base = "http://127.0.0.1:" + port + "/app";
    // tag::http-context[]
    HttpContext context = UndertowContextFactory.createHttpContext(undertow, "/app", "/echo");
    echo = Endpoint.create(new EchoImpl());
    echo.publish(context);                               // the container's listener
    // end::http-context[]
    Path users = Files.writeString(dir.resolve("users.txt"),
        PasswordFile.line("alice", "wonderland".toCharArray(), PasswordFile.MIN_ITERATIONS));
    teller = Endpoint.create(new TellerImpl(), ServerFeature.builder().metrics(METRICS)
        .options(ServerOptions.builder()
            .authenticator(Authenticator.basic(PasswordFile.load(users))).build())
        .build());
    teller.publish(UndertowContextFactory.createHttpContext(undertow, "/app", "/teller"));
    undertow.start();
  }

  @AfterAll
  static void stop() {
    echo.stop();
    teller.stop();
    undertow.stop();
  }

  @Test
  void anMtomEchoFromTheServedWsdlCrossesTheContainer() throws Exception {
    MtomEchoPort port = Service.create(new URL(base + "/echo?wsdl"), ECHO_SERVICE)
        .getPort(MtomEchoPort.class, new MTOMFeature());
    ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY,
        base + "/echo");
    byte[] blob = Blobs.random(300_000, 11);
    Holder<String> name = new Holder<>("via the SPI");
    Holder<DataHandler> data = new Holder<>(new DataHandler(new BytesSource(blob)));
    port.testMtom(name, data);
    assertThat(name.value).isEqualTo("via the SPI");
    try (InputStream in = data.value.getInputStream()) {
      assertThat(in.readAllBytes()).isEqualTo(blob);
    }
  }

  @Test
  void theFeaturesAuthenticatorAndMetricsApplyInTheContainer() throws Exception {
    Teller port = SecureEndpointTest.port(base + "/teller", null);
    assertThatThrownBy(() -> port.whoAmI("admin")).isInstanceOf(WebServiceException.class)
        .hasMessageContaining("401");
    Map<String, Object> rc = ((BindingProvider) port).getRequestContext();
    rc.put(BindingProvider.USERNAME_PROPERTY, "alice");
    rc.put(BindingProvider.PASSWORD_PROPERTY, "wonderland");
    assertThat(port.whoAmI("admin")).isEqualTo("alice admin=false");
    assertThat(METRICS.scrape()).containsPattern(
        "ferry_server_requests_total\\{endpoint=\"/teller\",status=\"200\"} 1")
        .containsPattern("ferry_server_requests_total\\{endpoint=\"/teller\",status=\"401\"} 1");
  }

  @Test
  void aStoppedEndpointAnswers404AndOtherContextsAreRefused() throws Exception {
    Endpoint e = Endpoint.create(new TellerImpl());
    assertThatThrownBy(() -> e.publish(new Object()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jakarta.xml.ws.spi.http.HttpContext, not on java.lang.Object");
    e.publish(UndertowContextFactory.createHttpContext(undertow, "/app", "/brief"));
    e.stop();
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(base + "/brief?wsdl")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(404);
  }
}
