package dev.ferry.spring.boot.ldap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdapPool;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.ProtocolOp.SearchResultEntry;
import dev.ferry.ldap.SearchScope;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * The embedded directory on disk ({@code ferry.ldap.embedded.store.path}): an entry added and
 * one changed through the application's pool by one run of the application are there in the
 * next one (this test's context, started on the same folder once the first has closed), and
 * the LDIF is not loaded over them again.
 */
@SpringBootTest(classes = DurableEmbeddedDirectoryTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.NONE)
@DirtiesContext // its store is deleted after the class
class DurableEmbeddedDirectoryTest {
  private static final String PEOPLE = "ou=people,dc=example,dc=com";
  private static final Path STORE = folder();
  private static final String[] PROPERTIES = {
      "ferry.ldap.embedded.base-dn=dc=example,dc=com",
      "ferry.ldap.embedded.ldif=classpath:people.ldif",
      "ferry.ldap.embedded.credential.username=cn=admin,dc=example,dc=com",
      "ferry.ldap.embedded.credential.password=admin-secret",
      "ferry.ldap.embedded.store.path=" + STORE,
      "ferry.ldap.embedded.store.max-size=64MB",
      "ferry.ldap.pool.credential.username=cn=admin,dc=example,dc=com",
      "ferry.ldap.pool.credential.password=admin-secret"};

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    for (String p : PROPERTIES) {
      int eq = p.indexOf('=');
      registry.add(p.substring(0, eq), () -> p.substring(eq + 1));
    }
  }

  /** The same application, run before this test's context on the same store, changes it. */
  @BeforeAll
  static void anEarlierRunChangesTheDirectory() throws Exception {
    try (ConfigurableApplicationContext first = new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE).properties(PROPERTIES).run()) {
      first.getBean(LdapPool.class).execute(c -> {
        c.add("uid=dave," + PEOPLE, List.of(Attribute.of("objectClass", "inetOrgPerson"),
            Attribute.of("uid", "dave"), Attribute.of("cn", "Dave Lister"),
            Attribute.of("sn", "Lister")));
        c.modify("uid=alice," + PEOPLE, List.of(new Modification(Modification.Type.REPLACE,
            Attribute.of("mail", "alice@wonderland.example"))));
        return null;
      });
    }
    assertThat(Files.isRegularFile(STORE.resolve("data.mdb"))).isTrue();
  }

  @Autowired
  LdapPool pool;

  @Test
  void changesSurviveARestartOfTheApplication() throws Exception {
    List<SearchResultEntry> found = pool.execute(c -> c.searchAll(SearchRequest.of(PEOPLE,
        SearchScope.SINGLE_LEVEL, Filter.parse("(|(uid=dave)(uid=alice))"), "mail")));
    assertThat(found).extracting(SearchResultEntry::objectName).containsExactlyInAnyOrder(
        "uid=dave," + PEOPLE, "uid=alice," + PEOPLE);
    SearchResultEntry alice = found.stream().filter(e -> e.objectName().startsWith(
        "uid=alice")).findFirst().orElseThrow();
    assertThat(alice.attributes()).extracting(a -> a.value(0).utf8())
        .containsExactly("alice@wonderland.example"); // not the LDIF's again
  }

  private static Path folder() {
    try {
      return Files.createTempDirectory("ferry-ldap-store-");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @AfterAll
  static void deleteStore() throws IOException {
    FileSystemUtils.deleteRecursively(STORE);
  }
}
