package dev.ferry.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PKCS8Generator;
import org.bouncycastle.openssl.jcajce.JcaMiscPEMGenerator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OutputEncryptor;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for tests, made with Bouncy Castle: it issues certificates
 * (RSA or EC keys, host names and addresses, validity, key usages), revokes them in a CRL, and
 * writes keys and certificates as PEM (PKCS#8, PKCS#1, SEC1, encrypted PKCS#8) or PKCS#12.
 *
 * <pre>{@code
 * TestPki pki = TestPki.create("CN=Test CA");
 * TestPki.Credential server = pki.issue("CN=localhost").dns("localhost").ip("127.0.0.1").make();
 * }</pre>
 */
public final class TestPki {
  /** The kind of key a credential gets. */
  public enum KeyType { RSA, EC }

  private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

  private final Credential ca;

  private TestPki(Credential ca) {
    this.ca = ca;
  }

  /** A new self-signed CA with an EC P-256 key, valid from an hour ago for two days. */
  public static TestPki create(String subject) {
    return create(subject, KeyType.EC);
  }

  /** A new self-signed CA with a key of {@code type}. */
  public static TestPki create(String subject, KeyType type) {
    try {
      KeyPair keys = keyPair(type);
      Instant now = Instant.now();
      X500Name name = x500(subject);
      X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(),
          Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(90))),
          name, keys.getPublic());
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      b.addExtension(Extension.keyUsage, true,
          new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      b.addExtension(Extension.subjectKeyIdentifier, false,
          ext.createSubjectKeyIdentifier(keys.getPublic()));
      X509Certificate cert = new JcaX509CertificateConverter()
          .getCertificate(b.build(signer(keys.getPrivate())));
      return new TestPki(new Credential(keys.getPrivate(), new X509Certificate[] {cert}));
    } catch (Exception e) {
      throw new IllegalStateException("cannot make the test CA: " + e, e);
    }
  }

  /** The CA's own key and certificate. */
  public Credential ca() {
    return ca;
  }

  /** The CA's certificate. */
  public X509Certificate certificate() {
    return ca.certificate();
  }

  /** Starts a certificate for {@code subject}, an X.500 name such as {@code CN=client,O=Ferry}. */
  public Request issue(String subject) {
    return new Request(subject);
  }

  /** A CRL of this CA that revokes {@code revoked}, valid from now for a day. */
  public X509CRL crl(X509Certificate... revoked) {
    try {
      Instant now = Instant.now();
      X509v2CRLBuilder b = new X509v2CRLBuilder(
          new X500Name(ca.certificate().getSubjectX500Principal().getName()),
          Date.from(now.minusSeconds(60)));
      b.setNextUpdate(Date.from(now.plus(Duration.ofDays(1))));
      for (X509Certificate c : revoked) {
        b.addCRLEntry(c.getSerialNumber(), Date.from(now.minusSeconds(60)),
            CRLReason.keyCompromise);
      }
      return new JcaX509CRLConverter().getCRL(b.build(signer(ca.key())));
    } catch (Exception e) {
      throw new IllegalStateException("cannot make the CRL: " + e, e);
    }
  }

  /** What a certificate will say; {@link #make()} issues it. */
  public final class Request {
    private final String subject;
    private final List<GeneralName> names = new ArrayList<>();
    private KeyType type = KeyType.EC;
    private Instant notBefore = Instant.now().minus(Duration.ofHours(1));
    private Instant notAfter = Instant.now().plus(Duration.ofDays(90));

    private Request(String subject) {
      this.subject = subject;
    }

    public Request keyType(KeyType type) {
      this.type = type;
      return this;
    }

    /** A DNS name the certificate is for. */
    public Request dns(String name) {
      names.add(new GeneralName(GeneralName.dNSName, name));
      return this;
    }

    /** An IP address the certificate is for. */
    public Request ip(String address) {
      names.add(new GeneralName(GeneralName.iPAddress, address));
      return this;
    }

    public Request validity(Instant from, Instant to) {
      this.notBefore = from;
      this.notAfter = to;
      return this;
    }

    /** Issues the certificate, with a new key. */
    public Credential make() {
      try {
        KeyPair keys = keyPair(type);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(ca.certificate(), serial(),
            Date.from(notBefore), Date.from(notAfter), x500(subject), keys.getPublic());
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
        b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature
            | KeyUsage.keyEncipherment | KeyUsage.dataEncipherment | KeyUsage.keyAgreement));
        b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
            new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
        b.addExtension(Extension.subjectKeyIdentifier, false,
            ext.createSubjectKeyIdentifier(keys.getPublic()));
        b.addExtension(Extension.authorityKeyIdentifier, false,
            ext.createAuthorityKeyIdentifier(ca.certificate()));
        if (!names.isEmpty()) {
          b.addExtension(Extension.subjectAlternativeName, false,
              new GeneralNames(names.toArray(GeneralName[]::new)));
        }
        X509Certificate cert = new JcaX509CertificateConverter()
            .getCertificate(b.build(signer(ca.key())));
        return new Credential(keys.getPrivate(),
            new X509Certificate[] {cert, ca.certificate()});
      } catch (Exception e) {
        throw new IllegalStateException("cannot issue " + subject + ": " + e, e);
      }
    }
  }

  /** A private key and its certificate chain (the certificate first, then the CA's). */
  public record Credential(PrivateKey key, X509Certificate[] chain) {
    public X509Certificate certificate() {
      return chain[0];
    }

    /** Writes the chain as PEM certificates. */
    public Path writeChainPem(Path file) throws IOException {
      return writePem(file, (Object[]) chain);
    }

    /** Writes the key as unencrypted PKCS#8 PEM ({@code BEGIN PRIVATE KEY}). */
    public Path writeKeyPem(Path file) throws IOException {
      return writePem(file, new PKCS8Generator(
          org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(key.getEncoded()), null));
    }

    /**
     * Writes the key in OpenSSL's traditional form: PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) for
     * RSA, SEC1 ({@code BEGIN EC PRIVATE KEY}) for EC.
     */
    public Path writeTraditionalKeyPem(Path file) throws IOException {
      if (key instanceof java.security.interfaces.ECPrivateKey ec) {
        // as OpenSSL writes it: the curve in [0] (Bouncy Castle's generator leaves it out)
        org.bouncycastle.asn1.pkcs.PrivateKeyInfo info =
            org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(key.getEncoded());
        byte[] sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(
            ec.getParams().getOrder().bitLength(), ec.getS(),
            info.getPrivateKeyAlgorithm().getParameters()).getEncoded();
        return writePem(file, new org.bouncycastle.util.io.pem.PemObject("EC PRIVATE KEY", sec1));
      }
      return writePem(file, new JcaMiscPEMGenerator(key));
    }

    /** Writes the key as encrypted PKCS#8 PEM (PBES2, AES-256-CBC). */
    public Path writeEncryptedKeyPem(Path file, char[] password) throws IOException {
      try {
        OutputEncryptor enc = new JceOpenSSLPKCS8EncryptorBuilder(PKCS8Generator.AES_256_CBC)
            .setProvider(new org.bouncycastle.jce.provider.BouncyCastleProvider())
            .setPassword(password).setIterationCount(10_000).build();
        return writePem(file, new PKCS8Generator(
            org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(key.getEncoded()), enc));
      } catch (Exception e) {
        throw new IOException("cannot encrypt the key: " + e, e);
      }
    }

    /** Writes key and chain as a PKCS#12 file under {@code alias}. */
    public Path writePkcs12(Path file, String alias, char[] password) throws IOException {
      try (OutputStream out = Files.newOutputStream(file)) {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry(alias, key, password, chain);
        ks.store(out, password);
        return file;
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot write " + file + ": " + e, e);
      }
    }
  }

  /** Writes PEM objects (certificates, CRLs, key generators) to {@code file}, replacing it. */
  public static Path writePem(Path file, Object... objects) throws IOException {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter w = new JcaPEMWriter(text)) {
      for (Object o : objects) {
        if (o instanceof org.bouncycastle.util.io.pem.PemObjectGenerator g) {
          w.writeObject(g);
        } else {
          w.writeObject(o);
        }
      }
    }
    // written aside and moved, as a deployment would, so a reader never sees half a file
    Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".pem", ".tmp");
    Files.writeString(tmp, text.toString());
    return Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static KeyPair keyPair(KeyType type) throws GeneralSecurityException {
    if (type == KeyType.RSA) {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    }
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"));
    return g.generateKeyPair();
  }

  private static ContentSigner signer(PrivateKey key) throws Exception {
    String alg = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
    return new JcaContentSignerBuilder(alg).build(key);
  }

  /** An RFC 2253 name as the JDK reads it: its first RDN is the most specific (CN=...). */
  private static X500Name x500(String rfc2253) {
    return X500Name.getInstance(new javax.security.auth.x500.X500Principal(rfc2253).getEncoded());
  }

  private static BigInteger serial() {
    return BigInteger.valueOf(SERIALS.incrementAndGet());
  }

}
