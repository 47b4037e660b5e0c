package dev.ferry.bench.ldap;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.LdifWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The directory every LDAP server benchmark serves: the suffix and one entry, whose size is the
 * benchmark's parameter. Its attributes are of types a schema of their own defines
 * ({@code benchAttr0} to {@code benchAttr99}, directory strings, and {@code benchBlob}, octets),
 * so that slapd, which checks every attribute against its schema, serves the same entry as the
 * servers that do not.
 *
 * <table>
 *   <caption>Shapes</caption>
 *   <tr><th>shape</th><th>attributes</th><th>encoded entry</th></tr>
 *   <tr><td>{@code 1k}</td><td>20 (+3)</td><td>about 1 KB</td></tr>
 *   <tr><td>{@code 4k}</td><td>80 (+3)</td><td>about 4 KB</td></tr>
 *   <tr><td>{@code 16k}</td><td>80 (+3), larger values</td><td>about 16 KB</td></tr>
 *   <tr><td>{@code 64k}</td><td>30 (+3) and one of 62 KB</td><td>about 64 KB</td></tr>
 * </table>
 */
final class SearchShapes {
  static final String SUFFIX = "dc=example,dc=com";
  static final String DN = "cn=entry," + SUFFIX;
  static final String ADMIN = "cn=admin," + SUFFIX;
  static final String PASSWORD = "secret";
  static final List<String> SHAPES = List.of("1k", "4k", "16k", "64k");
  private static final int TYPES = 100;

  private SearchShapes() {}

  /** The entry of {@code shape}: device and extensibleObject, {@code cn: entry}, and more. */
  static LdifRecord.Entry entry(String shape) {
    Random r = new Random(42);
    List<Attribute> attributes = new ArrayList<>(List.of(
        Attribute.of("objectClass", "top", "device", "extensibleObject"),
        Attribute.of("cn", "entry")));
    switch (shape) {
      case "1k" -> strings(attributes, r, 20, 32);
      case "4k" -> strings(attributes, r, 80, 32);
      case "16k" -> strings(attributes, r, 80, 180);
      case "64k" -> {
        strings(attributes, r, 30, 32);
        byte[] blob = new byte[62 * 1024];
        r.nextBytes(blob);
        attributes.add(new Attribute("benchBlob", List.of(ByteString.of(blob))));
      }
      default -> throw new IllegalArgumentException("shape: " + shape + " (expected: "
          + SHAPES + ")");
    }
    return new LdifRecord.Entry(DN, attributes);
  }

  private static void strings(List<Attribute> out, Random r, int count, int bytes) {
    for (int i = 0; i < count; i++) {
      char[] v = new char[bytes];
      for (int j = 0; j < v.length; j++) {
        v[j] = (char) ('a' + r.nextInt(26));
      }
      out.add(Attribute.of("benchAttr" + i, new String(v)));
    }
  }

  /** The suffix entry. */
  static LdifRecord.Entry suffix() {
    return new LdifRecord.Entry(SUFFIX, List.of(
        Attribute.of("objectClass", "top", "dcObject", "organization"),
        Attribute.of("dc", "example"), Attribute.of("o", "Example")));
  }

  /** Writes the suffix and the entry of {@code shape} as LDIF. */
  static Path ldif(String shape, Path dir) throws IOException {
    Path file = dir.resolve("bench-" + shape + ".ldif");
    try (OutputStream out = Files.newOutputStream(file); LdifWriter w = LdifWriter.of(out)) {
      w.write(suffix());
      w.write(entry(shape));
    }
    return file;
  }

  /** The benchmark schema's definitions, as RFC 4512 descriptions. */
  static List<String> attributeTypes() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < TYPES; i++) {
      out.add("( 1.3.6.1.4.1.99999.1." + i + " NAME 'benchAttr" + i + "' EQUALITY"
          + " caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch"
          + " SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )");
    }
    out.add("( 1.3.6.1.4.1.99999.1.1000 NAME 'benchBlob' EQUALITY octetStringMatch"
        + " SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 )");
    return out;
  }

  /** The schema in OpenLDAP's cn=config form, for slapadd. */
  static String schemaLdif() {
    StringBuilder s = new StringBuilder("dn: cn=ferrybench,cn=schema,cn=config\n"
        + "objectClass: olcSchemaConfig\ncn: ferrybench\n");
    for (String d : attributeTypes()) {
      s.append("olcAttributeTypes: ").append(d).append('\n');
    }
    return s.toString();
  }
}
