package dev.ferry.security;

import dev.ferry.security.internal.Pem;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The certificates a peer's chain must lead to: from a PEM file of CA certificates, a PKCS#12
 * or JKS trust store, certificates in memory, or the JDK's own ({@link #jdkDefault()}). Read
 * with {@link #load()}; a {@link TlsSettings} reads them again when their files change.
 */
public final class TrustMaterial {
  private static final TrustMaterial JDK = new TrustMaterial(List.of(), () -> null);

  private final List<Path> files;
  private final Source source;

  @FunctionalInterface
  private interface Source {
    List<X509Certificate> load() throws IOException;
  }

  private TrustMaterial(List<Path> files, Source source) {
    this.files = files;
    this.source = source;
  }

  /** The CA certificates of a PEM file. */
  public static TrustMaterial pem(Path caCertificates) {
    return new TrustMaterial(List.of(caCertificates), () -> Pem.certificates(caCertificates));
  }

  /** The certificate entries of a PKCS#12 or JKS trust store. */
  public static TrustMaterial keyStore(Path file, char[] password) {
    char[] pw = password == null ? null : password.clone();
    return new TrustMaterial(List.of(file), () -> certificates(file, pw));
  }

  /** Certificates in memory. */
  public static TrustMaterial of(X509Certificate... anchors) {
    if (anchors.length == 0) {
      throw new IllegalArgumentException("no trusted certificate given");
    }
    List<X509Certificate> list = List.of(anchors);
    return new TrustMaterial(List.of(), () -> list);
  }

  /** The JDK's trusted certificates (its {@code cacerts}). */
  public static TrustMaterial jdkDefault() {
    return JDK;
  }

  /** The certificate revocation lists of a PEM file ({@code BEGIN X509 CRL} blocks). */
  public static List<java.security.cert.X509CRL> crls(Path pemFile) throws IOException {
    return Pem.crls(pemFile);
  }

  /** Whether this is the JDK's own trust. */
  public boolean isJdkDefault() {
    return this == JDK;
  }

  /** Reads the certificates now; null for {@link #jdkDefault()}. */
  public List<X509Certificate> load() throws IOException {
    return source.load();
  }

  /** The files it is read from (none for certificates in memory or the JDK's). */
  public List<Path> files() {
    return files;
  }

  private static List<X509Certificate> certificates(Path file, char[] password)
      throws IOException {
    KeyStore ks = KeyMaterial.open(file, password);
    try {
      List<X509Certificate> out = new ArrayList<>();
      for (String a : Collections.list(ks.aliases())) {
        Certificate c = ks.getCertificate(a);
        if (ks.isCertificateEntry(a) && c instanceof X509Certificate x) {
          out.add(x);
        }
      }
      if (out.isEmpty()) {
        throw new IOException(file + ": no trusted certificate entry");
      }
      return out;
    } catch (GeneralSecurityException e) {
      throw new IOException(file + ": cannot read the trust store: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return this == JDK ? "TrustMaterial[JDK]" : files.isEmpty() ? "TrustMaterial[in memory]"
        : "TrustMaterial" + files;
  }
}
