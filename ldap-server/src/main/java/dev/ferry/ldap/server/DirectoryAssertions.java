package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.SearchScope;
import java.util.ArrayList;
import java.util.List;

/**
 * Assertions on what an {@link LdapServer} holds, for tests: they read the directory directly
 * (no connection, no access rules) and compare values with the attribute's matching rules, as a
 * search would. Failures are {@link AssertionError}s that say what was found instead.
 *
 * <pre>{@code
 * assertEntryExists(server, "uid=bjensen,ou=people,dc=example,dc=com");
 * assertAttributeValues(server, "uid=bjensen,ou=people,dc=example,dc=com", "cn",
 *     "Barbara Jensen", "babs jensen");                      // caseIgnoreMatch: any case
 * assertEntryMatches(server, "uid=bjensen,ou=people,dc=example,dc=com", "(mail=*@example.com)");
 * assertSearchCount(server, "dc=example,dc=com", SearchScope.WHOLE_SUBTREE,
 *     "(objectClass=person)", 2);
 * }</pre>
 */
public final class DirectoryAssertions {
  private DirectoryAssertions() {}

  /** Asserts that an entry named {@code dn} exists. */
  public static void assertEntryExists(LdapServer server, String dn) {
    if (server.entry(dn) == null) {
      throw new AssertionError("expected an entry " + dn + ", found none (nearest: "
          + nearest(server, dn) + ")");
    }
  }

  /** Asserts that no entry named {@code dn} exists. */
  public static void assertEntryMissing(LdapServer server, String dn) {
    LdifRecord.Entry e = server.entry(dn);
    if (e != null) {
      throw new AssertionError("expected no entry " + dn + ", found " + e.dn());
    }
  }

  /**
   * Asserts that the entry's attribute (with its subtypes and options, as a search for it would
   * return) holds exactly these values, in any order, compared by its equality rule.
   */
  public static void assertAttributeValues(LdapServer server, String dn, String attribute,
      String... expected) {
    assertEntryExists(server, dn);
    Dsa dsa = server.dsa();
    AttributeType t = dsa.schema.type(StoredAttribute.typeName(attribute));
    List<ByteString> actual = new ArrayList<>();
    try (Directory.View v = dsa.directory.read()) {
      StoredEntry e = v.get(Dn.parse(dn));
      for (int i = 0; i < e.attributeCount(); i++) {
        StoredAttribute a = e.type(i).isA(t) ? e.attribute(i) : null;
        if (a != null && a.hasOptions(StoredAttribute.options(attribute))) {
          actual.addAll(a.valueList());
        }
      }
    }
    List<Object> left = keys(dsa, t, actual);
    boolean same = left.size() == expected.length;
    for (String v : expected) {
      same &= left.remove(key(dsa, t, ByteString.encodeUtf8(v)));
    }
    if (!same) {
      throw new AssertionError("expected " + attribute + " of " + dn + " to be "
          + List.of(expected) + ", found " + actual.stream().map(ByteString::utf8).toList());
    }
  }

  /** Asserts that the entry matches an RFC 4515 filter. */
  public static void assertEntryMatches(LdapServer server, String dn, String filter) {
    assertEntryExists(server, dn);
    Dsa dsa = server.dsa();
    try (Directory.View v = dsa.directory.read()) {
      StoredEntry e = v.get(Dn.parse(dn));
      FilterMatcher m = new FilterMatcher(dsa.schema, v, dsa.factory.isChecking());
      if (!m.matches(Filter.parse(filter), e, true)) {
        throw new AssertionError("expected " + dn + " to match " + filter + ", it does not: "
            + e.userAttributes());
      }
    }
  }

  /** Asserts how many entries a search (as the root DN, without limits) finds. */
  public static void assertSearchCount(LdapServer server, String base, SearchScope scope,
      String filter, int expected) {
    Dsa dsa = server.dsa();
    Filter f = Filter.parse(filter);
    List<String> found = new ArrayList<>();
    String key = base.isEmpty() ? "" : dsa.schema.normalize(Dn.parse(base));
    try (Directory.View v = dsa.directory.read()) {
      FilterMatcher m = new FilterMatcher(dsa.schema, v, dsa.factory.isChecking());
      v.scan(key, scope, null, e -> {
        if (m.matches(f, e, true)) {
          found.add(e.dnText());
        }
        return true;
      });
    }
    if (found.size() != expected) {
      throw new AssertionError("expected " + expected + " entries for " + filter + " in "
          + base + " (" + scope + "), found " + found.size() + ": " + found);
    }
  }

  private static String nearest(LdapServer server, String dn) {
    try (Directory.View v = server.dsa().directory.read()) {
      String matched = v.matchedDn(Dn.parse(dn), e -> true);
      return matched.isEmpty() ? "no ancestor either" : matched;
    }
  }

  private static List<Object> keys(Dsa dsa, AttributeType t, List<ByteString> values) {
    List<Object> out = new ArrayList<>();
    for (ByteString v : values) {
      out.add(key(dsa, t, v));
    }
    return out;
  }

  private static Object key(Dsa dsa, AttributeType t, ByteString v) {
    Object k = t.equality == null ? null : t.equality.key(v, dsa.schema);
    return k != null ? k : v;
  }
}
