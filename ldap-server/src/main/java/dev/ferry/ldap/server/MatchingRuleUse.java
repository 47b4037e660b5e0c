package dev.ferry.ldap.server;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which attribute types an extensible item may apply a matching rule to (the matchingRuleUse of
 * RFC 4512 section 4.1.4, derived as slapd derives it): a rule that may be named in an extensible
 * item applies to the types of its own syntax, to those whose equality rule it is, and to those
 * whose syntax is a kind of its own (a country string is a directory, IA5 and printable string);
 * a rule applies besides to the syntaxes it is compatible with, as caseIgnoreMatch to telephone
 * numbers. An item naming a type the rule does not apply to is Undefined; one naming no type
 * tries only the types the rule applies to.
 */
final class MatchingRuleUse {
  private static final String SYNTAX = "1.3.6.1.4.1.1466.115.121.1.";
  private static final String DIRECTORY_STRING = SYNTAX + "15";
  private static final String IA5_STRING = SYNTAX + "26";
  private static final String INTEGER = SYNTAX + "27";
  private static final String OID = SYNTAX + "38";
  private static final String SUBSTRING_ASSERTION = SYNTAX + "58";
  /** A directory string rule's other syntaxes: country, printable string, telephone number. */
  private static final Set<String> DIRECTORY_STRING_COMPATIBLE = Set.of(SYNTAX + "11",
      SYNTAX + "44", SYNTAX + "50");
  /** The syntaxes that are a kind of another: a country string is a string of each kind. */
  private static final Map<String, Set<String>> SUPERIOR_SYNTAXES = Map.of(SYNTAX + "11",
      Set.of(DIRECTORY_STRING, IA5_STRING, SYNTAX + "44"));

  /** A rule's syntax, whether an extensible item may name it, and its compatible syntaxes. */
  private record Use(String syntax, boolean extensible, Set<String> compatible) {}

  private static final Map<String, Use> USES = new HashMap<>();

  static {
    for (String rule : new String[] {"caseIgnoreMatch", "caseIgnoreOrderingMatch",
        "caseExactMatch", "caseExactOrderingMatch"}) {
      use(rule, DIRECTORY_STRING, true, DIRECTORY_STRING_COMPATIBLE);
    }
    use("caseIgnoreSubstringsMatch", SUBSTRING_ASSERTION, false, DIRECTORY_STRING_COMPATIBLE);
    use("caseExactSubstringsMatch", SUBSTRING_ASSERTION, false, DIRECTORY_STRING_COMPATIBLE);
    for (String rule : new String[] {"numericStringSubstringsMatch",
        "caseIgnoreListSubstringsMatch", "telephoneNumberSubstringsMatch"}) {
      use(rule, SUBSTRING_ASSERTION, false, Set.of());
    }
    use("numericStringMatch", SYNTAX + "36", true, Set.of());
    use("numericStringOrderingMatch", SYNTAX + "36", true, Set.of());
    use("caseIgnoreListMatch", SYNTAX + "41", true, Set.of());
    use("booleanMatch", SYNTAX + "7", true, Set.of());
    use("integerMatch", INTEGER, true, Set.of());
    use("integerOrderingMatch", INTEGER, true, Set.of());
    use("bitStringMatch", SYNTAX + "6", true, Set.of());
    use("octetStringMatch", SYNTAX + "40", true, Set.of());
    use("octetStringOrderingMatch", SYNTAX + "40", true, Set.of());
    use("telephoneNumberMatch", SYNTAX + "50", true, Set.of());
    use("uniqueMemberMatch", SYNTAX + "34", true, Set.of());
    use("generalizedTimeMatch", SYNTAX + "24", true, Set.of());
    use("generalizedTimeOrderingMatch", SYNTAX + "24", true, Set.of());
    use("integerFirstComponentMatch", INTEGER, true, Set.of(INTEGER, SYNTAX + "17"));
    use("objectIdentifierFirstComponentMatch", OID, true, Set.of(OID, SYNTAX + "3",
        SYNTAX + "16", SYNTAX + "54", SYNTAX + "30", SYNTAX + "31", SYNTAX + "35",
        SYNTAX + "37"));
    use("objectIdentifierMatch", OID, true, Set.of());
    use("distinguishedNameMatch", SYNTAX + "12", true, Set.of());
    use("caseExactIA5Match", IA5_STRING, true, Set.of());
    use("caseIgnoreIA5Match", IA5_STRING, true, Set.of());
    use("caseIgnoreIA5SubstringsMatch", IA5_STRING, false, Set.of());
    use("caseExactIA5SubstringsMatch", IA5_STRING, false, Set.of());
    use("uuidMatch", "1.3.6.1.1.16.1", false, Set.of());
    use("uuidOrderingMatch", "1.3.6.1.1.16.1", false, Set.of());
  }

  private MatchingRuleUse() {}

  private static void use(String rule, String syntax, boolean extensible, Set<String> compatible) {
    USES.put(MatchingRules.get(rule).oid, new Use(syntax, extensible, compatible));
  }

  /** True if an extensible item may name {@code rule}, or use it as a type's equality rule. */
  static boolean isExtensible(MatchingRule rule) {
    Use u = USES.get(rule.oid);
    return u != null && u.extensible;
  }

  /** True if an extensible item may apply {@code rule} to values of type {@code t}. */
  static boolean appliesTo(MatchingRule rule, AttributeType t) {
    Use u = USES.get(rule.oid);
    if (u == null) {
      return rule == t.equality; // a rule known only by name matches as octetStringMatch
    }
    if (u.extensible && (u.syntax.equals(t.syntax) || rule == t.equality
        || SUPERIOR_SYNTAXES.getOrDefault(t.syntax, Set.of()).contains(u.syntax))) {
      return true;
    }
    return t.syntax != null && u.compatible.contains(t.syntax);
  }
}
