package dev.ferry.security;

import dev.ferry.security.internal.Reloading;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Users and their salted password hashes, one per line, read from a file and read again when it
 * changes:
 *
 * <pre>
 * # user:scheme:iterations:salt:hash (salt and hash in base64)
 * alice:pbkdf2-sha256:600000:3q2+7w...:Zm9v...
 * </pre>
 *
 * <p>The hash is PBKDF2 with HMAC-SHA256 ({@value #DEFAULT_ITERATIONS} iterations by default,
 * OWASP's figure; each line keeps its own), 16 bytes of salt, 32 bytes of hash. {@link #line}
 * makes a line ({@code ferry passwd} on the command line). Checking a password costs one hash,
 * tens of milliseconds on purpose, and no more hashes run at once than there are processors;
 * a password found right is remembered for five minutes (as a
 * SHA-256 of user and password, never the password), so a caller that sends its credentials
 * with every request pays that once. A wrong password is never remembered. An unknown user costs
 * the same hash as a known one, so the time does not tell which users exist.
 */
public final class PasswordFile {
  /** The iterations {@link #hash} uses. */
  public static final int DEFAULT_ITERATIONS = 600_000;
  /** The fewest iterations {@link #line(String, char[], int)} takes. */
  public static final int MIN_ITERATIONS = 10_000;
  private static final String SCHEME = "pbkdf2-sha256";
  private static final int MAX_CACHED = 4096;
  private static final long CACHE_NANOS = Duration.ofMinutes(5).toNanos();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final java.util.concurrent.Semaphore HASHING = new java.util.concurrent.Semaphore(
      Math.max(1, Runtime.getRuntime().availableProcessors()));

  private static final java.util.concurrent.atomic.AtomicLong LOADS =
      new java.util.concurrent.atomic.AtomicLong();

  private record Entry(int iterations, byte[] salt, byte[] hash) {}

  /**
   * The file as loaded once; {@code load} tells loads apart; {@code nobody} is hashed against
   * for an unknown user, with the iterations of the file's users, so that it takes as long as
   * for a known one.
   */
  private record Users(Map<String, Entry> entries, long load, Entry nobody) {}

  private final Reloading<Users> users;
  private final Map<String, Long> remembered = new ConcurrentHashMap<>();

  private PasswordFile(Reloading<Users> users) {
    this.users = users;
  }

  /** Reads {@code file} now, and again at most every 10 s when it changed. */
  public static PasswordFile load(Path file) throws IOException {
    return load(file, Duration.ofSeconds(10));
  }

  /** Reads {@code file} now, and again at most every {@code interval} when it changed. */
  public static PasswordFile load(Path file, Duration interval) throws IOException {
    return new PasswordFile(new Reloading<>(List.of(file), interval, () -> parse(file)));
  }

  private static Users parse(Path file) throws IOException {
    Map<String, Entry> out = new HashMap<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split(":", -1);
      String where = file + ": line " + (i + 1) + ": ";
      if (f.length != 5 || f[0].isEmpty() || !f[1].equals(SCHEME)) {
        throw new IOException(where + "expected user:" + SCHEME + ":iterations:salt:hash");
      }
      try {
        int iterations = Integer.parseInt(f[2]);
        if (iterations < 1) {
          throw new NumberFormatException("not positive");
        }
        Entry e = new Entry(iterations, Base64.getDecoder().decode(f[3]),
            Base64.getDecoder().decode(f[4]));
        if (out.put(f[0], e) != null) {
          throw new IOException(where + "user " + f[0] + " appears twice");
        }
      } catch (IllegalArgumentException e) {
        throw new IOException(where + "malformed iterations, salt or hash (" + e.getMessage()
            + ")", e);
      }
    }
    int iterations = out.values().stream().mapToInt(Entry::iterations).max()
        .orElse(DEFAULT_ITERATIONS);
    return new Users(out, LOADS.incrementAndGet(), new Entry(iterations, new byte[16],
        new byte[32]));
  }

  /** Whether {@code user} is in the file. */
  public boolean contains(String user) {
    return users.get().entries().containsKey(user);
  }

  /** Returns true if {@code user} is in the file and {@code password} is theirs. */
  public boolean verify(String user, char[] password) {
    Users now = users.get();
    String key = rememberKey(user, password, now);
    Long until = remembered.get(key);
    if (until != null && System.nanoTime() - until < 0) {
      return true;
    }
    Entry e = now.entries().get(user);
    byte[] actual = hashBounded(password, e == null ? now.nobody() : e);
    boolean ok = e != null && MessageDigest.isEqual(actual, e.hash());
    if (ok) {
      if (remembered.size() >= MAX_CACHED) {
        remembered.clear();
      }
      remembered.put(key, System.nanoTime() + CACHE_NANOS);
    }
    return ok;
  }

  /** Whether {@link #verify} would answer without computing a hash (a password found right). */
  public boolean isRemembered(String user, char[] password) {
    Long until = remembered.get(rememberKey(user, password, users.get()));
    return until != null && System.nanoTime() - until < 0;
  }

  /** A user's line for the file: {@code user:pbkdf2-sha256:600000:salt:hash}. */
  public static String line(String user, char[] password) {
    return line(user, password, DEFAULT_ITERATIONS);
  }

  /**
   * As {@link #line(String, char[])} with fewer or more iterations (at least {@value
   * #MIN_ITERATIONS}): fewer make a wrong guess cheaper for an attacker too.
   */
  public static String line(String user, char[] password, int iterations) {
    if (user.isEmpty() || user.contains(":") || user.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("a user name must be non-empty, without ':' or white"
          + " space: \"" + user + "\"");
    }
    return user + ":" + hash(password, iterations);
  }

  /** A new salted hash of {@code password}: {@code pbkdf2-sha256:iterations:salt:hash}. */
  public static String hash(char[] password) {
    return hash(password, DEFAULT_ITERATIONS);
  }

  private static String hash(char[] password, int iterations) {
    if (iterations < MIN_ITERATIONS) {
      throw new IllegalArgumentException("iterations must be at least " + MIN_ITERATIONS
          + ", got " + iterations);
    }
    byte[] salt = new byte[16];
    RANDOM.nextBytes(salt);
    Entry e = new Entry(iterations, salt, null);
    Base64.Encoder b64 = Base64.getEncoder();
    return SCHEME + ":" + iterations + ":" + b64.encodeToString(salt) + ":"
        + b64.encodeToString(pbkdf2(password, e));
  }

  /**
   * {@link #pbkdf2}, at most one per processor at once: callers guessing passwords cannot take
   * every core; the others wait (on virtual threads, cheaply).
   */
  private static byte[] hashBounded(char[] password, Entry e) {
    HASHING.acquireUninterruptibly();
    try {
      return pbkdf2(password, e);
    } finally {
      HASHING.release();
    }
  }

  private static byte[] pbkdf2(char[] password, Entry e) {
    PBEKeySpec spec = new PBEKeySpec(password, e.salt(), e.iterations(), 256);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec)
          .getEncoded();
    } catch (GeneralSecurityException x) {
      throw new IllegalStateException("the JDK lacks PBKDF2WithHmacSHA256", x);
    } finally {
      spec.clearPassword();
    }
  }

  /**
   * What a right password is remembered by: a SHA-256 of the user, the password and the load of
   * the file (a changed file forgets every remembered password).
   */
  private static String rememberKey(String user, char[] password, Users file) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(user.getBytes(StandardCharsets.UTF_8));
      d.update((byte) 0);
      java.nio.ByteBuffer pw = StandardCharsets.UTF_8.encode(java.nio.CharBuffer.wrap(password));
      d.update(pw);
      d.update(Long.toString(file.load()).getBytes(StandardCharsets.US_ASCII));
      return Base64.getEncoder().encodeToString(d.digest());
    } catch (GeneralSecurityException x) {
      throw new IllegalStateException("the JDK lacks SHA-256", x);
    }
  }
}
