package dev.ferry.bench.ldap;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.LdifWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;

/**
 * The directory of the indexed-search benchmarks: shape {@code people-N} is the suffix, {@code
 * ou=people} and N inetOrgPerson entries {@code uid=user<i>} (about 300 bytes each: cn, sn,
 * mail, a phone number, a description of random words, and a password hashed as {@code {SSHA}},
 * which slapd, Ferry's server and UnboundID's all check and none returns to a search), served by
 * every server with the same indexes: uid and mail equality, cn substrings, objectClass equality.
 */
final class PeopleShapes {
  static final String PREFIX = "people-";
  static final String PEOPLE = "ou=people," + SearchShapes.SUFFIX;
  /** The indexes, as slapd's olcDbIndex lines. */
  static final List<String> SLAPD_INDEXES = List.of("objectClass eq", "uid eq", "mail eq",
      "cn sub");
  private static final String[] WORDS = {"sailing", "chess", "coffee", "java", "ldap",
      "music", "running", "tea", "hiking", "books"};

  private PeopleShapes() {}

  static boolean isPeople(String shape) {
    return shape.startsWith(PREFIX);
  }

  static int count(String shape) {
    return Integer.parseInt(shape.substring(PREFIX.length()));
  }

  /** The password of entry {@code uid=user<i>}. */
  static String password(int i) {
    return "secret-" + i;
  }

  /** RFC 2307's salted SHA-1 form, as slappasswd writes it: SHA-1(password, salt), salt. */
  private static String ssha(String password, Random r) {
    byte[] salt = new byte[8];
    r.nextBytes(salt);
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      sha1.update(password.getBytes(StandardCharsets.UTF_8));
      sha1.update(salt);
      byte[] digest = sha1.digest();
      byte[] value = Arrays.copyOf(digest, digest.length + salt.length);
      System.arraycopy(salt, 0, value, digest.length, salt.length);
      return "{SSHA}" + Base64.getEncoder().encodeToString(value);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-1", e);
    }
  }

  static Path ldif(String shape, Path dir) throws IOException {
    int n = count(shape);
    Random r = new Random(7);
    Path file = dir.resolve("bench-" + shape + ".ldif");
    try (OutputStream out = Files.newOutputStream(file); LdifWriter w = LdifWriter.of(out)) {
      w.write(SearchShapes.suffix());
      w.write(new LdifRecord.Entry(PEOPLE, List.of(Attribute.of("objectClass",
          "organizationalUnit"), Attribute.of("ou", "people"))));
      for (int i = 0; i < n; i++) {
        w.write(new LdifRecord.Entry("uid=user" + i + "," + PEOPLE, List.of(
            Attribute.of("objectClass", "top", "person", "organizationalPerson",
                "inetOrgPerson"),
            Attribute.of("uid", "user" + i), Attribute.of("cn", "User Number " + i),
            Attribute.of("sn", "Number" + (i % 1000)),
            Attribute.of("mail", "user" + i + "@example.com"),
            Attribute.of("telephoneNumber", "+1 555 " + (1000000 + r.nextInt(8999999))),
            Attribute.of("description", WORDS[r.nextInt(WORDS.length)] + " and "
                + WORDS[r.nextInt(WORDS.length)]),
            Attribute.of("userPassword", ssha(password(i), r)))));
      }
    }
    return file;
  }
}
