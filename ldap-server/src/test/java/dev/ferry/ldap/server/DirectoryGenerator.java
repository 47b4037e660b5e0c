package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.DerefAliases;
import dev.ferry.ldap.Filter;
import dev.ferry.ldap.LdifRecord;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ProtocolOp;
import dev.ferry.ldap.ProtocolOp.SearchRequest;
import dev.ferry.ldap.SearchScope;
import dev.ferry.ldap.SortControl;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A directory, searches and changes made up from a seed, within what core, cosine, nis and
 * inetorgperson define: for the same requests sent to slapd and to Ferry. Values vary in case,
 * spaces and punctuation where the matching rules should make them equal; DNs vary in case and
 * spacing; filters nest every kind of item, including items that are Undefined.
 */
final class DirectoryGenerator {
  static final String SUFFIX = "dc=example,dc=com";
  static final String PEOPLE = "ou=people," + SUFFIX;
  static final String STAFF = "ou=staff," + PEOPLE;
  static final String GROUPS = "ou=groups," + SUFFIX;
  static final String HOSTS = "ou=hosts," + SUFFIX;
  private static final String[] GIVEN = {"Barbara", "John", "Jane", "Ana", "Émile", "Zoë", "Li",
      "Mohammed", "Olga", "Peter", "Sam", "Kim"};
  private static final String[] FAMILY = {"Jensen", "Doe", "Smith", "García", "Müller", "Chen",
      "O'Brien", "Nakamura", "Okafor", "Silva"};
  private static final String[] WORDS = {"sailing", "chess", "coffee", "Java", "LDAP", "music",
      "running", "tea"};
  /** Names as they might be misheard: approximate items should find some of them. */
  private static final String[] SOUNDS = {"Jon", "Jayne", "Smyth", "Jensan", "Muller", "Garsia",
      "Nakamora", "Zoe", "Emil", "Petr", "Chenn", "Silvah", "O'Bryan", "Barbera", "Dough", "Kym",
      "Olgha", "Mohamed", "Okafour", "Knight", "Phil", "Xavier", "Thompson", "Schmidt"};
  private static final String[] CLASSES = {"person", "inetOrgPerson", "posixAccount",
      "organizationalPerson", "groupOfNames", "posixGroup", "device", "organizationalUnit",
      "top", "account"};

  private final Random random;
  final List<String> people = new ArrayList<>();
  final List<String> uids = new ArrayList<>();
  final List<String> groups = new ArrayList<>();
  private int next;

  DirectoryGenerator(long seed) {
    this.random = new Random(seed);
  }

  private <T> T pick(T[] from) {
    return from[random.nextInt(from.length)];
  }

  private <T> T pick(List<T> from) {
    return from.get(random.nextInt(from.size()));
  }

  private boolean chance(int percent) {
    return random.nextInt(100) < percent;
  }

  /** The same text in another case or spacing, which case-ignore rules match. */
  private String vary(String s) {
    return switch (random.nextInt(4)) {
      case 0 -> s.toUpperCase(Locale.ROOT);
      case 1 -> s.toLowerCase(Locale.ROOT);
      case 2 -> s.replace(" ", "  ");
      default -> s;
    };
  }

  /** The same DN in another case and spacing. */
  String varyDn(String dn) {
    if (chance(50)) {
      return dn;
    }
    String v = dn.replace(",", chance(50) ? ", " : ",");
    return chance(50) ? v.toUpperCase(Locale.ROOT) : v;
  }

  // --- the directory -----------------------------------------------------------------------------

  List<LdifRecord.Entry> directory(int persons) {
    List<LdifRecord.Entry> out = new ArrayList<>();
    out.add(entry(SUFFIX, "objectClass", "top", "objectClass", "dcObject", "objectClass",
        "organization", "dc", "example", "o", "Example"));
    for (String ou : List.of(PEOPLE, GROUPS, HOSTS)) {
      String name = ou.substring(3, ou.indexOf(','));
      out.add(entry(ou, "objectClass", "organizationalUnit", "ou", name, "description",
          "the " + name));
    }
    out.add(entry(STAFF, "objectClass", "organizationalUnit", "ou", "staff"));
    for (int i = 0; i < persons; i++) {
      out.add(person(i % 5 == 4 ? STAFF : PEOPLE));
    }
    for (int i = 0; i < persons / 10; i++) {
      out.add(group(i));
    }
    for (int i = 0; i < persons / 8; i++) {
      out.add(entry("cn=host" + i + "," + HOSTS, "objectClass", "device", "cn", "host" + i,
          "serialNumber", "SN-" + random.nextInt(1000), "l", pick(new String[] {"Oslo",
              "Lima", "Pune"})));
    }
    return out;
  }

  private LdifRecord.Entry person(String under) {
    String given = pick(GIVEN);
    String family = pick(FAMILY);
    String uid = (given.substring(0, 1) + family).toLowerCase(Locale.ROOT)
        .replaceAll("[^a-z]", "") + next++;
    String dn = "uid=" + uid + "," + under;
    List<Attribute> a = new ArrayList<>();
    boolean posix = chance(60);
    a.add(posix ? Attribute.of("objectClass", "top", "person", "organizationalPerson",
        "inetOrgPerson", "posixAccount") : Attribute.of("objectClass", "top", "person",
        "organizationalPerson", "inetOrgPerson"));
    a.add(Attribute.of("uid", uid));
    a.add(chance(30) ? Attribute.of("cn", given + " " + family, given.charAt(0) + ". " + family)
        : Attribute.of("cn", given + " " + family));
    a.add(Attribute.of("sn", family));
    a.add(Attribute.of("givenName", given));
    if (chance(80)) {
      a.add(Attribute.of("mail", uid + "@" + (chance(80) ? "example.com" : "example.org")));
    }
    if (chance(70)) {
      a.add(Attribute.of("telephoneNumber", phone()));
    }
    if (chance(50)) {
      a.add(Attribute.of("description", "likes " + pick(WORDS) + " and " + pick(WORDS)));
    }
    if (chance(40)) {
      a.add(Attribute.of("title", pick(new String[] {"Engineer", "Manager", "Director"})));
    }
    if (!people.isEmpty() && chance(40)) {
      a.add(Attribute.of("manager", varyDn(pick(people))));
    }
    if (posix) {
      a.add(Attribute.of("uidNumber", String.valueOf(1000 + next)));
      a.add(Attribute.of("gidNumber", String.valueOf(100 + random.nextInt(5))));
      a.add(Attribute.of("homeDirectory", "/home/" + uid));
    }
    people.add(dn);
    uids.add(uid);
    return new LdifRecord.Entry(dn, a);
  }

  private String phone() {
    String n = String.format("%04d", random.nextInt(10000));
    return switch (random.nextInt(3)) {
      case 0 -> "+1 408 555 " + n;
      case 1 -> "+1-408-555-" + n;
      default -> "+1408555" + n;
    };
  }

  private LdifRecord.Entry group(int i) {
    String dn = "cn=group" + i + "," + GROUPS;
    groups.add(dn);
    if (i % 2 == 0) {
      List<String> members = new ArrayList<>();
      for (int m = 0; m < 1 + random.nextInt(6); m++) {
        String member = varyDn(pick(people));
        if (members.stream().noneMatch(x -> x.equalsIgnoreCase(member.replace(", ", ",")))) {
          members.add(member);
        }
      }
      List<Attribute> a = new ArrayList<>(List.of(Attribute.of("objectClass", "groupOfNames"),
          Attribute.of("cn", "group" + i)));
      a.add(new Attribute("member", members.stream().map(ByteString::encodeUtf8).toList()));
      return new LdifRecord.Entry(dn, a);
    }
    List<String> memberUids = new ArrayList<>();
    for (int m = 0; m < 1 + random.nextInt(4); m++) {
      String u = pick(uids);
      if (!memberUids.contains(u)) {
        memberUids.add(u);
      }
    }
    List<Attribute> a = new ArrayList<>(List.of(Attribute.of("objectClass", "posixGroup"),
        Attribute.of("cn", "group" + i), Attribute.of("gidNumber", String.valueOf(100 + i))));
    a.add(new Attribute("memberUid", memberUids.stream().map(ByteString::encodeUtf8).toList()));
    return new LdifRecord.Entry(dn, a);
  }

  private static LdifRecord.Entry entry(String dn, String... pairs) {
    List<Attribute> out = new ArrayList<>();
    String name = null;
    List<String> values = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      if (name != null && !name.equals(pairs[i])) {
        out.add(Attribute.of(name, values.toArray(String[]::new)));
        values.clear();
      }
      name = pairs[i];
      values.add(pairs[i + 1]);
    }
    out.add(Attribute.of(name, values.toArray(String[]::new)));
    return new LdifRecord.Entry(dn, out);
  }

  // --- searches ----------------------------------------------------------------------------------

  SearchRequest search() {
    String base = switch (random.nextInt(8)) {
      case 0, 1 -> SUFFIX;
      case 2 -> PEOPLE;
      case 3 -> STAFF;
      case 4 -> GROUPS;
      case 5 -> HOSTS;
      case 6 -> pick(people);
      default -> chance(50) ? "uid=nobody," + PEOPLE : "ou=nowhere,ou=gone," + SUFFIX;
    };
    SearchScope scope = pick(SearchScope.values());
    List<String> attributes = pick(List.of(List.of(), List.of("*"), List.of("1.1"),
        List.of("cn", "mail"), List.of("sn", "objectClass"), List.of("name"),
        List.of("*", "1.1"), List.of("uidNumber", "telephoneNumber", "noSuchAttribute"),
        List.of("member", "memberUid")));
    int sizeLimit = chance(5) ? 1 + random.nextInt(5) : 0;
    return new SearchRequest(varyDn(base), scope, DerefAliases.NEVER, sizeLimit, 0, chance(10),
        filter(3), attributes);
  }

  /**
   * One or two sort keys (RFC 2891) on attributes the generated entries have, by their own
   * ordering rule or a named one, some reversed.
   */
  List<SortControl.Key> sortKeys() {
    String[][] keys = {{"sn", "caseIgnoreOrderingMatch"}, {"cn", "caseExactOrderingMatch"},
        {"uidNumber", null}, {"givenName", "2.5.13.3"}, {"uid", "caseIgnoreOrderingMatch"},
        {"gidNumber", "integerOrderingMatch"}, {"ou", "caseIgnoreOrderingMatch"},
        {"description", "caseIgnoreOrderingMatch"}, {"mail", "caseIgnoreOrderingMatch"}};
    List<SortControl.Key> out = new ArrayList<>();
    for (int i = 0; i < 1 + random.nextInt(2); i++) {
      String[] k = pick(keys);
      out.add(new SortControl.Key(k[0], k[1], chance(30)));
    }
    return out;
  }

  Filter filter(int depth) {
    if (depth > 0 && chance(35)) {
      List<Filter> parts = new ArrayList<>();
      for (int i = 0; i < 1 + random.nextInt(3); i++) {
        parts.add(filter(depth - 1));
      }
      return switch (random.nextInt(3)) {
        case 0 -> new Filter.And(parts);
        case 1 -> new Filter.Or(parts);
        default -> new Filter.Not(parts.get(0));
      };
    }
    return Filter.parse(item());
  }

  private String item() {
    return switch (random.nextInt(27)) {
      case 0 -> "(objectClass=" + vary(pick(CLASSES)) + ")";
      case 1 -> "(uid=" + vary(chance(80) ? pick(uids) : "nobody") + ")";
      case 2 -> "(cn=" + escape(vary(pick(GIVEN))) + "*)";
      case 3 -> "(cn=*" + escape(vary(pick(FAMILY))) + ")";
      case 4 -> "(sn=" + escape(vary(pick(FAMILY))) + ")";
      case 5 -> "(mail=*@" + vary("example.com") + ")";
      case 6 -> "(telephoneNumber=" + phone().replace("+", "+") + ")";
      case 7 -> "(uidNumber>=" + (1000 + random.nextInt(120)) + ")";
      case 8 -> "(uidNumber<=" + (1000 + random.nextInt(120)) + ")";
      case 9 -> "(gidNumber=" + (100 + random.nextInt(8)) + ")";
      case 10 -> "(description=*" + vary(pick(WORDS)) + "*)";
      case 11 -> "(" + pick(new String[] {"mail", "manager", "title", "description",
          "telephoneNumber", "memberUid"}) + "=*)";
      case 12 -> "(member=" + escape(varyDn(pick(people))) + ")";
      case 13 -> "(manager=" + escape(varyDn(pick(people))) + ")";
      case 14 -> "(cn:caseExactMatch:=" + escape(pick(GIVEN) + " " + pick(FAMILY)) + ")";
      case 15 -> "(ou:dn:=" + pick(new String[] {"people", "staff", "groups"}) + ")";
      case 16 -> "(noSuchAttribute=x)"; // Undefined
      case 17 -> "(cn>=" + pick(GIVEN) + ")"; // cn has no ordering rule: Undefined
      case 18 -> "(memberUid=" + pick(uids) + ")";
      case 19 -> "(cn~=" + escape(pick(SOUNDS) + (chance(50) ? " " + pick(SOUNDS) : "")) + ")";
      case 20 -> "(sn~=" + escape(chance(50) ? pick(SOUNDS) : vary(pick(FAMILY))) + ")";
      case 21 -> "(description~=" + pick(new String[] {"saling", "chez", "cofee", "jarva",
          "musik", "tee", "runing"}) + ")";
      case 22 -> "(mail~=" + vary(pick(uids)) + "@example.org)";
      case 23 -> "(" + pick(new String[] {"uidNumber", "telephoneNumber", "uid", "name"})
          + "~=" + (chance(50) ? 1000 + random.nextInt(120) : escape(pick(SOUNDS))) + ")";
      case 24 -> "(uidNumber:integerOrderingMatch:=" + (1000 + random.nextInt(120)) + ")";
      case 25 -> "(" + pick(new String[] {"cn", "sn", "givenName", "ou"}) + ":"
          + pick(new String[] {"caseIgnoreOrderingMatch", "caseExactOrderingMatch",
              "2.5.13.3"}) + ":=" + escape(vary(pick(GIVEN))) + ")";
      case 26 -> "(" + pick(new String[] {"telephoneNumber", "gidNumber", "createTimestamp"})
          + ":" + pick(new String[] {"numericStringOrderingMatch", "integerOrderingMatch",
              "generalizedTimeOrderingMatch", "octetStringOrderingMatch"}) + ":="
          + pick(new String[] {"105", "+1 408", "20200101000000Z", "5"}) + ")";
      default -> "(name=" + escape(vary(pick(GIVEN) + " " + pick(FAMILY))) + ")";
    };
  }

  private static String escape(String s) {
    return s.replace("\\", "\\5c").replace("*", "\\2a").replace("(", "\\28")
        .replace(")", "\\29");
  }

  // --- changes -----------------------------------------------------------------------------------

  /** A change to send to both servers; some are meant to fail. */
  ProtocolOp change() {
    String dn = pick(people);
    return switch (random.nextInt(14)) {
      case 0 -> modify(dn, Modification.Type.ADD, "description", "now " + pick(WORDS));
      case 1 -> modify(dn, Modification.Type.DELETE, "description");
      case 2 -> modify(dn, Modification.Type.REPLACE, "title", pick(new String[] {"Boss",
          "Intern"}));
      case 3 -> modify(dn, Modification.Type.ADD, "mail", "second@example.com");
      case 4 -> modify(dn, Modification.Type.DELETE, "mail", "not-there@example.com");
      case 5 -> modify(dn, Modification.Type.INCREMENT, "uidNumber", "5");
      case 6 -> modify(dn, Modification.Type.ADD, "uidNumber", "424242"); // single-valued
      case 7 -> modify(dn, Modification.Type.DELETE, "sn"); // person requires sn
      case 8 -> modify(dn, Modification.Type.ADD, "serialNumber", "x"); // not allowed
      case 9 -> new ProtocolOp.DeleteRequest(chance(70) ? dn : PEOPLE);
      case 10 -> new ProtocolOp.ModifyDnRequest(dn, "uid=renamed" + next++, chance(50), null);
      case 11 -> new ProtocolOp.ModifyDnRequest(dn, dn.substring(0, dn.indexOf(',')),
          false, chance(50) ? STAFF : HOSTS);
      case 12 -> new ProtocolOp.AddRequest(varyDn(pick(people)), List.of(
          Attribute.of("objectClass", "account"), Attribute.of("uid", "x")));
      default -> {
        LdifRecord.Entry e = person(chance(80) ? PEOPLE : "ou=missing," + SUFFIX);
        yield chance(20) ? new ProtocolOp.AddRequest(e.dn(), e.attributes().subList(0, 2))
            : new ProtocolOp.AddRequest(e.dn(), e.attributes());
      }
    };
  }

  /** Forgets a DN a change removed or renamed, so later changes aim at what exists. */
  void removed(String dn) {
    people.removeIf(p -> p.equalsIgnoreCase(dn));
  }

  void added(String dn) {
    people.add(dn);
  }

  private static ProtocolOp.ModifyRequest modify(String dn, Modification.Type type,
      String attribute, String... values) {
    return new ProtocolOp.ModifyRequest(dn, List.of(new Modification(type,
        Attribute.of(attribute, values))));
  }
}
