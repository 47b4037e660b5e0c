package dev.ferry.spring.boot.ldap.internal;

import dev.ferry.security.ClientAuth;
import dev.ferry.spring.boot.SslBundleTls;
import javax.net.ssl.SSLContext;
import org.springframework.boot.ssl.SslBundles;

/**
 * The JDK TLS context of a Spring Boot SSL bundle, for the directory server and the pool, which
 * take one (the directory asks for client certificates itself and checks them against the
 * bundle's trust, so the settings are made without client authentication of their own).
 */
final class BundleContexts {
  private BundleContexts() {}

  /**
   * Returns the context of the bundle {@code name}, failing with the {@code property} that
   * named it.
   *
   * @param bundles the application's SSL bundles, or null if it has none
   */
  static SSLContext of(SslBundles bundles, String name, String property) {
    if (bundles == null) {
      throw new IllegalStateException(property + " is set but the application has no SSL"
          + " bundles");
    }
    try {
      return SslBundleTls.of(bundles, name, ClientAuth.NONE).sslContext();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(property + ": " + e.getMessage(), e);
    }
  }
}
