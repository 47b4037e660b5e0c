package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

/**
 * Checks a simple bind's password against {@code userPassword} values: clear text, or the
 * hashed forms OpenLDAP's {@code slappasswd} writes ({@code {SHA}}, {@code {SSHA}}, and the
 * {@code {SHA256}}/{@code {SSHA256}}, {@code {SHA512}}/{@code {SSHA512}} of its pw-sha2 module):
 * {@code {SSHA}base64(sha1(password + salt) + salt)}. Comparisons take the same time whatever
 * the bytes.
 */
final class Passwords {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Passwords() {}

  /** Returns true if {@code password} matches any of {@code stored}. */
  static boolean matches(ByteString password, ByteString[] stored) {
    boolean any = false;
    for (ByteString s : stored) {
      any |= matches(password.toByteArray(), s.toByteArray());
    }
    return any;
  }

  private static boolean matches(byte[] password, byte[] stored) {
    String text = new String(stored, StandardCharsets.ISO_8859_1);
    if (!text.startsWith("{")) {
      return MessageDigest.isEqual(password, stored);
    }
    int close = text.indexOf('}');
    if (close < 0) {
      return false;
    }
    String scheme = text.substring(1, close).toUpperCase(Locale.ROOT);
    String encoded = text.substring(close + 1);
    return switch (scheme) {
      case "CLEARTEXT" -> MessageDigest.isEqual(password,
          encoded.getBytes(StandardCharsets.ISO_8859_1));
      case "SHA", "SSHA" -> hashed(password, encoded, "SHA-1", 20);
      case "SHA256", "SSHA256" -> hashed(password, encoded, "SHA-256", 32);
      case "SHA384", "SSHA384" -> hashed(password, encoded, "SHA-384", 48);
      case "SHA512", "SSHA512" -> hashed(password, encoded, "SHA-512", 64);
      default -> false; // a scheme this server cannot check never matches
    };
  }

  private static boolean hashed(byte[] password, String encoded, String algorithm,
      int digestBytes) {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(encoded.strip());
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (raw.length < digestBytes) {
      return false;
    }
    byte[] salt = Arrays.copyOfRange(raw, digestBytes, raw.length);
    byte[] expected = Arrays.copyOf(raw, digestBytes);
    return MessageDigest.isEqual(expected, digest(algorithm, password, salt));
  }

  private static byte[] digest(String algorithm, byte[] password, byte[] salt) {
    try {
      MessageDigest md = MessageDigest.getInstance(algorithm);
      md.update(password);
      md.update(salt);
      return md.digest();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(algorithm + " is part of every JDK", e);
    }
  }

  /** Returns {@code {SSHA256}} of {@code password} with a fresh 8-byte salt. */
  static ByteString hash(ByteString password) {
    byte[] salt = new byte[8];
    RANDOM.nextBytes(salt);
    byte[] digest = digest("SHA-256", password.toByteArray(), salt);
    byte[] raw = Arrays.copyOf(digest, digest.length + salt.length);
    System.arraycopy(salt, 0, raw, digest.length, salt.length);
    return ByteString.encodeUtf8("{SSHA256}" + Base64.getEncoder().encodeToString(raw));
  }
}
