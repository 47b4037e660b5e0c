package dev.ferry.security.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Reads PEM files (RFC 7468): certificates, CRLs and private keys, the last as PKCS#8 ({@code
 * PRIVATE KEY}), encrypted PKCS#8 ({@code ENCRYPTED PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE
 * KEY}) or SEC1 ({@code EC PRIVATE KEY}); the traditional forms are wrapped into PKCS#8 for the
 * JDK's key factories. Errors name the file and the line of the block.
 */
public final class Pem {
  private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448",
      "RSASSA-PSS", "XDH"};
  /** AlgorithmIdentifier of rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters. */
  private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48,
      (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};
  /** The OID id-ecPublicKey (1.2.840.10045.2.1), tag and length included. */
  private static final byte[] EC_PUBLIC_KEY = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48,
      (byte) 0xce, 0x3d, 0x02, 0x01};

  private Pem() {}

  /** One block: its label ({@code CERTIFICATE}), its decoded bytes, the line it begins on. */
  public record Block(String label, byte[] der, int line) {}

  /** Reads every block of {@code file}; text outside blocks is ignored, as OpenSSL does. */
  public static List<Block> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
    List<Block> blocks = new ArrayList<>();
    String label = null;
    int begin = 0;
    StringBuilder base64 = new StringBuilder();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (label == null && line.startsWith("-----BEGIN ") && line.endsWith("-----")) {
        label = line.substring(11, line.length() - 5);
        begin = i + 1;
        base64.setLength(0);
      } else if (label != null && line.equals("-----END " + label + "-----")) {
        blocks.add(new Block(label, decode(file, begin, label, base64), begin));
        label = null;
      } else if (label != null && !line.contains(":")) { // RFC 1421 headers are skipped
        base64.append(line);
      }
    }
    if (label != null) {
      throw new IOException(file + ": line " + begin + ": BEGIN " + label + " has no END line");
    }
    return blocks;
  }

  private static byte[] decode(Path file, int line, String label, CharSequence base64)
      throws IOException {
    try {
      return Base64.getDecoder().decode(base64.toString());
    } catch (IllegalArgumentException e) {
      throw new IOException(file + ": line " + line + ": the " + label
          + " block is not valid base64 (" + e.getMessage() + ")", e);
    }
  }

  /** The certificates of {@code file}, in order; at least one. */
  public static List<X509Certificate> certificates(Path file) throws IOException {
    List<X509Certificate> out = new ArrayList<>();
    for (Block b : read(file)) {
      if (b.label().equals("CERTIFICATE") || b.label().equals("TRUSTED CERTIFICATE")) {
        out.add(certificate(file, b));
      }
    }
    if (out.isEmpty()) {
      throw new IOException(file + ": no CERTIFICATE block");
    }
    return out;
  }

  private static X509Certificate certificate(Path file, Block b) throws IOException {
    try {
      return (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(b.der()));
    } catch (CertificateException e) {
      throw new IOException(file + ": line " + b.line() + ": not a valid X.509 certificate: "
          + e.getMessage(), e);
    }
  }

  /** The CRLs of {@code file}. */
  public static List<X509CRL> crls(Path file) throws IOException {
    List<X509CRL> out = new ArrayList<>();
    for (Block b : read(file)) {
      if (b.label().equals("X509 CRL")) {
        try {
          out.add((X509CRL) CertificateFactory.getInstance("X.509")
              .generateCRL(new ByteArrayInputStream(b.der())));
        } catch (GeneralSecurityException e) {
          throw new IOException(file + ": line " + b.line() + ": not a valid CRL: "
              + e.getMessage(), e);
        }
      }
    }
    return out;
  }

  /**
   * The one private key of {@code file}; {@code password} decrypts an {@code ENCRYPTED PRIVATE
   * KEY} and is ignored otherwise.
   */
  public static PrivateKey privateKey(Path file, char[] password) throws IOException {
    PrivateKey key = null;
    for (Block b : read(file)) {
      byte[] pkcs8 = switch (b.label()) {
        case "PRIVATE KEY" -> b.der();
        case "ENCRYPTED PRIVATE KEY" -> decrypt(file, b, password);
        case "RSA PRIVATE KEY" -> sequence(concat(new byte[] {0x02, 0x01, 0x00}, RSA_ALGORITHM,
            tlv(0x04, b.der())));
        case "EC PRIVATE KEY" -> ecToPkcs8(file, b);
        default -> null;
      };
      if (pkcs8 == null) {
        continue;
      }
      if (key != null) {
        throw new IOException(file + ": line " + b.line() + ": a second private key (expected"
            + " one per file)");
      }
      key = toKey(file, b, pkcs8);
    }
    if (key == null) {
      throw new IOException(file + ": no private key block (expected PRIVATE KEY, ENCRYPTED"
          + " PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)");
    }
    return key;
  }

  private static byte[] decrypt(Path file, Block b, char[] password) throws IOException {
    if (password == null) {
      throw new IOException(file + ": line " + b.line() + ": the key is encrypted and no"
          + " password was given");
    }
    try {
      EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(b.der());
      String alg = info.getAlgParameters() != null ? info.getAlgParameters().toString()
          : info.getAlgName();
      Cipher cipher = Cipher.getInstance(alg);
      cipher.init(Cipher.DECRYPT_MODE, SecretKeyFactory.getInstance(alg)
          .generateSecret(new PBEKeySpec(password)), info.getAlgParameters());
      return info.getKeySpec(cipher).getEncoded();
    } catch (GeneralSecurityException | IOException e) {
      throw new IOException(file + ": line " + b.line() + ": cannot decrypt the key (wrong"
          + " password, or an encryption the JDK lacks): " + e.getMessage(), e);
    }
  }

  private static PrivateKey toKey(Path file, Block b, byte[] pkcs8) throws IOException {
    for (String alg : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
      } catch (GeneralSecurityException e) {
        // not this algorithm: try the next
      }
    }
    throw new IOException(file + ": line " + b.line() + ": the " + b.label()
        + " block is not a key of a known algorithm (RSA, EC, EdDSA)");
  }

  /**
   * SEC1 {@code ECPrivateKey ::= SEQUENCE { version, privateKey, [0] parameters, [1] publicKey
   * }} wrapped as PKCS#8, the curve taken from its parameters.
   */
  private static byte[] ecToPkcs8(Path file, Block b) throws IOException {
    Der in = new Der(b.der(), 0, b.der().length);
    Der seq = in.next(0x30);
    byte[] curve = null;
    while (seq != null && seq.hasMore()) {
      int tag = seq.peekTag();
      Der value = seq.next(tag);
      if (tag == 0xa0) {
        curve = value.remaining();
      }
    }
    if (curve == null) {
      throw new IOException(file + ": line " + b.line() + ": the EC PRIVATE KEY names no curve");
    }
    return sequence(concat(new byte[] {0x02, 0x01, 0x00}, sequence(concat(EC_PUBLIC_KEY, curve)),
        tlv(0x04, b.der())));
  }

  private static byte[] sequence(byte[] content) {
    return tlv(0x30, content);
  }

  private static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      int bytes = (32 - Integer.numberOfLeadingZeros(n) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(n >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** Just enough DER to walk a SEC1 key: definite lengths, one level at a time. */
  private static final class Der {
    private final byte[] b;
    private int at;
    private final int end;

    Der(byte[] b, int start, int end) {
      this.b = b;
      this.at = start;
      this.end = end;
    }

    boolean hasMore() {
      return at < end;
    }

    int peekTag() throws IOException {
      require(1);
      return b[at] & 0xff;
    }

    /** The content of the next element, which must have {@code tag}. */
    Der next(int tag) throws IOException {
      require(2);
      if ((b[at] & 0xff) != tag) {
        throw new IOException("malformed key: expected tag 0x" + Integer.toHexString(tag)
            + " at byte " + at);
      }
      int len = b[at + 1] & 0xff;
      at += 2;
      if (len >= 0x80) {
        int n = len & 0x7f;
        if (n == 0 || n > 3) {
          throw new IOException("malformed key: length of " + n + " octets at byte " + at);
        }
        require(n);
        len = 0;
        for (int i = 0; i < n; i++) {
          len = len << 8 | (b[at++] & 0xff);
        }
      }
      require(len);
      Der d = new Der(b, at, at + len);
      at += len;
      return d;
    }

    byte[] remaining() {
      return java.util.Arrays.copyOfRange(b, at, end);
    }

    private void require(int n) throws IOException {
      if (end - at < n) {
        throw new IOException("malformed key: truncated at byte " + at);
      }
    }
  }
}
