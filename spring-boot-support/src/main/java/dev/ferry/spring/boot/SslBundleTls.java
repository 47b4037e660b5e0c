package dev.ferry.spring.boot;

import dev.ferry.security.ClientAuth;
import dev.ferry.security.KeyMaterial;
import dev.ferry.security.TlsSettings;
import dev.ferry.security.TrustMaterial;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundleKey;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslStoreBundle;

/**
 * Ferry's {@link TlsSettings} from a Spring Boot SSL bundle ({@code spring.ssl.bundle.pem.*} or
 * {@code spring.ssl.bundle.jks.*}): the bundle's key and chain (its key alias, else the store's
 * only key entry) as this side's identity, and the certificates of its trust store as the
 * trust (the JDK's if it has none). The bundle's stores are read once, when the settings are
 * made; TLS 1.3 and 1.2 as Ferry always speaks them.
 *
 * <pre>{@code
 * TlsSettings tls = SslBundleTls.of(sslBundles, "server", ClientAuth.NONE);
 * }</pre>
 */
public final class SslBundleTls {
  private SslBundleTls() {}

  /**
   * Returns the settings of the bundle {@code name}.
   *
   * @param clientAuth whether a listener asks for client certificates (a client's settings
   *     take {@link ClientAuth#NONE})
   * @throws IllegalArgumentException naming the bundle, if there is none of that name, its key
   *     cannot be read, or client certificates are asked for without a trust store
   */
  public static TlsSettings of(SslBundles bundles, String name, ClientAuth clientAuth) {
    SslBundle bundle;
    try {
      bundle = bundles.getBundle(name);
    } catch (NoSuchSslBundleException e) {
      throw new IllegalArgumentException("there is no SSL bundle \"" + name + "\" (configure"
          + " it under spring.ssl.bundle.pem." + name + " or spring.ssl.bundle.jks." + name + ")",
          e);
    }
    try {
      TlsSettings.Builder b = TlsSettings.builder().clientAuth(clientAuth);
      SslStoreBundle stores = bundle.getStores();
      KeyMaterial identity = identity(stores, bundle.getKey());
      if (identity != null) {
        b.identity(identity);
      }
      List<X509Certificate> anchors = anchors(stores.getTrustStore());
      if (!anchors.isEmpty()) {
        b.trust(TrustMaterial.of(anchors.toArray(X509Certificate[]::new)));
      }
      return b.build();
    } catch (GeneralSecurityException | IOException | IllegalStateException e) {
      throw new IllegalArgumentException("the SSL bundle \"" + name + "\" cannot be used: "
          + e.getMessage(), e);
    }
  }

  /** The key entry of the bundle's key alias, else of the store's only key; null if none. */
  private static KeyMaterial identity(SslStoreBundle stores, SslBundleKey key)
      throws GeneralSecurityException {
    KeyStore store = stores.getKeyStore();
    if (store == null) {
      return null;
    }
    String alias = key.getAlias() != null ? key.getAlias() : onlyKeyAlias(store);
    String password = key.getPassword() != null ? key.getPassword()
        : stores.getKeyStorePassword();
    char[] chars = password == null ? new char[0] : password.toCharArray();
    if (!(store.getKey(alias, chars) instanceof PrivateKey privateKey)) {
      throw new GeneralSecurityException("its key store has no private key under the alias \""
          + alias + "\"");
    }
    Certificate[] chain = store.getCertificateChain(alias);
    X509Certificate[] x509 = new X509Certificate[chain.length];
    for (int i = 0; i < chain.length; i++) {
      x509[i] = (X509Certificate) chain[i];
    }
    return KeyMaterial.of(privateKey, x509);
  }

  private static String onlyKeyAlias(KeyStore store) throws GeneralSecurityException {
    List<String> keys = new ArrayList<>();
    for (String alias : Collections.list(store.aliases())) {
      if (store.isKeyEntry(alias)) {
        keys.add(alias);
      }
    }
    if (keys.size() != 1) {
      throw new GeneralSecurityException("its key store holds " + keys.size() + " keys "
          + keys + ": name one with the bundle's key.alias");
    }
    return keys.get(0);
  }

  private static List<X509Certificate> anchors(KeyStore trust) throws GeneralSecurityException {
    List<X509Certificate> anchors = new ArrayList<>();
    if (trust != null) {
      for (String alias : Collections.list(trust.aliases())) {
        if (trust.getCertificate(alias) instanceof X509Certificate c) {
          anchors.add(c);
        }
      }
    }
    return anchors;
  }
}
