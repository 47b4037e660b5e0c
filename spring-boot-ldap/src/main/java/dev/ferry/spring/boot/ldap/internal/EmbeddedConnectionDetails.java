package dev.ferry.spring.boot.ldap.internal;

import dev.ferry.spring.boot.ldap.LdapProperties;
import org.springframework.boot.ldap.autoconfigure.LdapConnectionDetails;

/**
 * Where Spring Boot's LDAP auto-configuration connects: the embedded directory, bound as its
 * root DN where one is set, from {@code spring.ldap.base} (as Spring Boot's embedded directory
 * does).
 */
public final class EmbeddedConnectionDetails implements LdapConnectionDetails {
  private final String url;
  private final LdapProperties.Credential credential;
  private final String base;

  public EmbeddedConnectionDetails(String url, LdapProperties.Embedded embedded, String base) {
    this.url = url;
    this.credential = embedded.getCredential();
    this.base = base;
  }

  @Override
  public String[] getUrls() {
    return new String[] {url};
  }

  @Override
  public String getBase() {
    return base;
  }

  @Override
  public String getUsername() {
    return credential.getUsername();
  }

  @Override
  public String getPassword() {
    return credential.getPassword();
  }
}
