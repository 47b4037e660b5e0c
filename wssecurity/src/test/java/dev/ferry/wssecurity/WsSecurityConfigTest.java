package dev.ferry.wssecurity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.soap.MessageGuardFactory;
import dev.ferry.testkit.TestPki;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code ws-security} configuration section, as a broker route or an endpoint has it. */
class WsSecurityConfigTest {
  @TempDir
  Path dir;

  private static MessageGuardFactory factory() {
    return ServiceLoader.load(MessageGuardFactory.class).stream().map(ServiceLoader.Provider::get)
        .filter(f -> f.type().equals("ws-security")).findFirst().orElseThrow();
  }

  @Test
  void aSectionBecomesPolicies() throws Exception {
    TestPki pki = TestPki.create("CN=Config CA");
    TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    WsSecurity s = (WsSecurity) factory().create(Map.of(
        "inbound", Map.of("usernameToken", "digest", "timestamp", "90s", "signBody", true,
            "clockSkew", "500ms", "signHeaders", List.of("{urn:a}B")),
        "trust", "ca.pem"), dir);
    WsSecurityPolicy in = s.inboundPolicy();
    assertThat(in.usernameToken()).isEqualTo(WsSecurityPolicy.Password.DIGEST);
    assertThat(in.timestampTtl()).isEqualTo(Duration.ofSeconds(90));
    assertThat(in.clockSkew()).isEqualTo(Duration.ofMillis(500));
    assertThat(in.signBody()).isTrue();
    assertThat(in.signedHeaders()).extracting(Object::toString).containsExactly("{urn:a}B");
    assertThat(in.validateSchema()).as("by default").isTrue();
    assertThat(s.outboundPolicy().isEmpty()).isTrue();
  }

  @Test
  void theSchemaCheckCanBeTurnedOffForMetrosMessages() throws Exception {
    WsSecurity s = (WsSecurity) factory().create(Map.of("inbound", Map.of("timestamp", "5m",
        "validateSchema", false)), dir);
    assertThat(s.inboundPolicy().validateSchema()).isFalse();
  }

  @Test
  void mistakesNameTheKey() {
    assertThatThrownBy(() -> factory().create(Map.of("inbnd", Map.of()), dir))
        .hasMessageContaining("inbnd: unknown key");
    assertThatThrownBy(() -> factory().create(Map.of("inbound", Map.of("usernameToken",
        "plain")), dir)).hasMessageContaining("inbound.usernameToken: expected text or digest");
    assertThatThrownBy(() -> factory().create(Map.of("inbound", Map.of("timestamp", "soon")),
        dir)).hasMessageContaining("inbound.timestamp: expected a duration");
    assertThatThrownBy(() -> factory().create(Map.of("inbound", Map.of("signBody", "yes")),
        dir)).hasMessageContaining("inbound.signBody: expected true or false");
    assertThatThrownBy(() -> factory().create(Map.of("inbound", Map.of("signBody", true)),
        dir)).hasMessageContaining("trust(");
    assertThatThrownBy(() -> factory().create(Map.of("certificate", "c.pem"), dir))
        .hasMessageContaining("certificate and key go together");
  }
}
