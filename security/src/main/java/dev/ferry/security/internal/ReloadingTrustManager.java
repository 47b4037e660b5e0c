package dev.ferry.security.internal;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The JDK's PKIX trust manager over a set of trusted certificates that is read again when its
 * files change; each check uses the newest. Host name checks stay the JDK's: a client that sets
 * the endpoint identification algorithm gets them through the engine or socket passed on.
 */
public final class ReloadingTrustManager extends X509ExtendedTrustManager {
  private final Reloading<X509ExtendedTrustManager> source;

  public ReloadingTrustManager(Reloading<X509ExtendedTrustManager> source) {
    this.source = source;
  }

  /** The JDK's PKIX trust manager over {@code anchors} (null: the JDK's cacerts). */
  public static X509ExtendedTrustManager pkix(List<X509Certificate> anchors)
      throws GeneralSecurityException, java.io.IOException {
    TrustManagerFactory f = TrustManagerFactory.getInstance("PKIX");
    if (anchors == null) {
      f.init((KeyStore) null);
    } else {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      for (int i = 0; i < anchors.size(); i++) {
        ks.setCertificateEntry("ca-" + i, anchors.get(i));
      }
      f.init(ks);
    }
    for (TrustManager t : f.getTrustManagers()) {
      if (t instanceof X509ExtendedTrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("the JDK offers no X.509 trust manager");
  }

  private X509ExtendedTrustManager now() {
    return source.get();
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    now().checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    now().checkServerTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    now().checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    now().checkServerTrusted(chain, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    now().checkClientTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    now().checkServerTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return now().getAcceptedIssuers();
  }
}
