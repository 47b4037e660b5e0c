package dev.ferry.bench.ldap;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The SearchResultEntry shapes every LDAP benchmark encodes and decodes, built from a fixed seed:
 * about 1 KB (20 attributes), 4 KB (80 attributes) and 64 KB (one large value).
 */
final class EntryShapes {
  static final String DN = "uid=user1,ou=people,dc=example,dc=com";

  /** One attribute: a description and its values. */
  record Attr(String name, List<byte[]> values) {}

  private EntryShapes() {}

  static List<Attr> attributes(String shape) {
    Random r = new Random(42);
    List<Attr> attrs = new ArrayList<>();
    switch (shape) {
      case "1k" -> addSmall(attrs, r, 20);
      case "4k" -> addSmall(attrs, r, 80);
      case "64k" -> {
        addSmall(attrs, r, 3);
        byte[] photo = new byte[64 * 1024];
        r.nextBytes(photo);
        attrs.add(new Attr("jpegPhoto", List.of(photo)));
      }
      default -> throw new IllegalArgumentException(shape);
    }
    return attrs;
  }

  private static void addSmall(List<Attr> attrs, Random r, int count) {
    for (int i = 0; i < count; i++) {
      byte[] v = new byte[32];
      for (int j = 0; j < v.length; j++) {
        v[j] = (byte) ('a' + r.nextInt(26));
      }
      attrs.add(new Attr("attribute" + i, List.of(v)));
    }
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
