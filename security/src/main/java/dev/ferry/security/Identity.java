package dev.ferry.security;

import java.security.Principal;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.Set;

/**
 * Who a caller is, as a transport authenticated it: a user name checked against a password file,
 * or the subject of a TLS client certificate the trust accepted; and the roles the
 * {@link Authenticator} gives it ({@link Authenticator#withRoles}), none unless told.
 */
public final class Identity implements Principal {
  /** How the caller was authenticated. */
  public enum Method {
    /** HTTP Basic, the password checked against a {@link PasswordFile}. */
    BASIC,
    /** A TLS client certificate, its chain checked by the listener's trust. */
    CERTIFICATE
  }

  private final String name;
  private final Method method;
  private final X509Certificate certificate;
  private final Set<String> roles;

  private Identity(String name, Method method, X509Certificate certificate, Set<String> roles) {
    this.name = Objects.requireNonNull(name);
    this.method = method;
    this.certificate = certificate;
    this.roles = Set.copyOf(roles);
  }

  /** A user who gave the right password. */
  public static Identity user(String name) {
    return new Identity(name, Method.BASIC, null, Set.of());
  }

  /** The holder of {@code certificate}; its name is the subject in RFC 2253 form. */
  public static Identity certificate(X509Certificate certificate) {
    return new Identity(certificate.getSubjectX500Principal().getName(), Method.CERTIFICATE,
        certificate, Set.of());
  }

  /** This identity with {@code roles} in place of its own. */
  public Identity withRoles(Set<String> roles) {
    return new Identity(name, method, certificate, roles);
  }

  /** The roles the caller has (as a servlet's {@code isUserInRole} asks), perhaps none. */
  public Set<String> roles() {
    return roles;
  }

  /** Whether the caller has {@code role}. */
  public boolean isInRole(String role) {
    return roles.contains(role);
  }

  /** The user name, or the certificate's subject ({@code CN=client,O=Ferry}). */
  @Override
  public String getName() {
    return name;
  }

  public Method method() {
    return method;
  }

  /** The client certificate, or null for a user. */
  public X509Certificate certificate() {
    return certificate;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Identity i && i.name.equals(name) && i.method == method;
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + method.hashCode();
  }

  @Override
  public String toString() {
    return method == Method.BASIC ? "user " + name : "certificate " + name;
  }
}
