package dev.ferry.ldap;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * How an {@link LdapConnection} connects: limits, timeout, TLS trust, and whether it follows
 * referrals. Immutable; built with {@link #builder()}.
 *
 * <pre>{@code
 * LdapOptions options = LdapOptions.builder()
 *     .sslContext(contextTrustingOurCa)          // default: the JDK's default SSLContext
 *     .followReferrals(true)                     // default: referrals are returned as data
 *     .build();
 * try (LdapConnection c = LdapConnection.connect("ldaps://ldap.example.com", options)) { ... }
 * }</pre>
 *
 * <p>Host name verification is on by default: the server's certificate must name the host the
 * connection was asked for (RFC 4513 section 3.1.3). Turning it off lets anyone with a
 * certificate from a trusted CA pose as the server; it exists for tests and for servers reached
 * by an address their certificate does not list.
 */
public final class LdapOptions {
  /** The defaults: plain limits, a 30 s timeout, the JDK's trust, no referral following. */
  public static final LdapOptions DEFAULTS = builder().build();

  private final LdapLimits limits;
  private final Duration timeout;
  private final SSLContext sslContext;
  private final boolean verifyHostname;
  private final boolean followReferrals;
  private final Authenticator referralAuthenticator;
  private final OpenTelemetry openTelemetry;

  private LdapOptions(Builder b) {
    this.limits = b.limits;
    this.timeout = b.timeout;
    this.sslContext = b.sslContext;
    this.verifyHostname = b.verifyHostname;
    this.followReferrals = b.followReferrals;
    this.referralAuthenticator = b.referralAuthenticator;
    this.openTelemetry = b.openTelemetry;
  }

  /** Returns a builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Returns a builder holding these options. */
  public Builder toBuilder() {
    Builder b = builder().limits(limits).timeout(timeout).verifyHostname(verifyHostname)
        .followReferrals(followReferrals).referralAuthenticator(referralAuthenticator)
        .openTelemetry(openTelemetry);
    b.sslContext = sslContext;
    return b;
  }

  /** The decoding and connection limits. */
  public LdapLimits limits() {
    return limits;
  }

  /** Bounds the connect, the TLS handshake and every wait for a response. */
  public Duration timeout() {
    return timeout;
  }

  /** The TLS context for {@code ldaps://} and StartTLS: the one set, or the JDK's default. */
  public SSLContext sslContext() throws IOException {
    if (sslContext != null) {
      return sslContext;
    }
    try {
      return SSLContext.getDefault();
    } catch (NoSuchAlgorithmException e) {
      throw new IOException("no default SSLContext", e);
    }
  }

  /** True (the default) if TLS checks that the certificate names the host. */
  public boolean verifyHostname() {
    return verifyHostname;
  }

  /** True if referrals are followed on new connections; false (the default) returns them. */
  public boolean followReferrals() {
    return followReferrals;
  }

  /**
   * Where the spans of the connection's operations go (a client span per request, named
   * {@code LDAP <operation>}); null for the global one as registered when the connection opens.
   */
  public OpenTelemetry openTelemetry() {
    return openTelemetry;
  }

  /** Authenticates each connection opened to follow a referral. */
  public Authenticator referralAuthenticator() {
    return referralAuthenticator;
  }

  /**
   * Authenticates a new connection, such as one opened to follow a referral. The default leaves
   * it anonymous: credentials meant for one server are not sent to another unless asked.
   */
  @FunctionalInterface
  public interface Authenticator {
    /** Anonymous: does nothing. */
    Authenticator ANONYMOUS = connection -> { };

    /** Binds {@code connection}, which is open and otherwise unused. */
    void authenticate(LdapConnection connection) throws IOException;
  }

  /** Builds {@link LdapOptions}. */
  public static final class Builder {
    private LdapLimits limits = LdapLimits.DEFAULTS;
    private Duration timeout = Duration.ofMillis(LdapConnection.DEFAULT_TIMEOUT_MILLIS);
    private SSLContext sslContext;
    private boolean verifyHostname = true;
    private boolean followReferrals;
    private Authenticator referralAuthenticator = Authenticator.ANONYMOUS;
    private OpenTelemetry openTelemetry;

    private Builder() {}

    /** Traces through {@code otel} (null: the global one). */
    public Builder openTelemetry(OpenTelemetry otel) {
      this.openTelemetry = otel;
      return this;
    }

    public Builder limits(LdapLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /** Sets the timeout; it must be positive. */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive: " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** Sets the TLS context: its trust managers decide which servers are trusted. */
    public Builder sslContext(SSLContext sslContext) {
      this.sslContext = Objects.requireNonNull(sslContext, "sslContext");
      return this;
    }

    public Builder verifyHostname(boolean verifyHostname) {
      this.verifyHostname = verifyHostname;
      return this;
    }

    /** Follows referrals, at most {@link LdapLimits#maxReferralHops()} deep. */
    public Builder followReferrals(boolean followReferrals) {
      this.followReferrals = followReferrals;
      return this;
    }

    public Builder referralAuthenticator(Authenticator authenticator) {
      this.referralAuthenticator = Objects.requireNonNull(authenticator, "authenticator");
      return this;
    }

    public LdapOptions build() {
      return new LdapOptions(this);
    }
  }
}
