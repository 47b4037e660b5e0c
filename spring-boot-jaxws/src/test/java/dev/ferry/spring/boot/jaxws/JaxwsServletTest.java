package dev.ferry.spring.boot.jaxws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.xml.ws.Endpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * A Spring Boot application on its embedded Tomcat, with Spring Security and Actuator, whose
 * endpoints (a {@code @WebService} bean, an {@code Endpoint} bean published at a path) are
 * called by CXF's client.
 */
@SpringBootTest(classes = JaxwsServletTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ferry.jaxws.path=/soap",
        "ferry.jaxws.endpoints.greeter.path=/Greeter",
        "ferry.jaxws.endpoints.greeter.mtom=true",
        "ferry.jaxws.endpoints.greeter.mtom-threshold=1024",
        "ferry.jaxws.endpoints.greeter.handlers=counter",
        "management.endpoint.health.show-details=always",
        "management.endpoints.web.exposure.include=health"})
class JaxwsServletTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @Bean
    GreeterService greeter() {
      return new GreeterService("Hello");
    }

    @Bean
    CountingHandler counter() {
      return new CountingHandler();
    }

    @Bean
    Endpoint legacy() {
      Endpoint endpoint = Endpoint.create(new LegacyHello());
      endpoint.publish("/Legacy");
      return endpoint;
    }

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
      return http.csrf(c -> c.ignoringRequestMatchers("/soap/**"))
          .authorizeHttpRequests(a -> a.requestMatchers("/soap/Greeter").authenticated()
              .anyRequest().permitAll())
          .httpBasic(Customizer.withDefaults()).build();
    }

    @Bean
    InMemoryUserDetailsManager users() {
      return new InMemoryUserDetailsManager(
          User.withUsername("alice").password("{noop}wonderland").roles("ADMIN").build(),
          User.withUsername("bob").password("{noop}builder").roles("USER").build());
    }
  }

  @LocalServerPort
  int port;
  @Autowired
  GreeterService greeter;
  @Autowired
  CountingHandler counter;
  @Autowired
  MeterRegistry meters;
  @Autowired
  JaxwsEndpoints endpoints;

  private final HttpClient http = HttpClient.newHttpClient();

  private String url(String path) {
    return "http://127.0.0.1:" + port + path;
  }

  @Test
  void theCallerIsTheOneSpringSecurityAuthenticated() {
    assertThat(CxfClients.greeter(url("/soap/Greeter"), "alice", "wonderland", false).whoAmI())
        .isEqualTo("alice admin=true");
    assertThat(CxfClients.greeter(url("/soap/Greeter"), "bob", "builder", false).whoAmI())
        .isEqualTo("bob admin=false");
    assertThatThrownBy(() -> CxfClients.greeter(url("/soap/Greeter"), null, null, false)
        .whoAmI()).hasStackTraceContaining("401");
    assertThat(greeter.constructed).as("@PostConstruct called by Spring, once").hasValue(1);
  }

  @Test
  void mtomRoundTripsWithCxfAndTheReplyIsAnAttachment() throws Exception {
    byte[] data = new byte[256 * 1024];
    new Random(7).nextBytes(data);
    Greeter port = CxfClients.greeter(url("/soap/Greeter"), "alice", "wonderland", true);
    assertThat(port.echo(data)).isEqualTo(data);

    String envelope = "<s:Envelope xmlns:s='http://schemas.xmlsoap.org/soap/envelope/'><s:Body>"
        + "<g:echo xmlns:g='" + Greeter.NS + "'><data>" + "QUJD".repeat(400) + "</data></g:echo>"
        + "</s:Body></s:Envelope>";
    HttpResponse<String> reply = http.send(HttpRequest.newBuilder(URI.create(
        url("/soap/Greeter"))).header("Content-Type", "text/xml; charset=UTF-8")
        .header("Authorization", "Basic YWxpY2U6d29uZGVybGFuZA==")
        .header("Accept", "multipart/related, text/xml") // MTOM from the properties
        .POST(HttpRequest.BodyPublishers.ofString(envelope)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(reply.statusCode()).isEqualTo(200);
    assertThat(reply.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("multipart/related").contains("application/xop+xml");
    assertThat(counter.requests.get()).as("the handler bean saw the requests").isGreaterThan(1);
  }

  @Test
  void anEndpointBeanPublishedAtAPathIsServedUnderTheJaxwsPath() {
    assertThat(CxfClients.greeter(url("/soap/Legacy"), null, null, false).sayHello("Ada"))
        .isEqualTo("Legacy hello, Ada");
    assertThat(endpoints.endpoints()).extracting(JaxwsEndpoints.Served::path)
        .containsExactly("/soap/Greeter", "/soap/Legacy");
  }

  @Test
  void theWsdlNamesTheAddressTheRequestCameTo() throws Exception {
    HttpResponse<String> wsdl = http.send(HttpRequest.newBuilder(URI.create(
        url("/soap/Legacy?wsdl"))).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(wsdl.statusCode()).isEqualTo(200);
    assertThat(wsdl.body()).contains("name=\"LegacyService\"")
        .contains("location=\"" + url("/soap/Legacy") + "\"");
  }

  @Test
  void metricsAndHealthAreActuators() throws Exception {
    CxfClients.greeter(url("/soap/Legacy"), null, null, false).sayHello("Grace");
    assertThat(meters.find("ferry.server.requests").tag("endpoint", "/soap/Legacy")
        .tag("status", "200").counter()).isNotNull()
        .satisfies(c -> assertThat(c.count()).isGreaterThanOrEqualTo(1));
    HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(
        url("/actuator/health"))).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(health.body()).containsPattern("\"ferryJaxws\":\\{\"details\":\\{\"endpoints\":"
        + "\\{[^}]*\"/soap/Legacy\":\"" + LegacyHello.class.getName() + "\"[^}]*}[^}]*},"
        + "\"status\":\"UP\"");
  }
}
