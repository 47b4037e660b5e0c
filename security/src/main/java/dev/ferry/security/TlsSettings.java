package dev.ferry.security;

import dev.ferry.security.internal.Expiry;
import dev.ferry.security.internal.Reloading;
import dev.ferry.security.internal.ReloadingKeyManager;
import dev.ferry.security.internal.ReloadingTrustManager;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The TLS of a listener (server, broker) or of a client: its own key and chain, the
 * certificates it trusts, whether a listener asks for client certificates, and the protocols and
 * cipher suites, which are TLS 1.3 and 1.2 with forward secrecy and AEAD ciphers only (no RSA
 * key exchange, CBC, SHA-1 MACs, 3DES or RC4).
 *
 * <p>Key and trust files are looked at again at most once per {@link Builder#reloadInterval}
 * (default 10 s), at a handshake, and read again when they changed: connections made after
 * that use the new ones, connections open stay as they are. A file that cannot be read then
 * (half written) leaves the old material in use and is tried again later.
 *
 * <pre>{@code
 * TlsSettings tls = TlsSettings.builder()
 *     .identity(KeyMaterial.pem(Path.of("server.pem"), Path.of("server.key")))
 *     .trust(TrustMaterial.pem(Path.of("clients-ca.pem")))
 *     .clientAuth(ClientAuth.REQUIRED)
 *     .build();
 * }</pre>
 *
 * Immutable and thread-safe.
 */
public final class TlsSettings {
  /** The protocols allowed at all, newest first. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
  /**
   * The cipher suites allowed, in order of preference: TLS 1.3's, then TLS 1.2's ECDHE suites
   * with AES-GCM or ChaCha20-Poly1305. Those the JDK lacks are left out.
   */
  public static final List<String> CIPHER_SUITES = List.of("TLS_AES_256_GCM_SHA384",
      "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
      "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
      "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

  private final KeyMaterial identity;
  private final TrustMaterial trust;
  private final ClientAuth clientAuth;
  private final List<String> protocols;
  private final List<String> cipherSuites;
  private final ReloadingKeyManager keyManager;
  private final ReloadingTrustManager trustManager;
  private final SSLContext context;

  private TlsSettings(Builder b) throws IOException {
    this.identity = b.identity;
    this.trust = b.trust;
    this.clientAuth = b.clientAuth;
    this.protocols = List.copyOf(b.protocols);
    this.keyManager = identity == null ? null : new ReloadingKeyManager(
        new Reloading<>(identity.files(), b.reloadInterval, () -> {
          KeyStore.PrivateKeyEntry e = identity.load();
          X509Certificate[] chain = KeyMaterial.chain(e);
          Expiry.check(chain[0], identity.toString(), java.time.Instant.now());
          return new ReloadingKeyManager.Generation(e.getPrivateKey(), chain);
        }));
    this.trustManager = new ReloadingTrustManager(new Reloading<>(trust.files(),
        b.reloadInterval, () -> {
          try {
            return ReloadingTrustManager.pkix(trust.load());
          } catch (GeneralSecurityException e) {
            throw new IOException(trust + ": " + e.getMessage(), e);
          }
        }));
    try {
      context = SSLContext.getInstance("TLS");
      context.init(keyManager == null ? null : new KeyManager[] {keyManager},
          new TrustManager[] {trustManager}, null);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's TLS cannot be set up: " + e.getMessage(), e);
    }
    Set<String> supported = Set.of(context.getSupportedSSLParameters().getCipherSuites());
    this.cipherSuites = CIPHER_SUITES.stream().filter(supported::contains).toList();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A client's settings with the JDK's trust and no certificate of its own. */
  public static TlsSettings jdkDefault() {
    try {
      return builder().build();
    } catch (IOException e) {
      throw new IllegalStateException("the JDK's trust cannot be read: " + e.getMessage(), e);
    }
  }

  /** The key and chain this side shows, or null (a client without a certificate). */
  public KeyMaterial identity() {
    return identity;
  }

  public TrustMaterial trust() {
    return trust;
  }

  public ClientAuth clientAuth() {
    return clientAuth;
  }

  /** The protocols to enable, newest first. */
  public List<String> protocols() {
    return protocols;
  }

  /** The cipher suites to enable, in order of preference. */
  public List<String> cipherSuites() {
    return cipherSuites;
  }

  /** The key manager (reloading), or null without an identity. */
  public X509ExtendedKeyManager keyManager() {
    return keyManager;
  }

  /** The trust manager (reloading; host names are checked where the engine asks for it). */
  public X509ExtendedTrustManager trustManager() {
    return trustManager;
  }

  /** A JDK context with these key and trust managers (protocols and suites are set per engine). */
  public SSLContext sslContext() {
    return context;
  }

  /**
   * Seconds until the certificate shown now expires (negative once it has), NaN without one:
   * for a gauge ({@code ferry.tls.certificate.expiry.seconds} on servers and brokers). A
   * warning is logged at start and at each reload when it is 30 days or less.
   */
  public double certificateSecondsLeft() {
    X509Certificate[] chain = currentChain();
    return chain == null || chain.length == 0 ? Double.NaN : Expiry.secondsLeft(chain[0]);
  }

  /** The certificate chain shown now (read again if its files changed), or null. */
  public X509Certificate[] currentChain() {
    return keyManager == null ? null : keyManager.currentChain();
  }

  /** Configures {@link TlsSettings}. */
  public static final class Builder {
    private KeyMaterial identity;
    private TrustMaterial trust = TrustMaterial.jdkDefault();
    private ClientAuth clientAuth = ClientAuth.NONE;
    private Duration reloadInterval = Duration.ofSeconds(10);
    private List<String> protocols = PROTOCOLS;

    private Builder() {}

    /** This side's key and chain: a listener's (required), or a client's certificate. */
    public Builder identity(KeyMaterial identity) {
      this.identity = identity;
      return this;
    }

    /** The certificates peers must chain to (default: the JDK's). */
    public Builder trust(TrustMaterial trust) {
      this.trust = Objects.requireNonNull(trust);
      return this;
    }

    /** Whether a listener asks for client certificates (default {@link ClientAuth#NONE}). */
    public Builder clientAuth(ClientAuth clientAuth) {
      this.clientAuth = Objects.requireNonNull(clientAuth);
      return this;
    }

    /** How often the files are looked at for changes, at most (default 10 s). */
    public Builder reloadInterval(Duration interval) {
      if (interval.isNegative()) {
        throw new IllegalArgumentException("reloadInterval must not be negative: " + interval);
      }
      this.reloadInterval = interval;
      return this;
    }

    /** Narrows the protocols to some of {@link #PROTOCOLS} (such as TLS 1.3 only). */
    public Builder protocols(String... protocols) {
      List<String> p = new ArrayList<>(Arrays.asList(protocols));
      if (p.isEmpty() || !PROTOCOLS.containsAll(p)) {
        throw new IllegalArgumentException("protocols must be some of " + PROTOCOLS + ", got "
            + p);
      }
      this.protocols = p;
      return this;
    }

    /**
     * Reads the files now.
     *
     * @throws IOException naming the file that cannot be read or does not hold what it should
     * @throws IllegalStateException if client certificates are asked for with the JDK's trust
     */
    public TlsSettings build() throws IOException {
      if (clientAuth != ClientAuth.NONE && trust.isJdkDefault()) {
        throw new IllegalStateException("client certificates (" + clientAuth + ") need the CA"
            + " certificates to check them with: set trust(...)");
      }
      return new TlsSettings(this);
    }
  }

  @Override
  public String toString() {
    return "TlsSettings[identity=" + identity + ", trust=" + trust + ", clientAuth="
        + clientAuth + ", protocols=" + protocols + "]";
  }
}
