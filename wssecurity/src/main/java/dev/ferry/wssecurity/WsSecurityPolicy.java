package dev.ferry.wssecurity;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * What WS-Security a message carries: as an outbound policy, what is added to it; as an inbound
 * policy, what it must have (a message without it is refused, one with more is not).
 *
 * <ul>
 *   <li>a UsernameToken with the password as text or as a digest, with a nonce and a creation
 *       time (the receiver refuses a nonce seen before and a token older than the time to
 *       live);</li>
 *   <li>a Timestamp with a time to live (the receiver refuses it once expired, and allows
 *       {@link Builder#clockSkew} for clocks ahead);</li>
 *   <li>an X.509 signature over the Body, the Timestamp and header blocks by name;</li>
 *   <li>encryption of the Body's content for the peer's certificate.</li>
 * </ul>
 *
 * <p>Algorithms default to RSA-SHA256 (ECDSA-SHA256 for an EC key), SHA-256 digests, exclusive
 * canonicalization, RSA-OAEP key transport and AES-256-GCM. A received message signed with
 * SHA-1, with RSA PKCS#1 v1.5 key transport, or with 3DES is refused unless
 * {@link Builder#allowWeakAlgorithms} says otherwise. Immutable.
 */
public final class WsSecurityPolicy {
  /** How a UsernameToken carries its password. */
  public enum Password {
    /** As text (only over TLS, and only where the receiver may see it). */
    TEXT,
    /** As Base64(SHA-1(nonce + created + password)): the receiver needs the password itself. */
    DIGEST
  }

  /** Nothing added, nothing required. */
  public static final WsSecurityPolicy NONE = builder().build();

  public static final String RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
  public static final String ECDSA_SHA256 =
      "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
  public static final String SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
  public static final String RSA_OAEP = "http://www.w3.org/2009/xmlenc11#rsa-oaep";
  public static final String RSA_OAEP_MGF1P = "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p";
  public static final String AES256_GCM = "http://www.w3.org/2009/xmlenc11#aes256-gcm";

  private final Password usernameToken;
  private final Duration timestampTtl;
  private final Duration clockSkew;
  private final boolean signBody;
  private final boolean signTimestamp;
  private final Set<QName> signedHeaders;
  private final boolean encryptBody;
  private final String signatureAlgorithm;
  private final String digestAlgorithm;
  private final String keyTransport;
  private final String contentEncryption;
  private final boolean allowWeakAlgorithms;
  private final boolean allowTextPasswordWithoutNonce;
  private final boolean validateSchema;

  private WsSecurityPolicy(Builder b) {
    this.usernameToken = b.usernameToken;
    this.timestampTtl = b.timestampTtl;
    this.clockSkew = b.clockSkew;
    this.signBody = b.signBody;
    this.signTimestamp = b.signTimestamp;
    this.signedHeaders = Set.copyOf(b.signedHeaders);
    this.encryptBody = b.encryptBody;
    this.signatureAlgorithm = b.signatureAlgorithm;
    this.digestAlgorithm = b.digestAlgorithm;
    this.keyTransport = b.keyTransport;
    this.contentEncryption = b.contentEncryption;
    this.allowWeakAlgorithms = b.allowWeakAlgorithms;
    this.allowTextPasswordWithoutNonce = b.allowTextPasswordWithoutNonce;
    this.validateSchema = b.validateSchema;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The UsernameToken's password form, or null for no UsernameToken. */
  public Password usernameToken() {
    return usernameToken;
  }

  /** The Timestamp's time to live, or null for no Timestamp. */
  public Duration timestampTtl() {
    return timestampTtl;
  }

  /** How far ahead a sender's clock may be (a Timestamp or token created in the future). */
  public Duration clockSkew() {
    return clockSkew;
  }

  public boolean signBody() {
    return signBody;
  }

  public boolean signTimestamp() {
    return signTimestamp;
  }

  /** Header blocks signed (outbound) or required signed (inbound), by name. */
  public Set<QName> signedHeaders() {
    return signedHeaders;
  }

  /** Whether anything is signed. */
  public boolean signs() {
    return signBody || signTimestamp || !signedHeaders.isEmpty();
  }

  public boolean encryptBody() {
    return encryptBody;
  }

  /** The signature algorithm, or null for the key's default (RSA-SHA256, ECDSA-SHA256). */
  public String signatureAlgorithm() {
    return signatureAlgorithm;
  }

  public String digestAlgorithm() {
    return digestAlgorithm;
  }

  public String keyTransport() {
    return keyTransport;
  }

  public String contentEncryption() {
    return contentEncryption;
  }

  /** Whether SHA-1, RSA PKCS#1 v1.5 key transport and 3DES are let in (inbound). */
  public boolean allowWeakAlgorithms() {
    return allowWeakAlgorithms;
  }

  /**
   * Whether a received UsernameToken with its password as text may come without a Nonce or a
   * Created time (inbound) in a message whose Timestamp is not signed: nothing then stops such a
   * message from being sent again. (In a message with a signed Timestamp it may: the signed
   * Timestamp is remembered against replays.)
   */
  public boolean allowTextPasswordWithoutNonce() {
    return allowTextPasswordWithoutNonce;
  }

  /** Whether a received security header is checked against the WS-Security schemas. */
  public boolean validateSchema() {
    return validateSchema;
  }

  /** Whether this policy adds or requires nothing. */
  public boolean isEmpty() {
    return usernameToken == null && timestampTtl == null && !signs() && !encryptBody;
  }

  @Override
  public String toString() {
    return "WsSecurityPolicy[usernameToken=" + usernameToken + ", timestamp=" + timestampTtl
        + ", sign body=" + signBody + " timestamp=" + signTimestamp + " headers="
        + signedHeaders + ", encrypt body=" + encryptBody + "]";
  }

  /** Configures a {@link WsSecurityPolicy}. */
  public static final class Builder {
    private Password usernameToken;
    private Duration timestampTtl;
    private Duration clockSkew = Duration.ofSeconds(60);
    private boolean signBody;
    private boolean signTimestamp;
    private final Set<QName> signedHeaders = new LinkedHashSet<>();
    private boolean encryptBody;
    private String signatureAlgorithm;
    private String digestAlgorithm = SHA256;
    private String keyTransport = RSA_OAEP;
    private String contentEncryption = AES256_GCM;
    private boolean allowWeakAlgorithms;
    private boolean allowTextPasswordWithoutNonce;
    private boolean validateSchema = true;

    private Builder() {}

    /** A UsernameToken (user and password from the credentials), with nonce and created. */
    public Builder usernameToken(Password password) {
      this.usernameToken = Objects.requireNonNull(password);
      return this;
    }

    /** A Timestamp that expires after {@code ttl} (inbound: at most that old, and present). */
    public Builder timestamp(Duration ttl) {
      if (ttl.isNegative() || ttl.isZero()) {
        throw new IllegalArgumentException("a Timestamp's time to live must be positive");
      }
      this.timestampTtl = ttl;
      return this;
    }

    /** How far ahead a sender's clock may be (default 60 s). */
    public Builder clockSkew(Duration skew) {
      this.clockSkew = Objects.requireNonNull(skew);
      return this;
    }

    /** Signs the Body (inbound: the Body must be signed, where it is in the envelope). */
    public Builder signBody() {
      this.signBody = true;
      return this;
    }

    /** Signs the Timestamp (a Timestamp is then added or required). */
    public Builder signTimestamp() {
      this.signTimestamp = true;
      return this;
    }

    /** Signs the header blocks called {@code name} (inbound: they must be signed if present). */
    public Builder signHeader(QName name) {
      signedHeaders.add(Objects.requireNonNull(name));
      return this;
    }

    /** Encrypts the Body's content (inbound: it must have been). */
    public Builder encryptBody() {
      this.encryptBody = true;
      return this;
    }

    /** The signature algorithm's URI (default: the key's: RSA-SHA256 or ECDSA-SHA256). */
    public Builder signatureAlgorithm(String uri) {
      this.signatureAlgorithm = uri;
      return this;
    }

    /** The digest algorithm of signature references (default SHA-256). */
    public Builder digestAlgorithm(String uri) {
      this.digestAlgorithm = Objects.requireNonNull(uri);
      return this;
    }

    /** The key transport of encryption (default RSA-OAEP). */
    public Builder keyTransport(String uri) {
      this.keyTransport = Objects.requireNonNull(uri);
      return this;
    }

    /** The content encryption (default AES-256-GCM). */
    public Builder contentEncryption(String uri) {
      this.contentEncryption = Objects.requireNonNull(uri);
      return this;
    }

    /** Lets SHA-1, RSA PKCS#1 v1.5 key transport and 3DES in (inbound; default: refused). */
    public Builder allowWeakAlgorithms(boolean allow) {
      this.allowWeakAlgorithms = allow;
      return this;
    }

    /**
     * Lets a UsernameToken with its password as text in without a Nonce and a Created time,
     * in a message whose Timestamp is not signed (inbound; default: refused). Such a token is
     * the same in every message, so a copy of one message can be sent again and pass; allow it
     * only for a sender that cannot do better, over TLS that authenticates the sender too.
     */
    public Builder allowTextPasswordWithoutNonce(boolean allow) {
      this.allowTextPasswordWithoutNonce = allow;
      return this;
    }

    /**
     * Whether a received security header must be valid by the WS-Security and XML Signature
     * schemas (inbound; default: it must). WSS4J checks it so, element by element, before it
     * processes it; its DOM implementation (CXF's default) does not. Metro 4 writes an
     * {@code xsi:type} the schema does not know on the {@code ds:KeyInfo} of each
     * {@code xenc:EncryptedKey}, so encrypted messages from Metro need this off. Every
     * signature, digest, token and algorithm is checked either way.
     */
    public Builder validateSchema(boolean validate) {
      this.validateSchema = validate;
      return this;
    }

    public WsSecurityPolicy build() {
      if (signTimestamp && timestampTtl == null) {
        timestampTtl = Duration.ofMinutes(5);
      }
      return new WsSecurityPolicy(this);
    }
  }
}
