package dev.ferry.ldap.server;

import dev.ferry.ldap.LdapConnection;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that runs an {@link LdapServer} for a test class: registered on a static
 * field, one server serves the whole class and its content is put back as loaded after each
 * test (entries are immutable, so this is a copy of a map); on an instance field, each test gets
 * a server of its own. Test methods may take the {@link LdapServer} as a parameter.
 *
 * <pre>{@code
 * class PeopleTest {
 *   @RegisterExtension
 *   static final LdapServerExtension LDAP = new LdapServerExtension(LdapServer.builder()
 *       .suffix("dc=example,dc=com")
 *       .rootDn("cn=admin,dc=example,dc=com", "secret")
 *       .ldifResource(PeopleTest.class, "people.ldif"));
 *
 *   @Test
 *   void findsBabs(LdapServer server) throws IOException {
 *     try (LdapConnection c = LDAP.connect()) { ... }
 *     DirectoryAssertions.assertEntryExists(server, "uid=bjensen,ou=people,dc=example,dc=com");
 *   }
 * }
 * }</pre>
 *
 * <p>JUnit is an optional dependency of this module: only this class needs it.
 */
public final class LdapServerExtension implements BeforeAllCallback, AfterAllCallback,
    BeforeEachCallback, AfterEachCallback, ParameterResolver {
  private final LdapServer.Builder builder;
  private LdapServer server;
  private Map<String, StoredEntry> loaded;
  private boolean perClass;

  /** Runs servers built by {@code builder} (started once per class or per test). */
  public LdapServerExtension(LdapServer.Builder builder) {
    this.builder = Objects.requireNonNull(builder, "builder");
  }

  /** Returns the running server; fails outside a test. */
  public LdapServer server() {
    if (server == null) {
      throw new IllegalStateException("the LDAP server runs only while a test runs");
    }
    return server;
  }

  /** Returns the server's port. */
  public int port() {
    return server().port();
  }

  /** Returns {@code ldap://host:port}. */
  public String url() {
    return server().url();
  }

  /** Opens an anonymous connection to the server (close it). */
  public LdapConnection connect() throws IOException {
    return LdapConnection.connect(server().host(), server().port());
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    perClass = true;
    start();
    loaded = server.snapshot();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    if (!perClass) {
      start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (perClass) {
      server.restore(loaded);
    } else {
      stop();
    }
  }

  private void start() throws IOException {
    server = builder.start();
  }

  private void stop() {
    if (server != null) {
      server.close();
      server = null;
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == LdapServer.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return server();
  }
}
