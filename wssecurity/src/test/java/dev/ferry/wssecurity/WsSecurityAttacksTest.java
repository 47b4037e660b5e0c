package dev.ferry.wssecurity;

import static dev.ferry.wssecurity.WsSecurityTest.CODEC;
import static dev.ferry.wssecurity.WsSecurityTest.in;
import static dev.ferry.wssecurity.WsSecurityTest.order;
import static dev.ferry.wssecurity.WsSecurityTest.out;
import static dev.ferry.wssecurity.WsSecurityTest.wire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TrustMaterial;
import dev.ferry.soap.FaultException;
import dev.ferry.soap.Message;
import dev.ferry.soap.SoapVersion;
import dev.ferry.testkit.TestPki;
import dev.ferry.xop.MtomPolicy;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The attacks the issue lists, each on a message Ferry signed itself and then changed as an
 * attacker would: every one is refused with a WS-Security fault.
 */
class WsSecurityAttacksTest {
  private static final WsSecurityPolicy SIGNED = WsSecurityPolicy.builder()
      .timestamp(Duration.ofMinutes(5)).signBody().signTimestamp().build();
  private static String signed;

  @BeforeAll
  static void sign() throws IOException {
    WsSecurityTest.keys();
    signed = wire(out(SIGNED).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)))
        .toByteString().utf8();
  }

  private static Message parse(String envelope) throws IOException {
    return CODEC.parse(ByteString.encodeUtf8(envelope)).toMessage();
  }

  private static String body(String env) {
    return env.substring(env.indexOf("<soap:Body"), env.indexOf("</soap:Body>") + 12);
  }

  private static FaultException refused(String envelope) throws IOException {
    Message m = parse(envelope);
    try {
      in(SIGNED).open(m);
    } catch (FaultException e) {
      return e;
    }
    throw new AssertionError("not refused: " + envelope);
  }

  @Test
  void theSignedMessageItselfIsAccepted() throws IOException {
    assertThat(in(SIGNED).open(parse(signed)).principal().getName())
        .isEqualTo("CN=alice,O=Ferry");
  }

  @Test
  void wrappingTheSignedBodyInAHeaderAndSendingAnotherBody() throws IOException {
    String original = body(signed);
    String evil = "<soap:Body><o:order xmlns:o=\"urn:shop\"><o:item>everything</o:item>"
        + "</o:order></soap:Body>";
    String moved = signed.replace(original, evil).replace("</soap:Header>",
        "<w:Wrapper xmlns:w=\"urn:evil\">" + original + "</w:Wrapper></soap:Header>");
    FaultException f = refused(moved);
    assertThat(f.getMessage()).doesNotContain("Body");
    assertThat(f.getCause()).hasMessageContaining("called Body");
  }

  @Test
  void aSecondElementWithTheSignedBodysId() throws IOException {
    String original = body(signed);
    String id = original.substring(original.indexOf("Id=\"") + 4);
    id = id.substring(0, id.indexOf('"'));
    String twin = "<w:Twin xmlns:w=\"urn:evil\" xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/"
        + "01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" wsu:Id=\"" + id + "\"/>";
    String duplicated = signed.replace("</soap:Header>", twin + "</soap:Header>");
    assertThat(refused(duplicated).fault().code().getLocalPart()).isIn("InvalidSecurity",
        "FailedCheck");
  }

  @Test
  void theSignedBodyInsideANewWrapperInTheBody() throws IOException {
    String original = body(signed);
    String wrapped = signed.replace(original, "<soap:Body><w:Wrapper xmlns:w=\"urn:evil\">"
        + original + "</w:Wrapper><o:order xmlns:o=\"urn:shop\"/></soap:Body>");
    assertThat(refused(wrapped).fault().code().getLocalPart()).isIn("InvalidSecurity",
        "FailedCheck");
  }

  @Test
  void aChangedBodyFailsItsDigest() throws IOException {
    FaultException f = refused(signed.replace("tea &amp; biscuits", "tea &amp; cake"));
    assertThat(f.fault().code().getLocalPart()).isIn("FailedCheck", "InvalidSecurity");
  }

  @Test
  void aReplayedNonceAndAReplayedSignedTimestamp() throws IOException {
    WsSecurityPolicy ut = WsSecurityPolicy.builder()
        .usernameToken(WsSecurityPolicy.Password.DIGEST).build();
    String token = wire(out(ut).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)))
        .toByteString().utf8();
    WsSecurity receiver = in(ut);
    receiver.open(parse(token));
    assertThatThrownBy(() -> receiver.open(parse(token))).isInstanceOf(FaultException.class)
        .hasMessageContaining("replay");
    WsSecurity verifier = in(SIGNED);
    verifier.open(parse(signed));
    FaultException again = (FaultException) WsSecurityTest.catchFault(
        () -> verifier.open(parse(signed)));
    assertThat(again.fault().code().getLocalPart()).isEqualTo("InvalidSecurity");
    assertThat(again.fault().reason()).contains("replay");
  }

  @Test
  void aTextPasswordWithoutNonceAndCreatedCanBeReplayedSoIsRefused() throws IOException {
    String token = "<wsse:Security xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/"
        + "oasis-200401-wss-wssecurity-secext-1.0.xsd\"><wsse:UsernameToken>"
        + "<wsse:Username>alice</wsse:Username><wsse:Password Type=\"http://docs.oasis-open.org/"
        + "wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText\">wonderland"
        + "</wsse:Password></wsse:UsernameToken></wsse:Security>";
    String bare = "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
        + "<soap:Header>" + token + "</soap:Header><soap:Body><o:order xmlns:o=\"urn:shop\"/>"
        + "</soap:Body></soap:Envelope>";
    WsSecurityPolicy text = WsSecurityPolicy.builder()
        .usernameToken(WsSecurityPolicy.Password.TEXT).build();
    FaultException f = (FaultException) WsSecurityTest.catchFault(
        () -> in(text).open(parse(bare)));
    assertThat(f.getCause()).hasMessageContaining("Nonce and Created");
    WsSecurityPolicy lenient = WsSecurityPolicy.builder()
        .usernameToken(WsSecurityPolicy.Password.TEXT).allowTextPasswordWithoutNonce(true)
        .build();
    assertThat(in(lenient).open(parse(bare)).principal().getName()).isEqualTo("alice");
  }

  @Test
  void anExpiredTimestamp() throws Exception {
    WsSecurityPolicy shortLived = WsSecurityPolicy.builder().timestamp(Duration.ofSeconds(1))
        .build();
    String stamped = wire(out(shortLived).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER,
        null))).toByteString().utf8();
    Thread.sleep(1_200);
    WsSecurity receiver = in(WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5))
        .clockSkew(Duration.ZERO).build());
    FaultException f = (FaultException) WsSecurityTest.catchFault(
        () -> receiver.open(parse(stamped)));
    assertThat(f.fault().code().getLocalPart()).isEqualTo("MessageExpired");
  }

  @Test
  void anUnknownKeyAndARevokedOne() throws IOException {
    TestPki other = TestPki.create("CN=Other CA", TestPki.KeyType.RSA);
    TestPki.Credential mallory = other.issue("CN=alice,O=Ferry").keyType(TestPki.KeyType.RSA)
        .make();
    WsSecurity forger = WsSecurity.builder().outbound(SIGNED).credentials(
        WsSecurityCredentials.builder().key(KeyMaterial.of(mallory.key(), mallory.chain()))
            .build()).build();
    Message forged = wire(forger.protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
    assertThatThrownBy(() -> in(SIGNED).open(forged)).isInstanceOf(FaultException.class);

    WsSecurity revoking = WsSecurity.builder().inbound(SIGNED).credentials(
        WsSecurityCredentials.builder().trust(TrustMaterial.of(WsSecurityTest.pki.certificate()))
            .revoked(WsSecurityTest.pki.crl(WsSecurityTest.alice.certificate())).build())
        .build();
    FaultException f = (FaultException) WsSecurityTest.catchFault(
        () -> revoking.open(parse(signed)));
    assertThat(f.getCause()).hasStackTraceContaining("revoked");
  }

  @Test
  void weakAlgorithmsAreRefusedByDefault() throws IOException {
    WsSecurityPolicy sha1 = WsSecurityPolicy.builder().signBody()
        .digestAlgorithm("http://www.w3.org/2000/09/xmldsig#sha1")
        .signatureAlgorithm("http://www.w3.org/2000/09/xmldsig#rsa-sha1").build();
    Message m = wire(out(sha1).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
    FaultException f = (FaultException) WsSecurityTest.catchFault(
        () -> in(WsSecurityPolicy.builder().signBody().build()).open(m));
    assertThat(f.fault().code().getLocalPart()).isEqualTo("UnsupportedAlgorithm");
    assertThat(f.getMessage()).contains("sha1");
    in(WsSecurityPolicy.builder().signBody().allowWeakAlgorithms(true).build()).open(
        wire(out(sha1).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null))));

    WsSecurityPolicy rsa15 = WsSecurityPolicy.builder().encryptBody()
        .keyTransport("http://www.w3.org/2001/04/xmlenc#rsa-1_5").build();
    Message e = wire(out(rsa15).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
    assertThatThrownBy(() -> in(WsSecurityPolicy.builder().encryptBody().build()).open(e))
        .isInstanceOf(FaultException.class);
  }

  @Test
  void wrongPasswordsFailAuthentication() throws IOException {
    for (WsSecurityPolicy.Password form : WsSecurityPolicy.Password.values()) {
      WsSecurityPolicy ut = WsSecurityPolicy.builder().usernameToken(form).build();
      WsSecurity liar = WsSecurity.builder().outbound(ut).credentials(WsSecurityCredentials
          .builder().user("alice", "guess".toCharArray()).build()).build();
      Message m = wire(liar.protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
      FaultException f = (FaultException) WsSecurityTest.catchFault(() -> in(ut).open(m));
      assertThat(f.fault().code().getLocalPart()).isEqualTo("FailedAuthentication");
      assertThat(f.getMessage()).doesNotContain("guess").doesNotContain("wonderland");
    }
  }

  @Test
  void tokensThatFailAuthenticationLeaveNoNonceBehind() throws IOException {
    WsSecurityPolicy ut = WsSecurityPolicy.builder()
        .usernameToken(WsSecurityPolicy.Password.DIGEST).build();
    WsSecurity receiver = WsSecurity.builder().inbound(ut)
        .credentials(WsSecurityTest.receiver().build()).replayEntries(5).build();
    WsSecurity liar = WsSecurity.builder().outbound(ut).credentials(WsSecurityCredentials
        .builder().user("alice", "guess".toCharArray()).build()).build();
    for (int i = 0; i < 20; i++) { // four times what the cache holds, each with a new nonce
      Message m = wire(liar.protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
      assertThatThrownBy(() -> receiver.open(m)).isInstanceOf(FaultException.class);
    }
    String token = wire(out(ut).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)))
        .toByteString().utf8();
    receiver.open(parse(token));
    assertThatThrownBy(() -> receiver.open(parse(token))).isInstanceOf(FaultException.class);
  }

  @Test
  void aCacheFullOfLiveNoncesRefusesNewMessages() throws IOException {
    WsSecurityPolicy ut = WsSecurityPolicy.builder()
        .usernameToken(WsSecurityPolicy.Password.DIGEST).build();
    WsSecurity receiver = WsSecurity.builder().inbound(ut)
        .credentials(WsSecurityTest.receiver().build()).replayEntries(2).build();
    for (int i = 0; i < 2; i++) {
      receiver.open(wire(out(ut).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null))));
    }
    Message third = wire(out(ut).protect(order(SoapVersion.SOAP_11, MtomPolicy.NEVER, null)));
    FaultException f = (FaultException) WsSecurityTest.catchFault(() -> receiver.open(third));
    assertThat(f.fault().code().getLocalPart()).isEqualTo("FailedAuthentication");
  }
}
