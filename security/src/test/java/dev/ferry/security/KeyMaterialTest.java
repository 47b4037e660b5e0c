package dev.ferry.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.testkit.TestPki;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyMaterialTest {
  private static final char[] PASSWORD = "s3cret".toCharArray();
  private static TestPki pki;
  private static TestPki.Credential rsa;
  private static TestPki.Credential ec;

  @TempDir
  Path dir;

  @BeforeAll
  static void keys() {
    pki = TestPki.create("CN=Key Test CA");
    rsa = pki.issue("CN=rsa").keyType(TestPki.KeyType.RSA).make();
    ec = pki.issue("CN=ec").make();
  }

  @Test
  void readsEveryPemKeyForm() throws IOException {
    for (TestPki.Credential c : new TestPki.Credential[] {rsa, ec}) {
      Path chain = c.writeChainPem(dir.resolve("chain.pem"));
      for (Path key : new Path[] {c.writeKeyPem(dir.resolve("pkcs8.key")),
          c.writeTraditionalKeyPem(dir.resolve("traditional.key"))}) {
        KeyStore.PrivateKeyEntry e = KeyMaterial.pem(chain, key).load();
        assertThat(sameKey(e.getPrivateKey(), c.key())).isTrue();
        assertThat(e.getCertificateChain()).containsExactly(c.chain());
      }
      Path encrypted = c.writeEncryptedKeyPem(dir.resolve("enc.key"), PASSWORD);
      assertThat(sameKey(KeyMaterial.pem(chain, encrypted, PASSWORD).load().getPrivateKey(),
          c.key())).isTrue();
    }
  }

  @Test
  void traditionalKeyFilesAreWhatOpenSslWrites() throws IOException {
    assertThat(Files.readString(rsa.writeTraditionalKeyPem(dir.resolve("r.key"))))
        .startsWith("-----BEGIN RSA PRIVATE KEY-----");
    assertThat(Files.readString(ec.writeTraditionalKeyPem(dir.resolve("e.key"))))
        .startsWith("-----BEGIN EC PRIVATE KEY-----");
  }

  @Test
  void keyAndChainMayShareAFile() throws IOException {
    Path both = TestPki.writePem(dir.resolve("both.pem"), ec.chain()[0], ec.chain()[1]);
    Files.writeString(both, Files.readString(ec.writeKeyPem(dir.resolve("k.pem")))
        + Files.readString(both));
    assertThat(KeyMaterial.pem(both, both).load().getCertificateChain()).hasSize(2);
  }

  @Test
  void readsPkcs12() throws IOException {
    Path p12 = rsa.writePkcs12(dir.resolve("rsa.p12"), "server", PASSWORD);
    KeyStore.PrivateKeyEntry e = KeyMaterial.keyStore(p12, PASSWORD).load();
    assertThat(e.getCertificate()).isEqualTo(rsa.certificate());
    assertThat(KeyMaterial.keyStore(p12, PASSWORD, "server").load().getPrivateKey()
        .getEncoded()).isEqualTo(rsa.key().getEncoded());
    assertThatThrownBy(() -> KeyMaterial.keyStore(p12, PASSWORD, "other").load())
        .hasMessageContaining("no private key entry called other");
    assertThatThrownBy(() -> KeyMaterial.keyStore(p12, "wrong".toCharArray()).load())
        .hasMessageContaining("rsa.p12").hasMessageContaining("wrong password");
  }

  @Test
  void errorsNameTheFileAndLine() throws IOException {
    Path chain = ec.writeChainPem(dir.resolve("chain.pem"));
    Path encrypted = ec.writeEncryptedKeyPem(dir.resolve("enc.key"), PASSWORD);
    assertThatThrownBy(() -> KeyMaterial.pem(chain, encrypted).load())
        .hasMessageContaining("enc.key: line 1: the key is encrypted and no password");
    assertThatThrownBy(() -> KeyMaterial.pem(chain, encrypted, "nope".toCharArray()).load())
        .hasMessageContaining("cannot decrypt the key");
    Path noEnd = Files.writeString(dir.resolve("cut.pem"),
        "junk\n-----BEGIN CERTIFICATE-----\nMIIB\n");
    assertThatThrownBy(() -> KeyMaterial.pem(noEnd, encrypted).load())
        .hasMessageContaining("cut.pem: line 2: BEGIN CERTIFICATE has no END line");
    Path badBase64 = Files.writeString(dir.resolve("bad.pem"),
        "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n");
    assertThatThrownBy(() -> KeyMaterial.pem(badBase64, encrypted).load())
        .hasMessageContaining("bad.pem: line 1: the CERTIFICATE block is not valid base64");
    Path rsaKey = rsa.writeKeyPem(dir.resolve("rsa.key"));
    assertThatThrownBy(() -> KeyMaterial.pem(chain, rsaKey).load())
        .hasMessageContaining("the key is RSA but the first certificate's is EC");
    Path otherRsa = pki.issue("CN=other").keyType(TestPki.KeyType.RSA).make()
        .writeChainPem(dir.resolve("other.pem"));
    assertThatThrownBy(() -> KeyMaterial.pem(otherRsa, rsaKey).load())
        .hasMessageContaining("the key does not belong to the first certificate (CN=other)");
    assertThatThrownBy(() -> KeyMaterial.pem(chain, chain).load())
        .hasMessageContaining("chain.pem: no private key block");
    assertThatThrownBy(() -> KeyMaterial.pem(rsaKey, rsaKey).load())
        .hasMessageContaining("rsa.key: no CERTIFICATE block");
  }

  @Test
  void trustReadsPemAndStores() throws Exception {
    Path ca = TestPki.writePem(dir.resolve("ca.pem"), pki.certificate());
    assertThat(TrustMaterial.pem(ca).load()).containsExactly(pki.certificate());
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    ks.setCertificateEntry("ca", pki.certificate());
    Path store = dir.resolve("trust.p12");
    try (var out = Files.newOutputStream(store)) {
      ks.store(out, PASSWORD);
    }
    assertThat(TrustMaterial.keyStore(store, PASSWORD).load()).containsExactly(pki.certificate());
    assertThat(TrustMaterial.jdkDefault().load()).isNull();
  }

  /** Whether two keys are one (encodings differ by where a curve is named). */
  static boolean sameKey(java.security.PrivateKey a, java.security.PrivateKey b) {
    if (a instanceof java.security.interfaces.ECPrivateKey x
        && b instanceof java.security.interfaces.ECPrivateKey y) {
      return x.getS().equals(y.getS());
    }
    return a instanceof java.security.interfaces.RSAPrivateKey x
        && b instanceof java.security.interfaces.RSAPrivateKey y
        && x.getPrivateExponent().equals(y.getPrivateExponent());
  }
}
