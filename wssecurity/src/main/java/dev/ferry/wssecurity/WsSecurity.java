package dev.ferry.wssecurity;

import dev.ferry.soap.Message;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.Payload;
import dev.ferry.wssecurity.internal.Inbound;
import dev.ferry.wssecurity.internal.Outbound;
import java.io.IOException;
import java.util.Objects;
import java.util.Set;
import javax.xml.namespace.QName;

/**
 * WS-Security as a {@link MessageGuard}, on Apache WSS4J's streaming implementation: what it
 * receives is checked against its inbound {@link WsSecurityPolicy} (and decrypted), what it
 * sends gets what its outbound policy says. Give one to a server's endpoint (its dispatcher),
 * a client's call ({@code SoapRequest}) or a broker's route.
 *
 * <pre>{@code
 * WsSecurity security = WsSecurity.builder()
 *     .inbound(WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5)).signBody()
 *         .signTimestamp().build())
 *     .credentials(WsSecurityCredentials.builder().trust(TrustMaterial.pem(ca)).build())
 *     .build();
 * }</pre>
 *
 * <p>Only the envelope passes through it; the attachments of an MTOM or SwA message stream past
 * it as they would without it, neither read nor held. A signature covers the {@code xop:Include}
 * elements of a signed Body, not the attachments' bytes (the SwA profile of signing attachments
 * is not implemented). Thread-safe; nonces and signed timestamps seen are remembered by this
 * object, so one receiver should share one.
 */
public final class WsSecurity implements MessageGuard {
  /** The default number of nonces and signed timestamps remembered against replays. */
  public static final int DEFAULT_REPLAY_ENTRIES = 100_000;
  private static final Set<QName> SECURITY = Set.of(new QName(
      "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd",
      "Security"));

  private final WsSecurityPolicy inboundPolicy;
  private final WsSecurityPolicy outboundPolicy;
  private final Inbound inbound;
  private final Outbound outbound;

  private WsSecurity(Builder b) throws IOException {
    this.inboundPolicy = b.inbound;
    this.outboundPolicy = b.outbound;
    this.inbound = new Inbound(b.inbound, b.credentials, b.replayEntries);
    this.outbound = b.outbound.isEmpty() ? null : new Outbound(b.outbound, b.credentials);
  }

  public static Builder builder() {
    return new Builder();
  }

  public WsSecurityPolicy inboundPolicy() {
    return inboundPolicy;
  }

  public WsSecurityPolicy outboundPolicy() {
    return outboundPolicy;
  }

  /**
   * Checks {@code received} against the inbound policy.
   *
   * @throws dev.ferry.soap.FaultException with a {@code wsse:} fault (InvalidSecurity,
   *     FailedAuthentication, FailedCheck, MessageExpired, UnsupportedAlgorithm...) if it fails
   */
  @Override
  public Opened open(Message received) throws IOException {
    return inbound.open(received);
  }

  /** Returns {@code outgoing} with the outbound policy applied to its envelope on the way out. */
  @Override
  public Payload protect(Payload outgoing) {
    return outbound == null ? outgoing : outgoing.withRootFilter(outbound::secure);
  }

  /** Applies the outbound policy to {@code message}'s envelope now, in place. */
  @Override
  public Message protect(Message message) throws IOException {
    return outbound == null ? message : message.replaceEnvelope(outbound.secure(
        message.toByteString()));
  }

  @Override
  public Set<QName> understands() {
    return SECURITY;
  }

  /** Configures a {@link WsSecurity}. */
  public static final class Builder {
    private WsSecurityPolicy inbound = WsSecurityPolicy.NONE;
    private WsSecurityPolicy outbound = WsSecurityPolicy.NONE;
    private WsSecurityCredentials credentials = WsSecurityCredentials.builder().build();
    private int replayEntries = DEFAULT_REPLAY_ENTRIES;

    private Builder() {}

    /** What received messages must carry (default: nothing). */
    public Builder inbound(WsSecurityPolicy policy) {
      this.inbound = Objects.requireNonNull(policy);
      return this;
    }

    /** What sent messages get (default: nothing). */
    public Builder outbound(WsSecurityPolicy policy) {
      this.outbound = Objects.requireNonNull(policy);
      return this;
    }

    public Builder credentials(WsSecurityCredentials credentials) {
      this.credentials = Objects.requireNonNull(credentials);
      return this;
    }

    /**
     * How many nonces and signed timestamps are remembered against replays (default
     * {@value #DEFAULT_REPLAY_ENTRIES}), each for the time to live plus the clock skew; when
     * full of live entries, further messages with new ones are refused.
     */
    public Builder replayEntries(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("replayEntries must be at least 1, got " + n);
      }
      this.replayEntries = n;
      return this;
    }

    /**
     * Reads the keys now.
     *
     * @throws IOException if a key or trust file cannot be read
     * @throws IllegalStateException if a policy needs credentials that were not given
     */
    public WsSecurity build() throws IOException {
      return new WsSecurity(this);
    }
  }
}
