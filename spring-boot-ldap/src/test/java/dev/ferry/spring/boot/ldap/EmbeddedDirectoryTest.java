package dev.ferry.spring.boot.ldap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapPool;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.server.LdapServer;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import javax.naming.directory.BasicAttribute;
import javax.naming.directory.BasicAttributes;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.ldap.core.AttributesMapper;
import org.springframework.ldap.core.LdapTemplate;
import org.springframework.ldap.query.LdapQueryBuilder;

/**
 * An application with the starter and Spring LDAP: the embedded directory loads LDIF, the
 * pool binds as a user (anonymous read is off) and searches, Spring LDAP's LdapTemplate (from
 * Spring Boot's own auto-configuration) reads, writes and authenticates against the same
 * directory, and Actuator reports the pool's health and meters.
 */
@SpringBootTest(classes = EmbeddedDirectoryTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
        "ferry.ldap.embedded.base-dn=dc=example,dc=com",
        "ferry.ldap.embedded.ldif=classpath:people.ldif",
        "ferry.ldap.embedded.credential.username=cn=admin,dc=example,dc=com",
        "ferry.ldap.embedded.credential.password=admin-secret",
        "ferry.ldap.embedded.anonymous-read=false",
        "ferry.ldap.pool.credential.username=uid=alice,ou=people,dc=example,dc=com",
        "ferry.ldap.pool.credential.password=alice-secret",
        "spring.ldap.base=dc=example,dc=com",
        "management.endpoint.health.show-details=always", "spring.jmx.enabled=true",
        "management.endpoints.jmx.exposure.include=health"})
class EmbeddedDirectoryTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  @Autowired
  LdapPool pool;
  @Autowired
  LdapServer server;
  @Autowired
  LdapTemplate template;
  @Autowired
  HealthEndpoint health;
  @Autowired
  MeterRegistry registry;
  @Value("${local.ldap.port}")
  int port;

  @Test
  void thePoolBindsAndSearchesTheDirectoryLoadedFromLdif() throws Exception {
    assertThat(port).isEqualTo(server.port());
    String who = pool.execute(c -> c.whoAmI());
    assertThat(who).isEqualTo("dn:uid=alice,ou=people,dc=example,dc=com");
    List<SearchResultEntry> people = pool.execute(c -> c.searchAll(SearchRequest.of(
        "dc=example,dc=com", SearchScope.WHOLE_SUBTREE, Filter.parse("(objectClass=person)"),
        "cn")));
    assertThat(people).extracting(SearchResultEntry::objectName).containsExactlyInAnyOrder(
        "uid=alice,ou=people,dc=example,dc=com", "uid=bob,ou=people,dc=example,dc=com",
        "uid=carol,ou=people,dc=example,dc=com");
  }

  @Test
  void springLdapReadsWritesAndAuthenticatesOnTheSameDirectory() throws Exception {
    List<String> names = template.search(LdapQueryBuilder.query().where("uid").is("bob"),
        (AttributesMapper<String>) a -> (String) a.get("cn").get());
    assertThat(names).containsExactly("Bob Dobbs");
    assertThat(template.authenticate("ou=people", "(uid=bob)", "bob-secret")).isTrue();
    assertThat(template.authenticate("ou=people", "(uid=bob)", "wrong")).isFalse();

    BasicAttributes dave = new BasicAttributes(true);
    BasicAttribute classes = new BasicAttribute("objectClass");
    classes.add("inetOrgPerson");
    dave.put(classes);
    dave.put("uid", "dave");
    dave.put("cn", "Dave Lister");
    dave.put("sn", "Lister");
    template.bind("uid=dave,ou=people", null, dave);
    try {
      SearchResultEntry e = pool.execute(c -> c.searchAll(SearchRequest.of(
          "uid=dave,ou=people,dc=example,dc=com", SearchScope.BASE_OBJECT,
          Filter.present("objectClass"), "cn")).get(0));
      assertThat(e.attribute("cn")).isEqualTo(Attribute.of("cn", "Dave Lister"));
    } finally {
      template.unbind("uid=dave,ou=people");
    }
  }

  @Test
  void actuatorReportsThePoolsHealthAndMeters() throws Exception {
    pool.execute(c -> c.whoAmI());
    IndicatedHealthDescriptor ferry = (IndicatedHealthDescriptor) health
        .healthForPath("ferryLdap");
    assertThat(ferry.getStatus().getCode()).isEqualTo("UP");
    assertThat(ferry.getDetails()).containsKeys("pool", "embedded");
    @SuppressWarnings("unchecked")
    Map<String, Object> embedded = (Map<String, Object>) ferry.getDetails().get("embedded");
    assertThat(embedded).containsEntry("url", server.url()).containsEntry("entries", 5);
    assertThat(((IndicatedHealthDescriptor) health.healthForPath("ldap")).getStatus()
        .getCode()).as("Spring Boot's own LDAP health, through LdapTemplate").isEqualTo("UP");

    assertThat(registry.get("ferry.ldap.pool.connections").tag("pool", "default")
        .tag("state", "idle").gauge().value()).isGreaterThanOrEqualTo(1);
    assertThat(registry.get("ferry.ldap.pool.checkout").tag("pool", "default").timer()
        .count()).isPositive();
    assertThat(registry.get("ferry.ldap.pool.opened").tag("pool", "default").counter()
        .count()).isPositive();
  }
}
