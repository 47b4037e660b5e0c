package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Hashes passwords in a {@link PasswordScheme} and checks a bind's password against stored
 * {@code userPassword} values in every form {@link PasswordScheme} lists. Comparisons take the
 * same time whatever the bytes, and a bind for a DN without a password is checked against a
 * dummy hash of the same scheme ({@link #checkAgainstNothing}), so that an unknown user costs
 * what a wrong password costs.
 *
 * <p>At most as many hashes as there are processors run at once: callers guessing passwords
 * cannot take every core; the others wait.
 */
final class Passwords {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder BASE64 = Base64.getEncoder();
  private static final Semaphore HASHING =
      new Semaphore(Runtime.getRuntime().availableProcessors());

  private final PasswordScheme scheme;
  private final ByteString dummy;

  Passwords(PasswordScheme scheme) {
    this.scheme = scheme;
    this.dummy = hash(ByteString.encodeUtf8("no such user"));
  }

  PasswordScheme scheme() {
    return scheme;
  }

  /** Returns {@code password} hashed in this server's scheme, with a fresh salt. */
  ByteString hash(ByteString password) {
    byte[] pw = password.toByteArray();
    String text = switch (scheme.name) {
      case "SSHA256" -> salted("SHA-256", pw, salt(8));
      case "SSHA512" -> salted("SHA-512", pw, salt(8));
      default -> {
        byte[] salt = salt(16);
        byte[] key = pbkdf2("HmacSHA256", pw, salt, scheme.iterations, 32);
        yield scheme.iterations + "$" + ab64(salt) + "$" + ab64(key);
      }
    };
    Arrays.fill(pw, (byte) 0);
    return ByteString.encodeUtf8("{" + scheme.name + "}" + text);
  }

  /**
   * Returns what to store for a {@code userPassword} value a client or an LDIF gives: a value
   * hashed in a scheme this server checks as it is; {@code {CLEARTEXT}secret} and any other
   * value as the hash of the password.
   */
  ByteString stored(ByteString value) {
    if (isHashed(value)) {
      return value;
    }
    String p = prefix(value);
    return p.regionMatches(true, 0, "{CLEARTEXT}", 0, 11) ? hash(value.subSequence(11))
        : hash(value);
  }

  /** Returns true if {@code value} is hashed in a scheme this server checks. */
  static boolean isHashed(ByteString value) {
    String s = prefix(value);
    int close = s.indexOf('}');
    return s.startsWith("{") && close > 1 && isKnown(s.substring(1, close)
        .toUpperCase(Locale.ROOT));
  }

  private static String prefix(ByteString value) {
    int n = Math.min(value.size(), 24);
    return value.subSequence(0, n).string(StandardCharsets.ISO_8859_1);
  }

  private static boolean isKnown(String scheme) {
    return switch (scheme) {
      case "SHA", "SSHA", "SHA256", "SSHA256", "SHA384", "SSHA384", "SHA512",
          "SSHA512", "PBKDF2", "PBKDF2-SHA1", "PBKDF2-SHA256", "PBKDF2-SHA512" -> true;
      default -> false;
    };
  }

  /** Returns true if {@code password} matches any of {@code stored}. */
  boolean matches(ByteString password, ByteString[] stored) {
    boolean any = false;
    for (ByteString s : stored) {
      any |= matches(password.toByteArray(), s.toByteArray());
    }
    return any;
  }

  /** Spends on {@code password} what checking it against a stored hash would; never matches. */
  void checkAgainstNothing(ByteString password) {
    matches(password, new ByteString[] {dummy});
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
      case "SHA", "SSHA" -> salted(password, encoded, "SHA-1", 20);
      case "SHA256", "SSHA256" -> salted(password, encoded, "SHA-256", 32);
      case "SHA384", "SSHA384" -> salted(password, encoded, "SHA-384", 48);
      case "SHA512", "SSHA512" -> salted(password, encoded, "SHA-512", 64);
      case "PBKDF2", "PBKDF2-SHA1" -> pbkdf2(password, encoded, "HmacSHA1");
      case "PBKDF2-SHA256" -> pbkdf2(password, encoded, "HmacSHA256");
      case "PBKDF2-SHA512" -> pbkdf2(password, encoded, "HmacSHA512");
      default -> false; // a scheme this server cannot check never matches
    };
  }

  // --- salted digests: {SSHA256}base64(digest(password salt) salt) ------------------------------

  private static boolean salted(byte[] password, String encoded, String algorithm,
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

  private static String salted(String algorithm, byte[] password, byte[] salt) {
    byte[] digest = digest(algorithm, password, salt);
    byte[] raw = Arrays.copyOf(digest, digest.length + salt.length);
    System.arraycopy(salt, 0, raw, digest.length, salt.length);
    return BASE64.encodeToString(raw);
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

  // --- PBKDF2: {PBKDF2-SHA256}<iterations>$<ab64 salt>$<ab64 key> ------------------------------

  /** Longest salt read from a stored value, and most iterations honoured (a cost bound). */
  private static final int MAX_SALT_BYTES = 64;
  private static final int MAX_ITERATIONS = 10_000_000;

  private static boolean pbkdf2(byte[] password, String encoded, String hmac) {
    String[] parts = encoded.strip().split("\\$", -1);
    if (parts.length != 3) {
      return false;
    }
    int iterations;
    byte[] salt;
    byte[] key;
    try {
      iterations = Integer.parseInt(parts[0]);
      salt = fromAb64(parts[1]);
      key = fromAb64(parts[2]);
    } catch (IllegalArgumentException e) {
      return false;
    }
    if (iterations < 1 || iterations > MAX_ITERATIONS || salt.length > MAX_SALT_BYTES
        || key.length == 0 || key.length > 64) {
      return false;
    }
    return MessageDigest.isEqual(key, pbkdf2(hmac, password, salt, iterations, key.length));
  }

  /** PBKDF2 (RFC 8018 section 5.2) over the JDK's HMAC: the password as bytes, not chars. */
  static byte[] pbkdf2(String hmac, byte[] password, byte[] salt, int iterations,
      int keyBytes) {
    HASHING.acquireUninterruptibly();
    try {
      Mac mac = Mac.getInstance(hmac);
      // An empty password is not a valid HMAC key for the JDK; a zero byte keys alike.
      mac.init(new SecretKeySpec(password.length == 0 ? new byte[1] : password, hmac));
      int blockBytes = mac.getMacLength();
      byte[] out = new byte[keyBytes];
      byte[] u = new byte[blockBytes];
      byte[] t = new byte[blockBytes];
      for (int block = 1, at = 0; at < keyBytes; block++, at += blockBytes) {
        mac.update(salt);
        mac.update(new byte[] {(byte) (block >>> 24), (byte) (block >>> 16),
            (byte) (block >>> 8), (byte) block});
        mac.doFinal(u, 0);
        System.arraycopy(u, 0, t, 0, blockBytes);
        for (int i = 1; i < iterations; i++) {
          mac.update(u);
          mac.doFinal(u, 0);
          for (int j = 0; j < blockBytes; j++) {
            t[j] ^= u[j];
          }
        }
        System.arraycopy(t, 0, out, at, Math.min(blockBytes, keyBytes - at));
      }
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(hmac + " is part of every JDK", e);
    } finally {
      HASHING.release();
    }
  }

  /** Base64 as passlib and pw-pbkdf2 write it: {@code .} for {@code +}, no padding. */
  static String ab64(byte[] bytes) {
    return Base64.getEncoder().withoutPadding().encodeToString(bytes).replace('+', '.');
  }

  static byte[] fromAb64(String text) {
    return Base64.getDecoder().decode(text.replace('.', '+'));
  }

  private static byte[] salt(int bytes) {
    byte[] salt = new byte[bytes];
    RANDOM.nextBytes(salt);
    return salt;
  }
}
