package dev.ferry.interop;

import dev.ferry.testkit.TestPki;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import org.apache.wss4j.common.ConfigurationConstants;
import org.apache.wss4j.common.crypto.Merlin;
import org.apache.wss4j.common.ext.WSPasswordCallback;

/**
 * CXF's WS-Security configured as its users configure it: WSS4J interceptor properties (actions,
 * users, algorithms, parts) over a {@link Merlin} crypto with keys made by {@link TestPki}. For
 * the interop tests and the benchmarks.
 */
public final class CxfSecurity {
  /** The SOAP 1.1 namespace the parts name. */
  public static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
  public static final String WSU = "http://docs.oasis-open.org/wss/2004/01/"
      + "oasis-200401-wss-wssecurity-utility-1.0.xsd";
  private static final String RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
  private static final String SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
  private static final String AES256_GCM = "http://www.w3.org/2009/xmlenc11#aes256-gcm";
  /** The alias of a crypto's own key, and the password of its in-memory key store. */
  public static final String OWN = "own";
  public static final String STORE_PASSWORD = "changeit";
  private static final char[] STORE = STORE_PASSWORD.toCharArray();

  private CxfSecurity() {}

  /**
   * A crypto holding {@code own} (its key, alias {@code own}; may be null) and {@code peer}'s
   * certificate (alias {@code peer}; may be null), trusting {@code pki}'s CA.
   */
  public static Merlin merlin(TestPki pki, TestPki.Credential own, X509Certificate peer)
      throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    if (own != null) {
      ks.setKeyEntry(OWN, own.key(), STORE, own.chain());
    }
    if (peer != null) {
      ks.setCertificateEntry("peer", peer);
    }
    KeyStore ts = KeyStore.getInstance("PKCS12");
    ts.load(null, null);
    ts.setCertificateEntry("ca", pki.certificate());
    Merlin m = new Merlin();
    m.setKeyStore(ks);
    m.setTrustStore(ts);
    // as Ferry does: the PKCS#12 key decrypted once, not per message
    m.setEnablePrivateKeyCaching(true);
    return m;
  }

  /**
   * CXF's echo service for {@code address} (MTOM on or off), ready for interceptors to be added
   * before {@code create()} publishes it on CXF's Jetty transport.
   */
  public static org.apache.cxf.jaxws.JaxWsServerFactoryBean echoService(
      org.apache.cxf.Bus bus, java.net.URI address, boolean mtom) {
    org.apache.cxf.jaxws.JaxWsServerFactoryBean factory =
        new org.apache.cxf.jaxws.JaxWsServerFactoryBean();
    factory.setBus(bus);
    factory.setServiceBean(new EchoPortImpl());
    factory.setAddress(address.toString());
    factory.setWsdlLocation(CxfPeer.wsdlUrl());
    factory.setServiceName(EchoContract.SERVICE);
    factory.setEndpointName(EchoContract.PORT);
    factory.getProperties(true).put("mtom-enabled", mtom);
    return factory;
  }

  /** Passwords: {@code userPassword} for UsernameTokens, the store's for keys. */
  public static CallbackHandler passwords(String userPassword) {
    return callbacks -> {
      for (Callback c : callbacks) {
        WSPasswordCallback pc = (WSPasswordCallback) c;
        pc.setPassword(pc.getUsage() == WSPasswordCallback.USERNAME_TOKEN ? userPassword
            : new String(STORE));
      }
    };
  }

  /**
   * Outbound settings for {@code actions} (such as {@code UsernameToken Timestamp Signature
   * Encrypt}): user {@code alice}, digest passwords, RSA-SHA256 over SHA-256 digests of the
   * Timestamp and Body with the certificate itself in the message, AES-256-GCM for the peer.
   */
  public static Map<String, Object> out(String actions, Merlin crypto, String userPassword) {
    Map<String, Object> p = new HashMap<>();
    p.put(ConfigurationConstants.ACTION, actions);
    p.put(ConfigurationConstants.USER, "alice");
    p.put(ConfigurationConstants.PASSWORD_TYPE, "PasswordDigest");
    p.put(ConfigurationConstants.PW_CALLBACK_REF, passwords(userPassword));
    p.put(ConfigurationConstants.SIGNATURE_USER, OWN);
    p.put(ConfigurationConstants.SIG_PROP_REF_ID, "crypto");
    p.put("crypto", crypto);
    p.put(ConfigurationConstants.SIG_KEY_ID, "DirectReference");
    p.put(ConfigurationConstants.SIG_ALGO, RSA_SHA256);
    p.put(ConfigurationConstants.SIG_DIGEST_ALGO, SHA256);
    p.put(ConfigurationConstants.SIGNATURE_PARTS, "{Element}{" + WSU + "}Timestamp;{Element}{"
        + SOAP11 + "}Body");
    p.put(ConfigurationConstants.ENCRYPTION_USER, "peer");
    p.put(ConfigurationConstants.ENC_PROP_REF_ID, "crypto");
    p.put(ConfigurationConstants.ENC_SYM_ALGO, AES256_GCM);
    p.put(ConfigurationConstants.ENCRYPTION_PARTS, "{Content}{" + SOAP11 + "}Body");
    return p;
  }

  /** Inbound settings requiring {@code actions}, checked and decrypted with {@code crypto}. */
  public static Map<String, Object> in(String actions, Merlin crypto, String userPassword) {
    Map<String, Object> p = new HashMap<>();
    p.put(ConfigurationConstants.ACTION, actions);
    p.put(ConfigurationConstants.PW_CALLBACK_REF, passwords(userPassword));
    p.put(ConfigurationConstants.SIG_VER_PROP_REF_ID, "crypto");
    p.put(ConfigurationConstants.DEC_PROP_REF_ID, "crypto");
    p.put("crypto", crypto);
    return p;
  }
}
