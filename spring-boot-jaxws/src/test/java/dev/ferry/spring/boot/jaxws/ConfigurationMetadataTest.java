package dev.ferry.spring.boot.jaxws;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

/**
 * The metadata IDEs complete {@code ferry.jaxws.*} from, read by Spring Boot's own reader of
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
    assertThat(properties).containsKeys("ferry.jaxws.path", "ferry.jaxws.max-requests",
        "ferry.jaxws.attachment-memory-bytes", "ferry.jaxws.public-address",
        "ferry.jaxws.endpoints", "ferry.jaxws.server.port", "ferry.jaxws.server.ssl-bundle",
        "ferry.jaxws.server.client-auth", "ferry.jaxws.server.request-timeout");
    properties.values().forEach(p -> assertThat(p.getDescription()).as(p.getId()).isNotBlank());
    assertThat(properties.get("ferry.jaxws.path").getDefaultValue()).isEqualTo("/services");
    assertThat(properties.get("ferry.jaxws.server.request-timeout").getType())
        .isEqualTo("java.time.Duration");
    // IDEs complete ferry.jaxws.endpoints.<bean>.* from the map's value type
    assertThat(properties.get("ferry.jaxws.endpoints").getType())
        .startsWith("java.util.Map<").contains("JaxwsProperties").endsWith("Endpoint>");
  }
}
