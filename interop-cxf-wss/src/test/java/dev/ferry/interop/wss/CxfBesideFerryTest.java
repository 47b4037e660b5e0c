package dev.ferry.interop.wss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.security.TrustMaterial;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.Endpoint;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.Message;
import dev.ferry.soap.Payload;
import dev.ferry.soap.SoapCodec;
import dev.ferry.testkit.TestPki;
import dev.ferry.wssecurity.WsSecurity;
import dev.ferry.wssecurity.WsSecurityCredentials;
import dev.ferry.wssecurity.WsSecurityPolicy;
import dev.ferry.xop.MtomPolicy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.xml.ws.Dispatch;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.soap.SOAPBinding;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import javax.security.auth.callback.CallbackHandler;
import javax.xml.namespace.QName;
import javax.xml.transform.Source;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.stream.StreamResult;
import javax.xml.transform.stream.StreamSource;
import org.apache.cxf.jaxws.DispatchImpl;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.apache.wss4j.common.ConfigurationConstants;
import org.apache.wss4j.common.ext.WSPasswordCallback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CXF's WS-Security as its users configure it (the crypto from properties naming a PKCS#12
 * file, which WSS4J opens through Jasypt's password encryptor) in a project that has
 * {@code ferry-wssecurity} too, declared first: CXF signs, Ferry's {@code WsSecurity} checks the
 * signature and names the signer.
 */
class CxfBesideFerryTest {
  static final String NS = "urn:ferry:coexist";
  static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
  static final String WSU = "http://docs.oasis-open.org/wss/2004/01/"
      + "oasis-200401-wss-wssecurity-utility-1.0.xsd";

  @TempDir
  Path dir;

  @Test
  void cxfSignsWithACryptoFromPropertiesAndFerryChecksIt() throws Exception {
    TestPki pki = TestPki.create("CN=Coexist CA", TestPki.KeyType.RSA);
    TestPki.Credential alice = pki.issue("CN=alice,O=Ferry").keyType(TestPki.KeyType.RSA)
        .make();
    Path store = alice.writePkcs12(dir.resolve("alice.p12"), "alice", "secret".toCharArray());
    WsSecurity guard = WsSecurity.builder()
        .inbound(WsSecurityPolicy.builder().timestamp(Duration.ofMinutes(5)).signBody()
            .build())
        .credentials(WsSecurityCredentials.builder().trust(TrustMaterial.of(pki.certificate()))
            .build())
        .build();
    SoapCodec codec = SoapCodec.create();
    Endpoint signer = new Endpoint() {
      @Override
      public Payload handle(Message request) {
        throw new IllegalStateException("the HTTP request is needed");
      }

      @Override
      public Payload handle(Message request, HttpServletRequest http) throws Exception {
        String who = http.getUserPrincipal().getName();
        return codec.payload(request.version(), MtomPolicy.NEVER, List.of(), body -> {
          body.writeStartElement("c", "signedBy", NS);
          body.writeNamespace("c", NS);
          body.writeCharacters(who);
          body.writeEndElement();
        });
      }
    };
    try (SoapServer server = SoapServer.builder().port(0)
        .endpoint("/signed", Dispatcher.builder().guard(guard).fallback(signer).build())
        .build().start()) {
      Dispatch<Source> dispatch = cxfDispatch(server.uri("/signed").toString(), store);
      Source reply = dispatch.invoke(new StreamSource(new StringReader(
          "<c:ping xmlns:c=\"" + NS + "\">hello</c:ping>")));
      assertThat(text(reply)).contains("CN=alice,O=Ferry");
    }
  }

  /** A CXF Dispatch that signs the Body and a Timestamp, its crypto given as properties. */
  static Dispatch<Source> cxfDispatch(String address, Path store) {
    QName service = new QName(NS, "Coexist");
    QName port = new QName(NS, "CoexistPort");
    Service s = Service.create(service);
    s.addPort(port, SOAPBinding.SOAP11HTTP_BINDING, address);
    Dispatch<Source> dispatch = s.createDispatch(port, Source.class, Service.Mode.PAYLOAD);
    Properties crypto = new Properties();
    crypto.put("org.apache.wss4j.crypto.provider", "org.apache.wss4j.common.crypto.Merlin");
    crypto.put("org.apache.wss4j.crypto.merlin.keystore.type", "PKCS12");
    crypto.put("org.apache.wss4j.crypto.merlin.keystore.file", store.toString());
    crypto.put("org.apache.wss4j.crypto.merlin.keystore.password", "secret");
    Map<String, Object> out = new HashMap<>();
    out.put(ConfigurationConstants.ACTION, "Timestamp Signature");
    out.put(ConfigurationConstants.SIGNATURE_USER, "alice");
    out.put(ConfigurationConstants.SIG_PROP_REF_ID, "crypto");
    out.put("crypto", crypto);
    out.put(ConfigurationConstants.SIG_KEY_ID, "DirectReference");
    out.put(ConfigurationConstants.SIG_ALGO, "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    out.put(ConfigurationConstants.SIG_DIGEST_ALGO, "http://www.w3.org/2001/04/xmlenc#sha256");
    out.put(ConfigurationConstants.SIGNATURE_PARTS, "{Element}{" + WSU + "}Timestamp;{Element}{"
        + SOAP11 + "}Body");
    out.put(ConfigurationConstants.PW_CALLBACK_REF, (CallbackHandler) callbacks -> {
      for (var c : callbacks) {
        ((WSPasswordCallback) c).setPassword("secret");
      }
    });
    ((DispatchImpl<?>) dispatch).getClient().getOutInterceptors()
        .add(new WSS4JOutInterceptor(out));
    return dispatch;
  }

  static String text(Source source) throws Exception {
    StringWriter w = new StringWriter();
    TransformerFactory.newInstance().newTransformer().transform(source, new StreamResult(w));
    return w.toString();
  }
}
