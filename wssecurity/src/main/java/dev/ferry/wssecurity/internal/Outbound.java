package dev.ferry.wssecurity.internal;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.soap.SoapVersion;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import java.io.IOException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;
import org.apache.wss4j.common.crypto.Merlin;
import org.apache.wss4j.common.ext.WSSecurityException;
import org.apache.wss4j.stax.ext.WSSConstants;
import org.apache.wss4j.stax.ext.WSSSecurityProperties;
import org.apache.wss4j.stax.securityToken.WSSecurityTokenConstants;
import org.apache.wss4j.stax.setup.OutboundWSSec;
import org.apache.wss4j.stax.setup.WSSec;
import org.apache.xml.security.stax.ext.SecurePart;
import org.apache.xml.security.stax.ext.XMLSecurityConstants;
import org.apache.xml.security.stax.securityEvent.SecurityEvent;

/**
 * Secures outgoing envelopes with WSS4J's streaming processor as an outbound policy says: the
 * envelope is read once and written through it (UsernameToken, Timestamp, signature, encryption
 * of the Body's content, in that order). The settings are made once per SOAP version (the Body's
 * name differs), when first needed.
 */
public final class Outbound {
  private static final String EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
  private static final String MGF1_SHA256 = "http://www.w3.org/2009/xmlenc11#mgf1sha256";

  private final WsSecurityPolicy policy;
  private final WsSecurityCredentials credentials;
  private final Merlin own;
  private final Merlin recipient;
  private final Map<SoapVersion, OutboundWSSec> byVersion = new EnumMap<>(SoapVersion.class);

  public Outbound(WsSecurityPolicy policy, WsSecurityCredentials c) throws IOException {
    this.policy = policy;
    this.credentials = c;
    if (policy.usernameToken() != null && c.user() == null) {
      throw new IllegalStateException("an outbound UsernameToken needs"
          + " WsSecurityCredentials.user(...)");
    }
    if (policy.signs() && c.key() == null) {
      throw new IllegalStateException("an outbound signature needs WsSecurityCredentials"
          + ".key(...)");
    }
    if (policy.encryptBody() && c.recipient() == null) {
      throw new IllegalStateException("an outbound encryption needs WsSecurityCredentials"
          + ".recipient(...)");
    }
    this.own = policy.signs() ? Cryptos.own(c.key().load()) : null;
    this.recipient = policy.encryptBody() ? Cryptos.recipient(c.recipient()) : null;
  }

  /** Returns {@code envelope} secured. */
  public ByteString secure(ByteString envelope) throws IOException {
    ByteStringBuilder out = new ByteStringBuilder(envelope.size() + 4096);
    try {
      XMLStreamReader r = Stax.reader(envelope);
      r.nextTag();
      SoapVersion v = SoapVersion.fromNamespace(r.getNamespaceURI());
      if (v == null || !r.getLocalName().equals("Envelope")) {
        throw new IOException("not a SOAP envelope: " + r.getName());
      }
      r.close();
      XMLStreamWriter w = wss(v).processOutMessage(out.asOutputStream(), "UTF-8",
          new ArrayList<SecurityEvent>());
      Stax.copy(Stax.reader(envelope), w);
      w.close();
    } catch (XMLStreamException | WSSecurityException e) {
      throw new IOException("cannot secure the envelope: " + e.getMessage(), e);
    }
    return out.toByteString();
  }

  private synchronized OutboundWSSec wss(SoapVersion v) throws WSSecurityException {
    OutboundWSSec w = byVersion.get(v);
    if (w == null) {
      w = WSSec.getOutboundWSSec(properties(v));
      byVersion.put(v, w);
    }
    return w;
  }

  private WSSSecurityProperties properties(SoapVersion v) {
    WSSSecurityProperties p = new WSSSecurityProperties();
    p.setCallbackHandler(new Passwords(credentials.user(), credentials.password(), null));
    List<XMLSecurityConstants.Action> actions = new ArrayList<>();
    QName body = v.qname("Body");
    if (policy.usernameToken() != null) {
      actions.add(WSSConstants.USERNAMETOKEN);
      p.setTokenUser(credentials.user());
      p.setUsernameTokenPasswordType(policy.usernameToken() == WsSecurityPolicy.Password.TEXT
          ? WSSConstants.UsernameTokenPasswordType.PASSWORD_TEXT
          : WSSConstants.UsernameTokenPasswordType.PASSWORD_DIGEST);
      p.setAddUsernameTokenNonce(true);
      p.setAddUsernameTokenCreated(true);
    }
    if (policy.timestampTtl() != null) {
      actions.add(WSSConstants.TIMESTAMP);
      p.setTimestampTTL((int) policy.timestampTtl().toSeconds());
    }
    if (policy.signs()) {
      actions.add(XMLSecurityConstants.SIGNATURE);
      signature(p, body);
    }
    if (policy.encryptBody()) {
      actions.add(XMLSecurityConstants.ENCRYPTION);
      p.setEncryptionUser(Cryptos.RECIPIENT);
      p.setEncryptionCrypto(recipient);
      p.setEncryptionSymAlgorithm(policy.contentEncryption());
      p.setEncryptionKeyTransportAlgorithm(policy.keyTransport());
      if (WsSecurityPolicy.RSA_OAEP.equals(policy.keyTransport())) {
        p.setEncryptionKeyTransportDigestAlgorithm(WsSecurityPolicy.SHA256);
        p.setEncryptionKeyTransportMGFAlgorithm(MGF1_SHA256);
      }
      p.setEncryptionKeyIdentifier(
          org.apache.xml.security.stax.securityToken.SecurityTokenConstants
              .KeyIdentifier_IssuerSerial);
      p.addEncryptionPart(new SecurePart(body, SecurePart.Modifier.Content));
    }
    p.setActions(actions);
    return p;
  }

  private void signature(WSSSecurityProperties p, QName body) {
    p.setSignatureUser(Cryptos.OWN);
    p.setSignatureCrypto(own);
    p.setSignatureAlgorithm(policy.signatureAlgorithm() != null ? policy.signatureAlgorithm()
        : keyAlgorithm().equals("EC") ? WsSecurityPolicy.ECDSA_SHA256
        : WsSecurityPolicy.RSA_SHA256);
    p.setSignatureDigestAlgorithm(policy.digestAlgorithm());
    p.setSignatureCanonicalizationAlgorithm(EXC_C14N);
    p.setSignatureKeyIdentifier(
        WSSecurityTokenConstants.KEYIDENTIFIER_SECURITY_TOKEN_DIRECT_REFERENCE);
    if (policy.signTimestamp()) {
      p.addSignaturePart(new SecurePart(WSSConstants.TAG_WSU_TIMESTAMP,
          SecurePart.Modifier.Element));
    }
    for (QName h : policy.signedHeaders()) {
      p.addSignaturePart(new SecurePart(h, SecurePart.Modifier.Element));
    }
    if (policy.signBody()) {
      p.addSignaturePart(new SecurePart(body, SecurePart.Modifier.Element));
    }
  }

  private String keyAlgorithm() {
    try {
      KeyStore.PrivateKeyEntry e = credentials.key().load();
      return e.getPrivateKey().getAlgorithm();
    } catch (IOException e) {
      return "RSA";
    }
  }
}
