package dev.ferry.spring.boot.ldap.internal;

import dev.ferry.ldap.LdapOptions;
import dev.ferry.ldap.LdapPool;
import dev.ferry.spring.boot.ldap.LdapProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.springframework.boot.ssl.SslBundles;

/** Builds the {@code LdapPool} of {@code ferry.ldap.pool.*}. */
public final class Pools {
  private Pools() {}

  /**
   * Builds the pool and opens its minimum of connections.
   *
   * @param embeddedUrl the embedded directory's URL, the pool's when it names no servers; or
   *     null
   * @param bundles the application's SSL bundles, or null
   * @param registry the application's meters, or null
   */
  public static LdapPool build(LdapProperties.Pool p, String embeddedUrl, SslBundles bundles,
      MeterRegistry registry) {
    List<String> urls = p.getUrls().isEmpty() && embeddedUrl != null ? List.of(embeddedUrl)
        : p.getUrls();
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("ferry.ldap.pool.urls names no server");
    }
    if (p.getMin() > p.getMax()) {
      throw new IllegalArgumentException("ferry.ldap.pool.min (" + p.getMin()
          + ") is above ferry.ldap.pool.max (" + p.getMax() + ")");
    }
    LdapOptions.Builder options = LdapOptions.builder().timeout(p.getTimeout());
    LdapProperties.Tls ssl = p.getSsl();
    if (ssl.getBundle() != null) {
      options.sslContext(BundleContexts.of(bundles, ssl.getBundle(),
          "ferry.ldap.pool.ssl.bundle"));
    }
    LdapPool.Builder b = LdapPool.builder().strategy(p.getStrategy()).options(options.build())
        .min(p.getMin()).max(p.getMax()).checkoutTimeout(p.getCheckoutTimeout())
        .maxAge(p.getMaxAge()).maxIdle(p.getMaxIdle())
        .authenticator(authenticator(p));
    try {
      b.servers(urls.toArray(String[]::new));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("ferry.ldap.pool.urls: " + e.getMessage(), e);
    }
    if (registry != null) {
      b.metrics(registry, p.getName());
    }
    try {
      return b.build();
    } catch (IOException e) {
      throw new UncheckedIOException("the LDAP pool (ferry.ldap.pool.*) cannot open its first"
          + " connections to " + urls + ": " + e.getMessage(), e);
    }
  }

  /** StartTLS if asked for, then a simple bind if a credential is set. */
  private static LdapOptions.Authenticator authenticator(LdapProperties.Pool p) {
    boolean startTls = p.getSsl().getMode() == LdapProperties.TlsMode.START_TLS
        && p.getSsl().getBundle() != null;
    LdapProperties.Credential who = p.getCredential();
    if (who.getUsername() != null && who.getPassword() == null) {
      throw new IllegalArgumentException("ferry.ldap.pool.credential.username is set without"
          + " ferry.ldap.pool.credential.password");
    }
    String dn = who.getUsername();
    String password = who.getPassword();
    return c -> {
      if (startTls) {
        c.startTls();
      }
      if (dn != null) {
        c.bind(dn, password);
      }
    };
  }
}
