package dev.ferry.spring.boot.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

/**
 * The metadata IDEs complete {@code ferry.clients.*} from, read by Spring Boot's own reader of
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
    // one entry, a map by bean name: IDEs complete ferry.clients.<name>.* from its value type
    assertThat(properties).containsOnlyKeys("ferry.clients");
    ConfigurationMetadataProperty clients = properties.get("ferry.clients");
    assertThat(clients.getDescription()).isNotBlank();
    assertThat(clients.getType()).isEqualTo("java.util.Map<java.lang.String,"
        + ClientProperties.class.getName() + ">");
  }
}
