package dev.ferry.spring.boot.ldap.internal;

import dev.ferry.ldap.LdifReader;
import dev.ferry.ldap.server.AccessRules;
import dev.ferry.ldap.server.LdapServer;
import dev.ferry.spring.boot.ldap.LdapProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/** Starts Ferry's directory server from {@code ferry.ldap.embedded.*}. */
public final class EmbeddedDirectory {
  /** The LDIF Spring Boot's embedded directory loads when it exists. */
  static final String DEFAULT_LDIF = "classpath:schema.ldif";

  private EmbeddedDirectory() {}

  /**
   * Starts the server, and publishes its port as {@code local.ldap.port} (as Spring Boot's
   * embedded directory does) and its URL as {@code local.ferry.ldap.url}.
   *
   * @param bundles the application's SSL bundles, or null if it has none
   */
  public static LdapServer start(LdapProperties.Embedded p, ResourceLoader resources,
      SslBundles bundles, ConfigurableEnvironment environment) {
    LdapServer.Builder b = LdapServer.builder().port(p.getPort())
        .suffix(p.getBaseDn().toArray(String[]::new))
        .readOnly(p.isReadOnly())
        .access(AccessRules.builder().anonymousRead(p.isAnonymousRead()).build());
    try {
      b.address(InetAddress.getByName(p.getHost()));
    } catch (IOException e) {
      throw new IllegalArgumentException("ferry.ldap.embedded.host: " + e.getMessage(), e);
    }
    LdapProperties.Credential root = p.getCredential();
    if (root.getUsername() != null) {
      if (root.getPassword() == null) {
        throw new IllegalArgumentException("ferry.ldap.embedded.credential.username is set"
            + " without ferry.ldap.embedded.credential.password");
      }
      b.rootDn(root.getUsername(), root.getPassword());
    }
    if (p.getStore().getPath() != null) {
      b.storage(p.getStore().getPath(), p.getStore().getMaxSize().toBytes());
    }
    for (Resource r : ldif(p, resources)) {
      b.records(read(r));
    }
    if (p.getSsl().getBundle() != null) {
      SSLContext tls = BundleContexts.of(bundles, p.getSsl().getBundle(),
          "ferry.ldap.embedded.ssl.bundle");
      if (p.getSsl().getMode() == LdapProperties.TlsMode.LDAPS) {
        b.ldaps(tls);
      } else {
        b.tls(tls);
      }
    }
    LdapServer server;
    try {
      server = b.start();
    } catch (IOException e) {
      throw new UncheckedIOException("the embedded directory (ferry.ldap.embedded.*) cannot"
          + " start: " + e.getMessage(), e);
    }
    environment.getPropertySources().addFirst(new MapPropertySource("ferryLdapEmbedded",
        Map.of("local.ldap.port", server.port(), "local.ferry.ldap.url", server.url())));
    return server;
  }

  private static List<Resource> ldif(LdapProperties.Embedded p, ResourceLoader resources) {
    List<Resource> found = new ArrayList<>();
    if (p.getLdif().isEmpty()) {
      Resource r = resources.getResource(DEFAULT_LDIF);
      if (r.exists()) {
        found.add(r);
      }
      return found;
    }
    for (String location : p.getLdif()) {
      Resource r = resources.getResource(location);
      if (!r.exists()) {
        throw new IllegalArgumentException("ferry.ldap.embedded.ldif: there is no " + location);
      }
      found.add(r);
    }
    return found;
  }

  private static List<dev.ferry.ldap.LdifRecord> read(Resource r) {
    try (InputStream in = r.getInputStream()) {
      return LdifReader.of(in).readAll();
    } catch (IOException e) {
      throw new UncheckedIOException("ferry.ldap.embedded.ldif: " + r.getDescription() + ": "
          + e.getMessage(), e);
    }
  }
}
