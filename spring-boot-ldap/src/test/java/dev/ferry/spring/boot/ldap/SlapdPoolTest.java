package dev.ferry.spring.boot.ldap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapPool;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.interop.Slapd;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The pool bean against OpenLDAP's slapd (installed by the ldap module's test fixture, or
 * skipped with FERRY_SKIP_SLAPD=1 where it cannot be): over ldaps with the test CA from an SSL
 * bundle, bound as slapd's admin.
 */
class SlapdPoolTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  @Test
  void thePoolSearchesSlapdOverLdaps() throws Exception {
    try (Slapd slapd = Slapd.start()) {
      slapd.addBaseEntries();
      try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
          .web(WebApplicationType.NONE).properties("spring.main.banner-mode=off",
              "ferry.ldap.pool.urls=ldaps://127.0.0.1:" + slapd.tlsPort,
              "ferry.ldap.pool.credential.username=" + Slapd.ADMIN,
              "ferry.ldap.pool.credential.password=" + Slapd.PASSWORD,
              "ferry.ldap.pool.ssl.bundle=slapd",
              "spring.ssl.bundle.pem.slapd.truststore.certificate="
                  + slapd.dir.resolve("ca.pem").toUri(),
              "management.endpoint.health.show-details=always").run()) {
        LdapPool pool = context.getBean(LdapPool.class);
        List<SearchResultEntry> found = pool.execute(c -> c.searchAll(SearchRequest.of(
            Slapd.SUFFIX, SearchScope.WHOLE_SUBTREE, Filter.parse("(ou=people)"))));
        assertThat(found).extracting(SearchResultEntry::objectName)
            .containsExactly("ou=people," + Slapd.SUFFIX);
        String who = pool.execute(c -> c.whoAmI());
        assertThat(who).isEqualTo("dn:" + Slapd.ADMIN);
        HealthIndicator health = context.getBean("ferryLdapHealthIndicator",
            HealthIndicator.class);
        assertThat(health.health().getStatus().getCode()).isEqualTo("UP");
      }
    }
  }
}
