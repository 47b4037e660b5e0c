package dev.ferry.spring.boot.jaxws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.testkit.Zeep;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Python's zeep calls a {@code @WebService} bean the starter serves on Boot's Tomcat, from the
 * WSDL the starter publishes, and gets the same answers as CXF's client gets for the same
 * requests. Skipped, saying why, where zeep cannot be installed from PyPI.
 */
@SpringBootTest(classes = ZeepPeerTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "ferry.jaxws.path=/soap", "ferry.jaxws.endpoints.greeter.path=/Greeter"})
class ZeepPeerTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  @Import(OpenSecurity.class)
  static class App {
    @Bean
    GreeterService greeter() {
      return new GreeterService("Hello");
    }
  }

  @LocalServerPort
  int port;

  @TempDir
  Path dir;

  @Test
  void zeepGetsTheAnswersCxfsClientGets() throws Exception {
    String address = "http://127.0.0.1:" + port + "/soap/Greeter";
    Map<String, String> zeep = Zeep.run(Zeep.python(), ZeepPeerTest.class,
        "zeep_greeter_client.py", dir, address);

    Greeter cxf = CxfClients.greeter(address, null, null, false);
    byte[] data = new byte[256 * 64];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) i;
    }
    assertThat(zeep.get("hello")).isEqualTo(cxf.sayHello("Ada Lovelace <&>"))
        .isEqualTo("Hello, Ada Lovelace <&>!");
    assertThat(zeep.get("echo")).isEqualTo(Base64.getEncoder().encodeToString(cxf.echo(data)))
        .isEqualTo(Base64.getEncoder().encodeToString(data));
  }
}
