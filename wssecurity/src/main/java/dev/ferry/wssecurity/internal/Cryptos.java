package dev.ferry.wssecurity.internal;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertStore;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.util.List;
import org.apache.wss4j.common.crypto.Merlin;

/**
 * WSS4J's {@link Merlin} crypto over key stores made in memory: this node's key (to sign and
 * decrypt), the certificates signers must chain to (and CRLs), or a recipient's certificate.
 */
public final class Cryptos {
  /** The alias of this node's key in its key store. */
  public static final String OWN = "ferry";
  /** The alias of the recipient's certificate. */
  public static final String RECIPIENT = "recipient";
  /** The password of the in-memory key store (it never leaves the process). */
  static final char[] STORE_PASSWORD = "ferry-in-memory".toCharArray();

  private Cryptos() {}

  /** A crypto holding {@code entry} under {@link #OWN}. */
  public static Merlin own(KeyStore.PrivateKeyEntry entry) throws IOException {
    KeyStore ks = empty();
    try {
      ks.setKeyEntry(OWN, entry.getPrivateKey(), STORE_PASSWORD, entry.getCertificateChain());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot hold the key: " + e.getMessage(), e);
    }
    Merlin m = new Merlin();
    m.setKeyStore(ks);
    // a PKCS#12 key entry is encrypted (PBKDF2, 10,000 rounds): decrypted once, not per message
    m.setEnablePrivateKeyCaching(true);
    return m;
  }

  /**
   * A crypto trusting {@code anchors} and the {@code peer}'s own certificate (null: none), and
   * refusing what {@code crls} revoke.
   */
  public static Merlin trusting(List<X509Certificate> anchors, X509Certificate peer,
      List<X509CRL> crls) throws IOException {
    KeyStore ts = empty();
    try {
      for (int i = 0; i < anchors.size(); i++) {
        ts.setCertificateEntry("anchor-" + i, anchors.get(i));
      }
      if (peer != null) {
        ts.setCertificateEntry(RECIPIENT, peer);
      }
      Merlin m = new Merlin();
      m.setTrustStore(ts);
      if (!crls.isEmpty()) {
        m.setCRLCertStore(CertStore.getInstance("Collection",
            new CollectionCertStoreParameters(crls)));
      }
      return m;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot hold the trusted certificates: " + e.getMessage(), e);
    }
  }

  /** A crypto holding {@code recipient}'s certificate under {@link #RECIPIENT}. */
  public static Merlin recipient(X509Certificate recipient) throws IOException {
    KeyStore ks = empty();
    try {
      ks.setCertificateEntry(RECIPIENT, recipient);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot hold the recipient's certificate: " + e.getMessage(), e);
    }
    Merlin m = new Merlin();
    m.setKeyStore(ks);
    return m;
  }

  private static KeyStore empty() throws IOException {
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      return ks;
    } catch (GeneralSecurityException e) {
      throw new IOException("the JDK lacks PKCS#12: " + e.getMessage(), e);
    }
  }
}
