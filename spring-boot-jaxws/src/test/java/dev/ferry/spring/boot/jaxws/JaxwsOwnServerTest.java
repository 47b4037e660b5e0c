package dev.ferry.spring.boot.jaxws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.security.PasswordFile;
import dev.ferry.testkit.TestPki;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * An application without a servlet container: its endpoint on Ferry's own server, with TLS
 * from an SSL bundle and HTTP Basic against a password file, started and stopped with the
 * application; and property errors that fail start-up naming the property.
 */
class JaxwsOwnServerTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @Bean
    GreeterService greeter() {
      return new GreeterService("Bonjour");
    }
  }

  @TempDir
  Path dir;

  private static SpringApplicationBuilder app(String... properties) {
    return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
        .properties("spring.main.banner-mode=off", "ferry.jaxws.server.port=0",
            "ferry.jaxws.server.host=127.0.0.1")
        .properties(properties);
  }

  @Test
  void servesOverTlsFromAnSslBundleToBasicCallersAndStopsWithTheApplication()
      throws Exception {
    TestPki pki = TestPki.create("CN=Test CA");
    TestPki.Credential server = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1")
        .make();
    Path chain = server.writeChainPem(dir.resolve("server.pem"));
    Path key = server.writeKeyPem(dir.resolve("server.key"));
    Path users = Files.writeString(dir.resolve("users.txt"),
        PasswordFile.line("alice", "secret".toCharArray(), PasswordFile.MIN_ITERATIONS) + "\n");
    URI address;
    try (ConfigurableApplicationContext context = app(
        "spring.ssl.bundle.pem.soap.keystore.certificate=" + chain.toUri(),
        "spring.ssl.bundle.pem.soap.keystore.private-key=" + key.toUri(),
        "ferry.jaxws.server.ssl-bundle=soap",
        "ferry.jaxws.server.users=" + users).run()) {
      JaxwsEndpoints endpoints = context.getBean(JaxwsEndpoints.class);
      address = endpoints.ownServerUri("/services/GreeterService");
      assertThat(address.getScheme()).isEqualTo("https");
      Greeter alice = CxfClients.greeter(address.toString(), "alice", "secret",
          pki.certificate());
      assertThat(alice.sayHello("Ada")).isEqualTo("Bonjour, Ada!");
      assertThat(alice.whoAmI()).isEqualTo("alice admin=false");
      Greeter nobody = CxfClients.greeter(address.toString(), null, null, pki.certificate());
      assertThatThrownBy(nobody::whoAmI).hasStackTraceContaining("401");
    }
    assertThatThrownBy(() -> new Socket(address.getHost(), address.getPort()).close())
        .as("the server closed with the application").isInstanceOf(ConnectException.class);
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void aBadPropertyFailsStartUpNamingIt(CapturedOutput output) {
    for (List<String> bad : List.of(List.of("ferry.jaxws.path=services", "ferry.jaxws.path"),
        List.of("ferry.jaxws.max-requests=0", "ferry.jaxws.max-requests"),
        List.of("ferry.jaxws.endpoints.greeter.path=/a*", "ferry.jaxws.endpoints.greeter.path"),
        List.of("ferry.jaxws.server.port=70000", "ferry.jaxws.server.port"))) {
      int from = output.getOut().length();
      assertThatThrownBy(() -> app(bad.get(0)).run().close()).as(bad.get(0))
          .isInstanceOf(RuntimeException.class);
      assertThat(output.getOut().substring(from)).as("the start-up report")
          .contains("APPLICATION FAILED TO START", "Property: " + bad.get(1), "Reason:");
    }
    assertThatThrownBy(() -> app("ferry.jaxws.server.ssl-bundle=none").run().close())
        .hasStackTraceContaining("there is no SSL bundle \"none\"");
    assertThatThrownBy(() -> app("ferry.jaxws.endpoints.greeter.handlers=nothing").run()
        .close()).hasStackTraceContaining("ferry.jaxws.endpoints.greeter.handlers names"
            + " 'nothing', which is no bean");
  }
}
