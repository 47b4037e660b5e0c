package dev.ferry.bench.wss;

import dev.ferry.bytes.ByteString;
import dev.ferry.interop.CxfSecurity;
import dev.ferry.soap.MessageBuffer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.wssecurity.internal.BoundedReplayCache;
import dev.ferry.wssecurity.internal.Stax;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.security.auth.callback.CallbackHandler;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.stream.XMLStreamReader;
import javax.xml.stream.XMLStreamWriter;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.apache.wss4j.common.WSEncryptionPart;
import org.apache.wss4j.common.bsp.BSPRule;
import org.apache.wss4j.common.crypto.Merlin;
import org.apache.wss4j.dom.WSConstants;
import org.apache.wss4j.dom.engine.WSSConfig;
import org.apache.wss4j.dom.engine.WSSecurityEngine;
import org.apache.wss4j.dom.handler.RequestData;
import org.apache.wss4j.dom.message.WSSecHeader;
import org.apache.wss4j.dom.message.WSSecSignature;
import org.apache.wss4j.dom.message.WSSecTimestamp;
import org.apache.wss4j.dom.message.WSSecUsernameToken;
import org.apache.wss4j.stax.ext.WSSConstants;
import org.apache.wss4j.stax.ext.WSSSecurityProperties;
import org.apache.wss4j.stax.securityToken.WSSecurityTokenConstants;
import org.apache.wss4j.stax.setup.InboundWSSec;
import org.apache.wss4j.stax.setup.OutboundWSSec;
import org.apache.wss4j.stax.setup.WSSec;
import org.apache.xml.security.stax.ext.SecurePart;
import org.apache.xml.security.stax.ext.XMLSecurityConstants;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.w3c.dom.Document;

/**
 * The floor WSS4J itself sets under {@link WsSecurityRoundTripBenchmark}: the WS-Security work of
 * one round trip done with WSS4J alone, from envelope bytes to envelope bytes, with no HTTP, no
 * SOAP stack and nothing of Ferry's around it. {@code usernameToken}: a digest UsernameToken
 * (nonce, created) and a Timestamp added to the request and checked (nonce against a replay
 * cache); {@code signed}: a Timestamp, the Body and the Timestamp signed (RSA-SHA256 or
 * ECDSA-SHA256, BinarySecurityToken by direct reference) and verified against the CA, both
 * ways. {@code api} is WSS4J's streaming implementation (the one Ferry runs on) or its DOM one
 * (the one CXF runs on by default); the lower of the two is what any WSS4J-based stack pays.
 * The envelope is the 1 KiB echo request of the round trip, its blob inline. {@code ferry} is
 * the same work through Ferry's {@link WsSecurity} guards (protect, then open, on envelopes in
 * memory), for what Ferry adds around WSS4J without HTTP.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class WssLibraryFloorBenchmark {
  private static final String RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
  private static final String ECDSA_SHA256 =
      "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
  private static final String SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
  private static final String EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
  /** The keys' store password, and alice's password for her UsernameToken. */
  private static final CallbackHandler PASSWORDS = CxfSecurity.passwords("wonderland");
  /**
   * How long a nonce is remembered: short, so that the replay cache (bounded, as Ferry's is)
   * does not fill at thousands of tokens a second and refuse the rest.
   */
  private static final int TTL_SECONDS = 10;

  @Param({"usernameToken", "signed"})
  public String security;

  /** WSS4J's streaming API, its DOM API, or Ferry's guards over the streaming one. */
  @Param({"stax", "dom", "ferry"})
  public String api;

  @Param({"RSA", "EC"})
  public String keyType;

  private byte[] envelope;
  private ByteString envelopeBytes; // the same, for Ferry's guards
  private Merlin clientKey;
  private Merlin serviceKey;
  private Merlin trust;
  private String algorithm;
  // made once, as a DOM stack keeps them: only the per-message work is measured
  private DocumentBuilder documents;
  private Transformer serializer;
  private WSSConfig domConfig;
  private final WSSecurityEngine engine = new WSSecurityEngine();
  private OutboundWSSec staxClientOut;
  private OutboundWSSec staxServiceOut;
  private InboundWSSec staxIn;
  private final BoundedReplayCache nonces =
      new BoundedReplayCache(1_000_000, Duration.ofSeconds(20));
  private final BoundedReplayCache timestamps =
      new BoundedReplayCache(1_000_000, Duration.ofSeconds(20));

  private final SoapCodec codec = SoapCodec.create();
  private WsSecurity ferryClient;
  private WsSecurity ferryService;

  @Setup
  public void setUp() throws Exception {
    WSSConfig.init();
    byte[] blob = new byte[1024];
    new Random(42).nextBytes(blob);
    envelope = ("<soap:Envelope xmlns:soap=\"" + CxfSecurity.SOAP11 + "\"><soap:Body>"
        + "<ns:echo xmlns:ns=\"http://ferry.dev/echo\"><name>bench</name><data>"
        + Base64.getEncoder().encodeToString(blob) + "</data></ns:echo>"
        + "</soap:Body></soap:Envelope>").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    envelopeBytes = ByteString.of(envelope);
    clientKey = CxfSecurity.merlin(WssKeys.PKI, WssKeys.clientKey(keyType), null);
    serviceKey = CxfSecurity.merlin(WssKeys.PKI, WssKeys.serviceKey(keyType), null);
    trust = CxfSecurity.merlin(WssKeys.PKI, null, null);
    algorithm = keyType.equals("EC") ? ECDSA_SHA256 : RSA_SHA256;
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    documents = f.newDocumentBuilder();
    serializer = TransformerFactory.newInstance().newTransformer();
    domConfig = WSSConfig.getNewInstance();
    if (api.equals("stax")) {
      staxClientOut = WSSec.getOutboundWSSec(staxOut(clientKey));
      staxServiceOut = WSSec.getOutboundWSSec(staxOut(serviceKey));
      staxIn = WSSec.getInboundWSSec(staxIn(), false, true);
    }
    if (api.equals("ferry")) {
      WsSecurityPolicy request = SecureFerryEcho.policy(security, true, true);
      WsSecurityPolicy reply = SecureFerryEcho.policy(security, false, true);
      ferryClient = WsSecurity.builder().outbound(request).inbound(reply)
          .credentials(WssKeys.client(keyType)).replayEntries(2_000_000).build();
      ferryService = WsSecurity.builder().inbound(request).outbound(reply)
          .credentials(WssKeys.service(keyType)).replayEntries(2_000_000).build();
    }
    if (roundTrip().length == 0) {
      throw new IllegalStateException("nothing came out");
    }
  }

  /** The request secured and checked; if signed, the reply too. */
  @Benchmark
  public byte[] roundTrip() throws Exception {
    if (api.equals("ferry")) {
      ByteString request = ferry(ferryClient, ferryService);
      return security.equals("signed") ? ferry(ferryService, ferryClient).toByteArray()
          : request.toByteArray();
    }
    boolean stax = api.equals("stax");
    byte[] request = stax ? staxSecure(staxClientOut) : domSecure(clientKey);
    if (stax) {
      staxCheck(request);
    } else {
      domCheck(request);
    }
    if (!security.equals("signed")) {
      return request;
    }
    byte[] reply = stax ? staxSecure(staxServiceOut) : domSecure(serviceKey);
    if (stax) {
      staxCheck(reply);
    } else {
      domCheck(reply);
    }
    return reply;
  }

  /** The envelope protected by {@code sender} and opened by {@code receiver}, as received. */
  private ByteString ferry(WsSecurity sender, WsSecurity receiver) throws Exception {
    try (MessageBuffer out = codec.parse(envelopeBytes)) {
      ByteString secured = sender.protect(out.toMessage()).toByteString();
      try (MessageBuffer in = codec.parse(secured)) {
        receiver.open(in.toMessage());
      }
      return secured;
    }
  }

  private WSSSecurityProperties staxOut(Merlin key) {
    WSSSecurityProperties p = new WSSSecurityProperties();
    p.setCallbackHandler(PASSWORDS);
    List<XMLSecurityConstants.Action> actions = new ArrayList<>();
    if (security.equals("usernameToken")) {
      actions.add(WSSConstants.USERNAMETOKEN);
      p.setTokenUser("alice");
      p.setUsernameTokenPasswordType(WSSConstants.UsernameTokenPasswordType.PASSWORD_DIGEST);
      p.setAddUsernameTokenNonce(true);
      p.setAddUsernameTokenCreated(true);
    }
    actions.add(WSSConstants.TIMESTAMP);
    p.setTimestampTTL(300);
    if (security.equals("signed")) {
      actions.add(XMLSecurityConstants.SIGNATURE);
      p.setSignatureUser(CxfSecurity.OWN);
      p.setSignatureCrypto(key);
      p.setSignatureAlgorithm(algorithm);
      p.setSignatureDigestAlgorithm(SHA256);
      p.setSignatureCanonicalizationAlgorithm(EXC_C14N);
      p.setSignatureKeyIdentifier(
          WSSecurityTokenConstants.KEYIDENTIFIER_SECURITY_TOKEN_DIRECT_REFERENCE);
      p.addSignaturePart(new SecurePart(WSSConstants.TAG_WSU_TIMESTAMP,
          SecurePart.Modifier.Element));
      p.addSignaturePart(new SecurePart(new QName(CxfSecurity.SOAP11, "Body"),
          SecurePart.Modifier.Element));
    }
    p.setActions(actions);
    return p;
  }

  private WSSSecurityProperties staxIn() {
    WSSSecurityProperties p = new WSSSecurityProperties();
    p.setCallbackHandler(PASSWORDS);
    p.setSignatureVerificationCrypto(trust);
    p.setTimestampTTL(TTL_SECONDS);
    p.setUtTTL(TTL_SECONDS);
    p.setStrictTimestampCheck(true);
    p.addIgnoreBSPRule(BSPRule.R5421);
    p.setNonceReplayCache(nonces);
    p.setTimestampReplayCache(timestamps);
    p.setUsernameTokenPasswordType(WSSConstants.UsernameTokenPasswordType.PASSWORD_DIGEST);
    return p;
  }

  private byte[] staxSecure(OutboundWSSec out) throws Exception {
    ByteArrayOutputStream b = new ByteArrayOutputStream(envelope.length + 4096);
    XMLStreamWriter w = out.processOutMessage(b, "UTF-8", new ArrayList<>());
    Stax.copy(Stax.reader(new ByteArrayInputStream(envelope)), w);
    w.close();
    return b.toByteArray();
  }

  private void staxCheck(byte[] message) throws Exception {
    XMLStreamReader r = staxIn.processInMessage(
        Stax.reader(new ByteArrayInputStream(message)), null, e -> { });
    Stax.copy(r, null);
    r.close();
  }

  private byte[] domSecure(Merlin key) throws Exception {
    Document doc = documents.parse(new ByteArrayInputStream(envelope));
    WSSecHeader header = new WSSecHeader(doc);
    header.insertSecurityHeader();
    if (security.equals("usernameToken")) {
      WSSecUsernameToken ut = new WSSecUsernameToken(header);
      ut.setPasswordType(WSConstants.PASSWORD_DIGEST);
      ut.setUserInfo("alice", "wonderland");
      ut.addNonce();
      ut.addCreated();
      ut.build();
    }
    WSSecTimestamp ts = new WSSecTimestamp(header);
    ts.setTimeToLive(300);
    ts.build();
    if (security.equals("signed")) {
      WSSecSignature sig = new WSSecSignature(header);
      sig.setUserInfo(CxfSecurity.OWN, CxfSecurity.STORE_PASSWORD);
      sig.setKeyIdentifierType(WSConstants.BST_DIRECT_REFERENCE);
      sig.setSignatureAlgorithm(algorithm);
      sig.setDigestAlgo(SHA256);
      sig.setSigCanonicalization(EXC_C14N);
      sig.getParts().add(new WSEncryptionPart("Timestamp", WSConstants.WSU_NS, "Element"));
      sig.getParts().add(new WSEncryptionPart("Body", CxfSecurity.SOAP11, "Element"));
      sig.build(key);
    }
    ByteArrayOutputStream b = new ByteArrayOutputStream(envelope.length + 4096);
    serializer.transform(new DOMSource(doc), new StreamResult(b));
    return b.toByteArray();
  }

  private void domCheck(byte[] message) throws Exception {
    Document doc = documents.parse(new ByteArrayInputStream(message));
    RequestData data = new RequestData();
    data.setWssConfig(domConfig);
    data.setCallbackHandler(PASSWORDS);
    data.setSigVerCrypto(trust);
    data.setTimeStampTTL(TTL_SECONDS);
    data.setUtTTL(TTL_SECONDS);
    data.setNonceReplayCache(nonces);
    data.setTimestampReplayCache(timestamps);
    data.setIgnoredBSPRules(List.of(BSPRule.R5421));
    if (engine.processSecurityHeader(doc, data) == null) {
      throw new IllegalStateException("no security header processed");
    }
  }
}
