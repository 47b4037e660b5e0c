package dev.ferry.ldap.server;

import java.util.Objects;

/**
 * How the server stores the passwords it is given: in {@code userPassword}, hashed in one of
 * the {@code {SCHEME}} forms OpenLDAP's slapd reads, so that a directory moves between the two
 * with its passwords. A value that already names a scheme the server knows is stored as given.
 *
 * <table>
 *   <caption>Schemes</caption>
 *   <tr><th>scheme</th><th>form</th><th>slapd</th></tr>
 *   <tr><td>{@link #pbkdf2Sha256(int)}, the default with
 *       {@value #DEFAULT_PBKDF2_ITERATIONS} iterations</td>
 *       <td>{@code {PBKDF2-SHA256}<iterations>$<salt>$<key>}, salt 16 bytes and key 32, both
 *       in base64 with {@code .} for {@code +} and no padding</td>
 *       <td>the pw-pbkdf2 module (Debian's slapd-contrib)</td></tr>
 *   <tr><td>{@link #ssha512()}</td><td>{@code {SSHA512}base64(sha512(password salt) salt)},
 *       salt 8 bytes</td><td>the pw-sha2 module</td></tr>
 *   <tr><td>{@link #ssha256()}</td><td>{@code {SSHA256}}, the same with SHA-256</td>
 *       <td>the pw-sha2 module</td></tr>
 * </table>
 *
 * <p>Binds also check {@code {SHA}}, {@code {SSHA}}, {@code {SHA256}}, {@code {SHA384}},
 * {@code {SSHA384}}, {@code {SHA512}}, {@code {PBKDF2}}, {@code {PBKDF2-SHA1}},
 * {@code {PBKDF2-SHA512}} and {@code {CLEARTEXT}} values, as slapd does. A salted SHA-2 costs
 * a microsecond, so a stolen hash is cheap to guess at; PBKDF2 costs what its iterations say
 * on every bind and on every guess alike.
 */
public final class PasswordScheme {
  /** Iterations of the default PBKDF2 scheme: {@value}, pw-pbkdf2's own default. */
  public static final int DEFAULT_PBKDF2_ITERATIONS = 10_000;
  /** The default: {@code {PBKDF2-SHA256}} with {@value #DEFAULT_PBKDF2_ITERATIONS} iterations. */
  public static final PasswordScheme DEFAULT = pbkdf2Sha256(DEFAULT_PBKDF2_ITERATIONS);

  final String name;
  final int iterations; // 0 for the salted digests

  private PasswordScheme(String name, int iterations) {
    this.name = name;
    this.iterations = iterations;
  }

  /** {@code {PBKDF2-SHA256}} (RFC 8018 PBKDF2 with HMAC-SHA256), as pw-pbkdf2 writes it. */
  public static PasswordScheme pbkdf2Sha256(int iterations) {
    if (iterations < 1000) {
      throw new IllegalArgumentException("iterations < 1000: " + iterations);
    }
    return new PasswordScheme("PBKDF2-SHA256", iterations);
  }

  /** {@code {SSHA512}}: one salted SHA-512, as slapd's pw-sha2 writes it. */
  public static PasswordScheme ssha512() {
    return new PasswordScheme("SSHA512", 0);
  }

  /** {@code {SSHA256}}: one salted SHA-256, as slapd's pw-sha2 writes it. */
  public static PasswordScheme ssha256() {
    return new PasswordScheme("SSHA256", 0);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PasswordScheme p && p.name.equals(name) && p.iterations == iterations;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, iterations);
  }

  @Override
  public String toString() {
    return "{" + name + "}" + (iterations > 0 ? " " + iterations + " iterations" : "");
  }
}
