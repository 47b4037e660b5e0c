package dev.ferry.security;

import dev.ferry.security.internal.Pem;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A private key and its certificate chain (the certificate first, then its issuers): where to
 * read them from. Read with {@link #load()}; a {@link TlsSettings} reads them again when their
 * files change.
 *
 * <ul>
 *   <li>{@link #pem}: a chain file ({@code BEGIN CERTIFICATE} blocks) and a key file in PKCS#8
 *       ({@code BEGIN PRIVATE KEY}), encrypted PKCS#8, PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) or
 *       SEC1 ({@code BEGIN EC PRIVATE KEY}); the two may be one file.</li>
 *   <li>{@link #keyStore}: a PKCS#12 (or JKS) file, its first key entry or a named one.</li>
 *   <li>{@link #of}: a key and chain in memory.</li>
 * </ul>
 */
public final class KeyMaterial {
  private final List<Path> files;
  private final Source source;

  @FunctionalInterface
  private interface Source {
    KeyStore.PrivateKeyEntry load() throws IOException;
  }

  private KeyMaterial(List<Path> files, Source source) {
    this.files = files;
    this.source = source;
  }

  /** A chain file and a key file (which may be the same file); the key unencrypted. */
  public static KeyMaterial pem(Path certificateChain, Path privateKey) {
    return pem(certificateChain, privateKey, null);
  }

  /** As {@link #pem(Path, Path)}, {@code password} decrypting an encrypted PKCS#8 key. */
  public static KeyMaterial pem(Path certificateChain, Path privateKey, char[] password) {
    char[] pw = password == null ? null : password.clone();
    return new KeyMaterial(List.of(certificateChain, privateKey), () -> {
      List<X509Certificate> chain = Pem.certificates(certificateChain);
      PrivateKey key = Pem.privateKey(privateKey, pw);
      checkPair(key, chain.get(0), privateKey + " and " + certificateChain);
      return new KeyStore.PrivateKeyEntry(key, chain.toArray(Certificate[]::new));
    });
  }

  /** A PKCS#12 or JKS file's first private key entry; {@code password} opens file and key. */
  public static KeyMaterial keyStore(Path file, char[] password) {
    return keyStore(file, password, null);
  }

  /** A PKCS#12 or JKS file's entry {@code alias} (null: the first private key entry). */
  public static KeyMaterial keyStore(Path file, char[] password, String alias) {
    char[] pw = password == null ? new char[0] : password.clone();
    return new KeyMaterial(List.of(file), () -> entry(file, pw, alias));
  }

  /** A key and its chain in memory. */
  public static KeyMaterial of(PrivateKey key, X509Certificate... chain) {
    Objects.requireNonNull(key);
    if (chain.length == 0) {
      throw new IllegalArgumentException("a key needs its certificate");
    }
    KeyStore.PrivateKeyEntry e = new KeyStore.PrivateKeyEntry(key, chain.clone());
    return new KeyMaterial(List.of(), () -> e);
  }

  /** Reads the key and its chain now. */
  public KeyStore.PrivateKeyEntry load() throws IOException {
    return source.load();
  }

  /** The files it is read from (none for material in memory). */
  public List<Path> files() {
    return files;
  }

  private static KeyStore.PrivateKeyEntry entry(Path file, char[] password, String alias)
      throws IOException {
    KeyStore ks = open(file, password);
    try {
      for (String a : alias != null ? List.of(alias) : Collections.list(ks.aliases())) {
        if (ks.isKeyEntry(a)) {
          PrivateKey key = (PrivateKey) ks.getKey(a, password);
          Certificate[] chain = ks.getCertificateChain(a);
          if (key != null && chain != null && chain.length > 0) {
            return new KeyStore.PrivateKeyEntry(key, chain);
          }
        }
      }
    } catch (GeneralSecurityException e) {
      throw new IOException(file + ": cannot read the key (its password differs from the"
          + " store's?): " + e.getMessage(), e);
    }
    throw new IOException(file + ": " + (alias == null ? "no private key entry"
        : "no private key entry called " + alias));
  }

  /** Opens a PKCS#12 or JKS file (the JDK tells which). */
  static KeyStore open(Path file, char[] password) throws IOException {
    try {
      return KeyStore.getInstance(file.toFile(), password);
    } catch (GeneralSecurityException | IOException e) {
      throw new IOException(file + ": cannot read the key store (wrong password, or not"
          + " PKCS#12 or JKS): " + e.getMessage(), e);
    }
  }

  /** Fails unless {@code key} is the private half of {@code cert}'s public key. */
  private static void checkPair(PrivateKey key, X509Certificate cert, String where)
      throws IOException {
    String certAlg = cert.getPublicKey().getAlgorithm();
    if (!certAlg.equals(key.getAlgorithm()) && !(certAlg.startsWith("Ed")
        && key.getAlgorithm().startsWith("Ed"))) {
      throw new IOException(where + ": the key is " + key.getAlgorithm()
          + " but the first certificate's is " + certAlg);
    }
    if (key instanceof java.security.interfaces.RSAPrivateCrtKey rsa
        && cert.getPublicKey() instanceof java.security.interfaces.RSAPublicKey pub
        && !rsa.getModulus().equals(pub.getModulus())) {
      throw new IOException(where + ": the key does not belong to the first certificate ("
          + cert.getSubjectX500Principal() + ")");
    }
  }

  @Override
  public String toString() {
    return files.isEmpty() ? "KeyMaterial[in memory]" : "KeyMaterial" + files;
  }

  /** The chain of {@code e} as X.509 certificates. */
  static X509Certificate[] chain(KeyStore.PrivateKeyEntry e) {
    return Arrays.stream(e.getCertificateChain()).map(X509Certificate.class::cast)
        .toArray(X509Certificate[]::new);
  }
}
