package dev.ferry.wssecurity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.bytes.ByteStringBuilder;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.MessageGuard;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Ferry's WS-Security against itself, envelope to envelope: what each policy adds and checks. */
class WsSecurityTest {
  static final SoapCodec CODEC = SoapCodec.create();
  static TestPki pki;
  static TestPki.Credential alice;
  static TestPki.Credential server;

  @BeforeAll
  static void keys() {
    pki = TestPki.create("CN=WSS Test CA", TestPki.KeyType.RSA);
    alice = pki.issue("CN=alice,O=Ferry").keyType(TestPki.KeyType.RSA).make();
    server = pki.issue("CN=server,O=Ferry").keyType(TestPki.KeyType.RSA).make();
  }

  static Payload order(SoapVersion v, MtomPolicy mtom, byte[] blob) {
    return CODEC.payload(v, mtom, List.of(), w -> {
      w.writeStartElement("o", "order", "urn:shop");
      w.writeNamespace("o", "urn:shop");
      w.writeStartElement("o", "item", "urn:shop");
      w.writeCharacters("tea & biscuits");
      w.writeEndElement();
      if (blob != null) {
        w.writeStartElement("o", "scan", "urn:shop");
        w.writeBinary(blob, 0, blob.length, "application/octet-stream");
        w.writeEndElement();
      }
      w.writeEndElement();
    });
  }

  /** Writes {@code p} as it would go on the wire and reads it back as a receiver would. */
  static Message wire(Payload p) throws IOException {
    ByteStringBuilder b = new ByteStringBuilder(4096);
    p.writeTo(b.asOutputStream());
    return CODEC.read(b.toByteString().asInputStream(), p.contentType()).toMessage();
  }

  static WsSecurityCredentials.Builder sender() {
    return WsSecurityCredentials.builder().user("alice", "wonderland".toCharArray())
        .key(KeyMaterial.of(alice.key(), alice.chain()))
        .recipient(server.certificate());
  }

  static WsSecurityCredentials.Builder receiver() {
    return WsSecurityCredentials.builder()
        .passwords(u -> u.equals("alice") ? "wonderland".toCharArray() : null)
        .key(KeyMaterial.of(server.key(), server.chain()))
        .trust(TrustMaterial.of(pki.certificate()));
  }

  static WsSecurity out(WsSecurityPolicy p) throws IOException {
    return WsSecurity.builder().outbound(p).credentials(sender().build()).build();
  }

  static WsSecurity in(WsSecurityPolicy p) throws IOException {
    return WsSecurity.builder().inbound(p).credentials(receiver().build()).build();
  }

  @Test
  void usernameTokensAsTextAndDigestWithTimestamps() throws IOException {
    for (WsSecurityPolicy.Password form : WsSecurityPolicy.Password.values()) {
      WsSecurityPolicy p = WsSecurityPolicy.builder().usernameToken(form)
          .timestamp(Duration.ofMinutes(5)).build();
      Message m = wire(out(p).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
      String env = m.toByteString().utf8();
      assertThat(env).contains("UsernameToken").contains("Nonce").contains("Timestamp")
          .contains(form == WsSecurityPolicy.Password.TEXT ? "wonderland" : "PasswordDigest");
      MessageGuard.Opened o = in(p).open(m);
      assertThat(o.principal().getName()).isEqualTo("alice");
      assertThat(o.message()).isSameAs(m); // nothing encrypted: the message as it came
    }
  }

  @Test
  void aSignedBodyAndTimestampVerifyAndNameTheSigner() throws IOException {
    WsSecurityPolicy p = WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .signBody().signTimestamp().build();
    for (SoapVersion v : SoapVersion.values()) {
      Message m = wire(out(p).protect(order(v, MtomPolicy.NEVER, null)));
      assertThat(m.toByteString().utf8()).contains(":Signature ").contains("rsa-sha256")
          .contains("xmlenc#sha256");
      MessageGuard.Opened o = in(p).open(m);
      assertThat(o.principal().getName()).isEqualTo("CN=alice,O=Ferry");
    }
  }

  @Test
  void ecKeysSignWithEcdsa() throws IOException {
    TestPki.Credential ec = pki.issue("CN=ec,O=Ferry").make();
    WsSecurityPolicy p = WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .signBody().signTimestamp().build();
    WsSecurity signer = WsSecurity.builder().outbound(p).credentials(WsSecurityCredentials
        .builder().key(KeyMaterial.of(ec.key(), ec.chain())).build()).build();
    Message m = wire(signer.protect(order(SoapVersion.SOAP_12, MtomPolicy.NEVER, null)));
    assertThat(m.toByteString().utf8()).contains("ecdsa-sha256");
    assertThat(in(p).open(m).principal().getName()).isEqualTo("CN=ec,O=Ferry");
  }

  @Test
  void theRecipientIsATrustedSignerAndOnlyItIsOfItsCa() throws IOException {
    TestPki elsewhere = TestPki.create("CN=Peer's own CA", TestPki.KeyType.RSA);
    TestPki.Credential peer = elsewhere.issue("CN=peer,O=Elsewhere")
        .keyType(TestPki.KeyType.RSA).make();
    TestPki.Credential other = elsewhere.issue("CN=other,O=Elsewhere")
        .keyType(TestPki.KeyType.RSA).make();
    WsSecurityPolicy p = WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .signBody().build();
    assertThatThrownBy(() -> in(p).open(signedBy(peer, p))).as("a CA the receiver does not"
        + " trust").isInstanceOf(FaultException.class);
    WsSecurity receiver = WsSecurity.builder().inbound(p).credentials(receiver()
        .recipient(peer.certificate()).build()).build();
    assertThat(receiver.open(signedBy(peer, p)).principal().getName())
        .isEqualTo("CN=peer,O=Elsewhere");
    assertThatThrownBy(() -> receiver.open(signedBy(other, p))).as("its CA is not trusted")
        .isInstanceOf(FaultException.class);
  }

  private static Message signedBy(TestPki.Credential key, WsSecurityPolicy p)
      throws IOException {
    WsSecurity signer = WsSecurity.builder().outbound(p).credentials(WsSecurityCredentials
        .builder().key(KeyMaterial.of(key.key(), key.chain())).build()).build();
    return wire(signer.protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
  }

  @Test
  void anEncryptedBodyIsDecryptedForTheApplication() throws IOException {
    WsSecurityPolicy p = WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .signBody().encryptBody().build();
    Message m = wire(out(p).protect(order(SoapVersion.SOAP_12, MtomPolicy.NEVER, null)));
    String sent = m.toByteString().utf8();
    assertThat(sent).contains("EncryptedData").contains("aes256-gcm")
        .doesNotContain("tea &amp; biscuits");
    MessageGuard.Opened o = in(p).open(m);
    assertThat(o.message()).isNotSameAs(m);
    assertThat(o.message().body().utf8()).contains("tea &amp; biscuits");
    assertThat(o.message().buffer().bodyElement().getLocalPart()).isEqualTo("order");
  }

  @Test
  void attachmentsStreamPastTheSignature() throws IOException {
    byte[] blob = dev.ferry.testkit.Blobs.random(300_000, 3);
    WsSecurityPolicy p = WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .signBody().build();
    Message m = wire(out(p).protect(order(SoapVersion.SOAP_11, MtomPolicy.ALWAYS, blob)));
    assertThat(m.attachments().isMultipart()).isTrue();
    assertThat(m.toByteString().utf8()).contains("xop:Include");
    in(p).open(m);
    assertThat(m.attachments().attachments()).hasSize(1);
    assertThat(m.attachments().attachments().iterator().next().openStream().readAllBytes())
        .isEqualTo(blob);
  }

  @Test
  void whatThePolicyRequiresMustBeThere() throws IOException {
    WsSecurityPolicy strict = WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .signBody().signTimestamp().build();
    Message plain = wire(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null));
    assertThatThrownBy(() -> in(strict).open(plain)).isInstanceOf(FaultException.class)
        .hasMessageContaining("no wsse:Security header");
    Message timestamped = wire(out(WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .build()).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
    FaultException f = (FaultException) catchFault(() -> in(strict).open(timestamped));
    // the sender learns that it failed, not which check: that stays here (cause, log)
    assertThat(f.getMessage()).isEqualTo("WS-Security: an error was discovered processing the"
        + " wsse:Security header");
    assertThat(f.getCause()).hasMessageContaining("lacks a signed Body, a signed Timestamp");
    assertThat(f.fault().code().getLocalPart()).isEqualTo("InvalidSecurity");
    assertThat(in(WsSecurityPolicy.NONE).open(plain).principal()).isNull();
  }

  static Throwable catchFault(org.assertj.core.api.ThrowableAssert.ThrowingCallable c) {
    try {
      c.call();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("no fault");
  }

  @Test
  void configurationsThatCannotWorkAreRefusedUpFront() {
    assertThatThrownBy(() -> WsSecurity.builder().inbound(WsSecurityPolicy.builder().signBody()
        .build()).build()).isInstanceOf(IllegalStateException.class).hasMessageContaining(
        "trust(");
    assertThatThrownBy(() -> WsSecurity.builder().outbound(WsSecurityPolicy.builder()
        .encryptBody().build()).build()).hasMessageContaining("recipient(");
    assertThatThrownBy(() -> WsSecurity.builder().outbound(WsSecurityPolicy.builder()
        .usernameToken(WsSecurityPolicy.Password.TEXT).build()).build())
        .hasMessageContaining("user(");
    assertThat(Map.of()).isEmpty();
    assertThat(ByteString.EMPTY.size()).isZero();
  }
}
