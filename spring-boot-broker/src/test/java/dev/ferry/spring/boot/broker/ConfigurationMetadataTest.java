package dev.ferry.spring.boot.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

/**
 * The metadata IDEs complete {@code ferry.broker.*} from, read by Spring Boot's own reader of
 * it: each main property is there with its type, a description and, where the field has a
 * plain one, its default.
 */
class ConfigurationMetadataTest {

  static Map<String, ConfigurationMetadataProperty> metadata() throws IOException {
    try (InputStream in = ConfigurationMetadataTest.class.getResourceAsStream(
        "/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("META-INF/spring-configuration-metadata.json").isNotNull();
      return ConfigurationMetadataRepositoryJsonBuilder.create(in).build().getAllProperties();
    }
  }

  @Test
  void listsTheMainPropertiesWithTypesAndDescriptions() throws IOException {
    Map<String, ConfigurationMetadataProperty> properties = metadata();
    assertThat(properties).containsKeys("ferry.broker.routes", "ferry.broker.routes-file",
        "ferry.broker.port", "ferry.broker.timeout", "ferry.broker.ssl-bundle",
        "ferry.broker.client-auth", "ferry.broker.users", "ferry.broker.drain-delay",
        "ferry.broker.drain-timeout");
    properties.values().forEach(p -> assertThat(p.getDescription()).as(p.getId()).isNotBlank());
    assertThat(properties.get("ferry.broker.drain-timeout").getType())
        .isEqualTo("java.time.Duration");
    // IDEs complete ferry.broker.routes[i].* from the list's element type
    assertThat(properties.get("ferry.broker.routes").getType())
        .startsWith("java.util.List<").contains("BrokerProperties").endsWith("Route>");
  }
}
