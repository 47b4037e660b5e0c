package dev.ferry.wssecurity.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.security.PasswordFile;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.HeaderBlock;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.SoapVersion;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import java.io.IOException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;
import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.stax.ext.WSSConstants;
import org.apache.wss4j.stax.ext.WSSSecurityProperties;
import org.apache.wss4j.stax.securityEvent.EncryptedPartSecurityEvent;
import org.apache.wss4j.stax.securityEvent.SignedPartSecurityEvent;
import org.apache.wss4j.stax.securityEvent.TimestampSecurityEvent;
import org.apache.wss4j.stax.securityEvent.UsernameTokenSecurityEvent;
import org.apache.wss4j.stax.securityToken.UsernameSecurityToken;
import org.apache.wss4j.stax.setup.InboundWSSec;
import org.apache.wss4j.stax.setup.WSSec;
import org.apache.wss4j.stax.validate.TokenContext;
import org.apache.wss4j.stax.validate.UsernameTokenValidatorImpl;
import org.apache.wss4j.binding.wss10.PasswordString;
import org.apache.xml.security.exceptions.XMLSecurityException;
import org.apache.xml.security.stax.securityEvent.AbstractSecuredElementSecurityEvent;
import org.apache.xml.security.stax.securityEvent.AlgorithmSuiteSecurityEvent;
import org.apache.xml.security.stax.securityEvent.ContentEncryptedElementSecurityEvent;
import org.apache.xml.security.stax.securityEvent.EncryptedElementSecurityEvent;
import org.apache.xml.security.stax.securityEvent.SecurityEvent;
import org.apache.xml.security.stax.securityEvent.SignedElementSecurityEvent;
import org.apache.xml.security.stax.securityToken.SecurityToken;

/**
 * Checks received envelopes against an inbound policy on WSS4J's streaming processor: the
 * envelope is read once through it (and written out again only if something was encrypted, to
 * hand the application the decrypted one), then what it reported is held against the policy:
 * the Body signed where it is (a Body moved into a wrapper is not the Body), the Timestamp and
 * header blocks signed, the Body encrypted, the UsernameToken and Timestamp there, no weak
 * algorithm. Nonces and signed timestamps are remembered against replays.
 */
public final class Inbound {
  private static final ByteString ENCRYPTED_DATA = ByteString.encodeUtf8("EncryptedData");

  private static final System.Logger LOG = System.getLogger("dev.ferry.wssecurity");

  private final WsSecurityPolicy policy;
  private final InboundWSSec wss;
  private final BoundedReplayCache nonces;
  private final BoundedReplayCache timestamps;
  private final int replayEntries;
  private volatile long fullSince;

  public Inbound(WsSecurityPolicy policy, WsSecurityCredentials c, int replayEntries)
      throws IOException {
    this.policy = policy;
    WSSSecurityProperties p = new WSSSecurityProperties();
    p.setCallbackHandler(new Passwords(null, null, c.passwords()));
    if (c.key() != null) {
      KeyStore.PrivateKeyEntry own = c.key().load();
      p.setDecryptionCrypto(Cryptos.own(own));
    }
    if (c.trust() != null && !c.trust().isJdkDefault()) {
      List<X509Certificate> anchors = c.trust().load();
      p.setSignatureVerificationCrypto(Cryptos.trusting(anchors, c.recipient(),
          c.revoked()));
      p.setEnableRevocation(!c.revoked().isEmpty());
    } else if (policy.signs()) {
      throw new IllegalStateException("an inbound policy that requires signatures needs the"
          + " certificates signers must chain to: WsSecurityCredentials.trust(...)");
    }
    int ttl = (int) (policy.timestampTtl() == null ? Duration.ofMinutes(5)
        : policy.timestampTtl()).toSeconds();
    int skew = (int) policy.clockSkew().toSeconds();
    p.setTimestampTTL(ttl);
    p.setTimeStampFutureTTL(skew);
    p.setStrictTimestampCheck(true);
    p.setUtTTL(ttl);
    p.setUtFutureTTL(skew);
    p.setAllowRSA15KeyTransportAlgorithm(policy.allowWeakAlgorithms());
    p.setDisableSchemaValidation(!policy.validateSchema());
    // the Basic Security Profile (2006) lists SHA-1 signature methods only; ECDSA and the RSA
    // SHA-2 ones are let in here, and what is too weak is this class's own check
    p.addIgnoreBSPRule(org.apache.wss4j.common.bsp.BSPRule.R5421);
    Duration keep = Duration.ofSeconds(ttl + skew);
    this.replayEntries = replayEntries;
    this.nonces = new BoundedReplayCache(replayEntries, keep);
    this.timestamps = new BoundedReplayCache(replayEntries, keep);
    p.setNonceReplayCache(nonces);
    p.setTimestampReplayCache(timestamps);
    if (policy.usernameToken() != null) {
      p.setUsernameTokenPasswordType(policy.usernameToken() == WsSecurityPolicy.Password.TEXT
          ? WSSConstants.UsernameTokenPasswordType.PASSWORD_TEXT
          : WSSConstants.UsernameTokenPasswordType.PASSWORD_DIGEST);
    }
    if (c.passwordFile() != null) {
      p.addValidator(WSSConstants.TAG_WSSE_USERNAME_TOKEN, new HashedPasswords(
          c.passwordFile(), c.passwords() != null));
    }
    try {
      // the real error, not WSS4J's mask: Faults tells the sender its category only
      this.wss = WSSec.getInboundWSSec(p, false, true);
    } catch (WSSecurityException e) {
      throw new IOException("the inbound WS-Security settings are not valid: " + e.getMessage(),
          e);
    }
  }

  /** What the processor reported of one message. */
  private static final class Findings {
    String user;
    boolean userWithoutNonce; // a text password with no Nonce or no Created: replayable
    X509Certificate signer;
    boolean timestamp;
    boolean bodySigned;
    boolean timestampSigned;
    boolean bodyEncrypted;
    final Set<QName> signedHeaders = new HashSet<>();
    String weakAlgorithm;
  }

  /** Checks {@code m}; returns it opened (decrypted if it was encrypted). */
  public MessageGuard.Opened open(Message m) throws IOException {
    SoapVersion v = m.version();
    List<HeaderBlock> security = securityHeaders(m);
    if (security.isEmpty()) {
      if (policy.isEmpty()) {
        return new MessageGuard.Opened(m, null, Set.of());
      }
      throw Faults.refuse(v, Faults.INVALID_SECURITY, "WS-Security: the message has no"
          + " wsse:Security header, and the policy requires " + requirements(), null);
    }
    String twice = twoForOneRole(security);
    if (twice != null) {
      throw Faults.refuseQuietly(v, twice);
    }
    nonces.hold();
    timestamps.hold();
    try {
      MessageGuard.Opened opened = process(m, v);
      remember(v, nonces);
      remember(v, timestamps);
      return opened;
    } finally {
      nonces.release();
      timestamps.release();
    }
  }

  private static List<HeaderBlock> securityHeaders(Message m) {
    List<HeaderBlock> found = new ArrayList<>(1);
    for (HeaderBlock b : m.headers()) {
      if (b.name().equals(WSSConstants.TAG_WSSE_SECURITY)) {
        found.add(b);
      }
    }
    return found;
  }

  /**
   * WS-Security 1.1 allows one Security header per role (actor): WSS4J processes the first one
   * for its role, and a second would stand beside it unchecked. Returns what is wrong, or null.
   */
  private static String twoForOneRole(List<HeaderBlock> security) {
    Set<String> roles = new HashSet<>();
    for (HeaderBlock b : security) {
      if (!roles.add(b.role() == null ? "" : b.role())) {
        return "two wsse:Security headers for the role " + (b.role() == null ? "of the"
            + " ultimate receiver" : b.role());
      }
    }
    return null;
  }

  /**
   * Reads {@code m} through WSS4J and holds what it reported against the policy and against the
   * envelope's shape, so that what was verified is what the application reads.
   */
  private MessageGuard.Opened process(Message m, SoapVersion v) throws IOException {
    ByteString envelope = m.toByteString();
    boolean encrypted = envelope.indexOf(ENCRYPTED_DATA, 0) >= 0;
    List<SecurityEvent> events = new ArrayList<>();
    ByteStringBuilder out = encrypted ? new ByteStringBuilder(envelope.size()) : null;
    EnvelopeShape shape = new EnvelopeShape();
    try {
      XMLStreamReader r = wss.processInMessage(Stax.reader(envelope), null,
          events::add);
      XMLStreamWriter w = out == null ? null : Stax.writer(out.asOutputStream());
      Stax.copy(r, w, shape);
      r.close();
    } catch (XMLStreamException | WSSecurityException | RuntimeException e) {
      if (nonces.replayed() || timestamps.replayed()) {
        throw replay(v, e);
      }
      throw Faults.of(v, e);
    }
    String misshapen = shape.violation();
    if (misshapen != null) {
      throw Faults.refuseQuietly(v, misshapen);
    }
    Findings f = findings(events);
    check(v, m, f);
    Message opened = out == null ? m : m.copy().replaceEnvelope(out.toByteString());
    String ambiguous = ambiguousSignedHeader(opened, f);
    if (ambiguous != null) {
      throw Faults.refuseQuietly(v, ambiguous);
    }
    return new MessageGuard.Opened(opened, principal(f), f.signedHeaders, f.bodySigned);
  }

  /**
   * A signature names what it covers by Id, WSS4J reports it by path: a header name that two
   * blocks share cannot say which of them was signed, and a reader asking for that name gets
   * the first. Such a message is refused. Returns what is wrong, or null.
   */
  private static String ambiguousSignedHeader(Message m, Findings f) {
    for (QName signed : f.signedHeaders) {
      int blocks = 0;
      for (HeaderBlock b : m.headers()) {
        if (b.name().equals(signed) && ++blocks > 1) {
          return "two header blocks called " + signed + ", one of them signed";
        }
      }
    }
    return null;
  }

  /** The fault for a message whose nonce or signed timestamp was seen before. */
  private static FaultException replay(SoapVersion v, Throwable cause) {
    return Faults.refuse(v, Faults.INVALID_SECURITY, "WS-Security: the message is a replay"
        + " (its nonce or signed timestamp was received before)", cause);
  }

  /**
   * Remembers the nonces or timestamps of a message that passed: refused if one came meanwhile
   * (the same message at the same time), or if there is no room (said in the log, once a
   * minute at most: the service takes more messages than {@code replayEntries} within their
   * time to live).
   */
  private void remember(SoapVersion v, BoundedReplayCache cache) throws FaultException {
    BoundedReplayCache.Verdict verdict = cache.commit();
    if (verdict == BoundedReplayCache.Verdict.REMEMBERED) {
      return;
    }
    if (verdict == BoundedReplayCache.Verdict.FULL) {
      long now = System.nanoTime();
      if (fullSince == 0 || now - fullSince > 60_000_000_000L) {
        fullSince = now;
        LOG.log(System.Logger.Level.WARNING, "WS-Security: " + replayEntries + " nonces or"
            + " timestamps are remembered and none has expired; messages are refused until"
            + " some do (WsSecurity.Builder.replayEntries)");
      }
    }
    if (verdict == BoundedReplayCache.Verdict.REPLAYED) {
      throw replay(v, null);
    }
    throw Faults.refuse(v, Faults.FAILED_AUTHENTICATION, "WS-Security: the security token"
        + " could not be authenticated or authorized", null);
  }

  private static Findings findings(List<SecurityEvent> events) {
    Findings f = new Findings();
    for (SecurityEvent e : events) {
      if (e instanceof AlgorithmSuiteSecurityEvent a
          && Algorithms.isWeak(a.getAlgorithmURI(), a.getAlgorithmUsage())) {
        f.weakAlgorithm = a.getAlgorithmURI();
      } else if (e instanceof UsernameTokenSecurityEvent u) {
        UsernameSecurityToken token = u.getSecurityToken();
        f.user = token.getUsername();
        f.userWithoutNonce = token.getUsernameTokenPasswordType()
            == WSSConstants.UsernameTokenPasswordType.PASSWORD_TEXT
            && (token.getNonce() == null || token.getCreatedTime() == null);
      } else if (e instanceof TimestampSecurityEvent) {
        f.timestamp = true;
      } else if (e instanceof SignedPartSecurityEvent || e instanceof SignedElementSecurityEvent) {
        signed(f, (AbstractSecuredElementSecurityEvent) e);
      } else if (e instanceof EncryptedPartSecurityEvent
          || e instanceof ContentEncryptedElementSecurityEvent
          || e instanceof EncryptedElementSecurityEvent) {
        List<QName> path = ((AbstractSecuredElementSecurityEvent) e).getElementPath();
        f.bodyEncrypted |= isBody(path);
      }
    }
    return f;
  }

  private static void signed(Findings f, AbstractSecuredElementSecurityEvent e) {
    List<QName> path = e.getElementPath();
    if (isBody(path)) {
      f.bodySigned = true;
      f.signer = certificate(e.getSecurityToken());
    } else if (path.size() == 3 && isEnvelopeChild(path, "Header")) {
      f.signedHeaders.add(path.get(2));
    } else if (path.size() == 4 && isEnvelopeChild(path, "Header")
        && path.get(2).equals(WSSConstants.TAG_WSSE_SECURITY)
        && path.get(3).equals(WSSConstants.TAG_WSU_TIMESTAMP)) {
      f.timestampSigned = true;
    }
    if (f.signer == null) {
      f.signer = certificate(e.getSecurityToken());
    }
  }

  /** {@code [Envelope, Body]}: the Body where SOAP has it, not one inside something else. */
  private static boolean isBody(List<QName> path) {
    return path.size() == 2 && isEnvelopeChild(path, "Body");
  }

  private static boolean isEnvelopeChild(List<QName> path, String local) {
    QName env = path.get(0);
    QName child = path.get(1);
    return env.getLocalPart().equals("Envelope") && SoapVersion.fromNamespace(
        env.getNamespaceURI()) != null && child.getLocalPart().equals(local)
        && child.getNamespaceURI().equals(env.getNamespaceURI());
  }

  private static X509Certificate certificate(SecurityToken token) {
    try {
      X509Certificate[] certs = token == null ? null : token.getX509Certificates();
      return certs == null || certs.length == 0 ? null : certs[0];
    } catch (XMLSecurityException e) {
      return null;
    }
  }

  /**
   * Holds what WSS4J reported against the policy. A message that falls short is refused with
   * one fault whatever it lacks, so that a sender probing with altered messages learns nothing of
   * which check failed; what it lacked goes to the log.
   */
  private void check(SoapVersion v, Message m, Findings f) throws FaultException {
    if (f.weakAlgorithm != null && !policy.allowWeakAlgorithms()) {
      throw Faults.refuse(v, Faults.UNSUPPORTED_ALGORITHM, "WS-Security: the algorithm "
          + f.weakAlgorithm + " is not accepted (too weak)", null);
    }
    List<String> missing = new ArrayList<>();
    if (policy.usernameToken() != null && f.user == null) {
      missing.add("a UsernameToken");
    }
    // a signed Timestamp is remembered against replays, so the token cannot come again in it
    if (f.user != null && f.userWithoutNonce && !f.timestampSigned
        && !policy.allowTextPasswordWithoutNonce()) {
      missing.add("a Nonce and Created in its text-password UsernameToken");
    }
    if (policy.timestampTtl() != null && !f.timestamp) {
      missing.add("a Timestamp");
    }
    if (policy.signBody() && !f.bodySigned) {
      missing.add("a signed Body");
    }
    if (policy.signTimestamp() && !f.timestampSigned) {
      missing.add("a signed Timestamp");
    }
    for (QName h : policy.signedHeaders()) {
      if (!f.signedHeaders.contains(h) && m.header(h) != null) {
        missing.add("a signed " + h);
      }
    }
    if (policy.encryptBody() && !f.bodyEncrypted) {
      missing.add("an encrypted Body");
    }
    if (!missing.isEmpty()) {
      throw Faults.refuseQuietly(v, "the message lacks " + String.join(", ", missing)
          + " (the policy requires " + requirements() + ")");
    }
  }

  private static Principal principal(Findings f) {
    if (f.user != null) {
      String user = f.user;
      return () -> user;
    }
    return f.signer == null ? null : f.signer.getSubjectX500Principal();
  }

  /** What the policy requires, in words. */
  private String requirements() {
    List<String> r = new ArrayList<>();
    if (policy.usernameToken() != null) {
      r.add("a UsernameToken (" + policy.usernameToken().name().toLowerCase() + ")");
    }
    if (policy.timestampTtl() != null) {
      r.add("a Timestamp");
    }
    if (policy.signs()) {
      r.add("a signature");
    }
    if (policy.encryptBody()) {
      r.add("an encrypted Body");
    }
    return String.join(", ", r);
  }

  /**
   * Checks text passwords against salted hashes; digests against the password lookup if there
   * is one (a hash cannot check a digest).
   */
  private static final class HashedPasswords extends UsernameTokenValidatorImpl {
    private final PasswordFile file;
    private final boolean digests;

    HashedPasswords(PasswordFile file, boolean digests) {
      this.file = file;
      this.digests = digests;
    }

    @Override
    protected void verifyPlaintextPassword(String username, PasswordString password,
        TokenContext tokenContext) throws WSSecurityException {
      if (password.getValue() == null
          || !file.verify(username, password.getValue().toCharArray())) {
        throw new WSSecurityException(WSSecurityException.ErrorCode.FAILED_AUTHENTICATION);
      }
    }

    @Override
    protected void verifyDigestPassword(String username, PasswordString password, byte[] nonce,
        String created, TokenContext tokenContext) throws WSSecurityException {
      if (!digests) {
        throw new WSSecurityException(WSSecurityException.ErrorCode.FAILED_AUTHENTICATION);
      }
      super.verifyDigestPassword(username, password, nonce, created, tokenContext);
    }
  }
}
