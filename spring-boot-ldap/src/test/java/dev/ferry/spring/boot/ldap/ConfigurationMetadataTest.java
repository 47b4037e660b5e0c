package dev.ferry.spring.boot.ldap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

/**
 * The metadata IDEs complete {@code ferry.ldap.*} from, read by Spring Boot's own reader of
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
    assertThat(properties).containsKeys("ferry.ldap.embedded.base-dn", "ferry.ldap.embedded.ldif",
        "ferry.ldap.embedded.port", "ferry.ldap.embedded.credential.username",
        "ferry.ldap.embedded.credential.password", "ferry.ldap.embedded.anonymous-read",
        "ferry.ldap.embedded.ssl.bundle", "ferry.ldap.embedded.ssl.mode",
        "ferry.ldap.embedded.store.path", "ferry.ldap.embedded.store.max-size",
        "ferry.ldap.pool.urls",
        "ferry.ldap.pool.credential.username", "ferry.ldap.pool.ssl.bundle",
        "ferry.ldap.pool.min", "ferry.ldap.pool.max", "ferry.ldap.pool.checkout-timeout",
        "ferry.ldap.pool.timeout");
    properties.values().forEach(p -> assertThat(p.getDescription()).as(p.getId()).isNotBlank());
    assertThat(properties.get("ferry.ldap.pool.max").getDefaultValue()).isEqualTo(8);
    assertThat(properties.get("ferry.ldap.embedded.anonymous-read").getDefaultValue())
        .isEqualTo(true);
    assertThat(properties.get("ferry.ldap.embedded.store.path").getType())
        .isEqualTo("java.nio.file.Path");
    assertThat(properties.get("ferry.ldap.embedded.store.max-size").getType())
        .isEqualTo("org.springframework.util.unit.DataSize");
  }
}
