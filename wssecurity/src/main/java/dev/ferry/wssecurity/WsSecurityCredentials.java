package dev.ferry.wssecurity;

import dev.ferry.security.KeyMaterial;
import dev.ferry.security.PasswordFile;
import dev.ferry.security.TrustMaterial;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The keys and passwords WS-Security uses, whatever the policy asks of them:
 *
 * <ul>
 *   <li>{@link Builder#user}: the user and password of outgoing UsernameTokens;</li>
 *   <li>{@link Builder#passwords}: the passwords incoming UsernameTokens are checked against (a
 *       digest needs the password itself), or {@link Builder#passwordFile} (salted hashes, for
 *       text passwords only);</li>
 *   <li>{@link Builder#key}: this node's key and certificate, which signs what it sends and
 *       decrypts what was encrypted for it;</li>
 *   <li>{@link Builder#trust}: the certificates a signer's certificate must chain to, and
 *       {@link Builder#revoked} CRLs of certificates no longer accepted;</li>
 *   <li>{@link Builder#recipient}: the certificate of the peer outgoing Bodies are encrypted
 *       for, which is trusted as a signer too.</li>
 * </ul>
 */
public final class WsSecurityCredentials {
  private final String user;
  private final char[] password;
  private final Function<String, char[]> passwords;
  private final PasswordFile passwordFile;
  private final KeyMaterial key;
  private final TrustMaterial trust;
  private final List<X509CRL> revoked;
  private final X509Certificate recipient;

  private WsSecurityCredentials(Builder b) {
    this.user = b.user;
    this.password = b.password;
    this.passwords = b.passwords;
    this.passwordFile = b.passwordFile;
    this.key = b.key;
    this.trust = b.trust;
    this.revoked = List.copyOf(b.revoked);
    this.recipient = b.recipient;
  }

  public static Builder builder() {
    return new Builder();
  }

  public String user() {
    return user;
  }

  /** The outgoing UsernameToken's password (a copy), or null. */
  public char[] password() {
    return password == null ? null : password.clone();
  }

  public Function<String, char[]> passwords() {
    return passwords;
  }

  public PasswordFile passwordFile() {
    return passwordFile;
  }

  public KeyMaterial key() {
    return key;
  }

  public TrustMaterial trust() {
    return trust;
  }

  public List<X509CRL> revoked() {
    return revoked;
  }

  public X509Certificate recipient() {
    return recipient;
  }

  /** Configures {@link WsSecurityCredentials}. */
  public static final class Builder {
    private String user;
    private char[] password;
    private Function<String, char[]> passwords;
    private PasswordFile passwordFile;
    private KeyMaterial key;
    private TrustMaterial trust;
    private List<X509CRL> revoked = List.of();
    private X509Certificate recipient;

    private Builder() {}

    /** The user and password outgoing UsernameTokens carry. */
    public Builder user(String user, char[] password) {
      this.user = Objects.requireNonNull(user);
      this.password = password.clone();
      return this;
    }

    /** The password of an incoming UsernameToken's user; null for an unknown user. */
    public Builder passwords(Function<String, char[]> passwords) {
      this.passwords = passwords;
      return this;
    }

    /** Incoming text passwords checked against salted hashes (digests cannot be). */
    public Builder passwordFile(PasswordFile file) {
      this.passwordFile = file;
      return this;
    }

    /** This node's key and certificate: for signing, and for decrypting. */
    public Builder key(KeyMaterial key) {
      this.key = key;
      return this;
    }

    /** The certificates signers' certificates must chain to. */
    public Builder trust(TrustMaterial trust) {
      this.trust = trust;
      return this;
    }

    /** CRLs: a signer's certificate revoked in one of them is refused. */
    public Builder revoked(X509CRL... crls) {
      this.revoked = List.of(crls);
      return this;
    }

    /**
     * The certificate outgoing Bodies are encrypted for: the peer's. It is trusted as a signer
     * too, and found when a signature names it by issuer and serial number without carrying it
     * (as Metro's replies do under a policy whose recipient token is never sent).
     */
    public Builder recipient(X509Certificate recipient) {
      this.recipient = recipient;
      return this;
    }

    public WsSecurityCredentials build() {
      return new WsSecurityCredentials(this);
    }
  }
}
