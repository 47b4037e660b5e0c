package dev.ferry.bench.ldap;

import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.LdifWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * The directory of the indexed-search benchmarks: shape {@code people-N} is the suffix, {@code
 * ou=people} and N inetOrgPerson entries {@code uid=user<i>} (about 300 bytes each: cn, sn,
 * mail, a phone number, a description of random words), served by every server with the same
 * indexes: uid and mail equality, cn substrings, objectClass equality.
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
                + WORDS[r.nextInt(WORDS.length)]))));
      }
    }
    return file;
  }
}
