package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Dn;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The matching rules the server knows (RFC 4517 section 4.2, RFC 4530 for UUIDs), by name and by
 * OID. String rules prepare values as RFC 4518 says in outline: Unicode NFKC, case folded for the
 * caseIgnore rules, runs of spaces made one and leading and trailing spaces dropped (substring
 * pieces keep their edges), and the characters each rule ignores (spaces in numeric strings,
 * spaces and hyphens in telephone numbers) removed.
 *
 * <p>A rule a schema names but this class does not know matches as {@code octetStringMatch}:
 * exact bytes.
 */
final class MatchingRules {
  private static final Map<String, MatchingRule> RULES = new HashMap<>();

  static final MatchingRule OCTET_STRING = add(new OctetRule("2.5.13.17", "octetStringMatch"));
  static final MatchingRule CASE_IGNORE = add(new StringRule("2.5.13.2", "caseIgnoreMatch",
      Prep.CASE_IGNORE));
  static final MatchingRule DISTINGUISHED_NAME = add(new DnRule("2.5.13.1",
      "distinguishedNameMatch"));
  static final MatchingRule OBJECT_IDENTIFIER = add(new OidRule("2.5.13.0",
      "objectIdentifierMatch"));
  static final MatchingRule INTEGER = add(new IntegerRule("2.5.13.14", "integerMatch"));

  static {
    add(new StringRule("2.5.13.3", "caseIgnoreOrderingMatch", Prep.CASE_IGNORE));
    add(new StringRule("2.5.13.4", "caseIgnoreSubstringsMatch", Prep.CASE_IGNORE));
    add(new StringRule("2.5.13.5", "caseExactMatch", Prep.CASE_EXACT));
    add(new StringRule("2.5.13.6", "caseExactOrderingMatch", Prep.CASE_EXACT));
    add(new StringRule("2.5.13.7", "caseExactSubstringsMatch", Prep.CASE_EXACT));
    add(new StringRule("2.5.13.8", "numericStringMatch", Prep.NUMERIC));
    add(new StringRule("2.5.13.9", "numericStringOrderingMatch", Prep.NUMERIC));
    add(new StringRule("2.5.13.10", "numericStringSubstringsMatch", Prep.NUMERIC));
    add(new StringRule("2.5.13.11", "caseIgnoreListMatch", Prep.CASE_IGNORE));
    add(new StringRule("2.5.13.12", "caseIgnoreListSubstringsMatch", Prep.CASE_IGNORE));
    add(new BooleanRule("2.5.13.13", "booleanMatch"));
    add(new IntegerRule("2.5.13.15", "integerOrderingMatch"));
    add(new StringRule("2.5.13.16", "bitStringMatch", Prep.CASE_EXACT));
    add(new OctetRule("2.5.13.18", "octetStringOrderingMatch"));
    add(new StringRule("2.5.13.20", "telephoneNumberMatch", Prep.TELEPHONE));
    add(new StringRule("2.5.13.21", "telephoneNumberSubstringsMatch", Prep.TELEPHONE));
    add(new UniqueMemberRule("2.5.13.23", "uniqueMemberMatch"));
    add(new TimeRule("2.5.13.27", "generalizedTimeMatch"));
    add(new TimeRule("2.5.13.28", "generalizedTimeOrderingMatch"));
    add(new FirstComponentRule("2.5.13.29", "integerFirstComponentMatch"));
    add(new FirstComponentRule("2.5.13.30", "objectIdentifierFirstComponentMatch"));
    add(new StringRule("1.3.6.1.4.1.1466.109.114.1", "caseExactIA5Match", Prep.IA5_EXACT));
    add(new StringRule("1.3.6.1.4.1.1466.109.114.2", "caseIgnoreIA5Match", Prep.IA5_IGNORE));
    add(new StringRule("1.3.6.1.4.1.1466.109.114.3", "caseIgnoreIA5SubstringsMatch",
        Prep.IA5_IGNORE));
    add(new StringRule("1.3.6.1.4.1.4203.1.2.1", "caseExactIA5SubstringsMatch",
        Prep.IA5_EXACT));
    add(new StringRule("1.3.6.1.1.16.2", "uuidMatch", Prep.CASE_IGNORE));
    add(new StringRule("1.3.6.1.1.16.3", "uuidOrderingMatch", Prep.CASE_IGNORE));
  }

  private MatchingRules() {}

  private static MatchingRule add(MatchingRule r) {
    RULES.put(r.oid, r);
    RULES.put(r.name.toLowerCase(Locale.ROOT), r);
    return r;
  }

  /** Returns the rule with this name or OID, or null if there is none. */
  static MatchingRule get(String nameOrOid) {
    return RULES.get(nameOrOid.toLowerCase(Locale.ROOT));
  }

  /** Returns the rule with this name or OID, or octetStringMatch for one not known here. */
  static MatchingRule orOctetString(String nameOrOid) {
    MatchingRule r = get(nameOrOid);
    return r != null ? r : OCTET_STRING;
  }

  /** Every rule known, once each. */
  static java.util.Collection<MatchingRule> all() {
    return RULES.values().stream().distinct().toList();
  }

  // --- string preparation -----------------------------------------------------------------------

  /** How a string rule prepares values. */
  enum Prep {
    CASE_IGNORE(true, false, ""),
    CASE_EXACT(false, false, ""),
    IA5_IGNORE(true, true, ""),
    IA5_EXACT(false, true, ""),
    NUMERIC(false, false, " "),
    TELEPHONE(true, false, " -");

    private final boolean fold;
    private final boolean ia5;
    private final String ignored;

    Prep(boolean fold, boolean ia5, String ignored) {
      this.fold = fold;
      this.ia5 = ia5;
      this.ignored = ignored;
    }

    /** Prepares a whole value; null if it is not valid text for this preparation. */
    String value(ByteString v) {
      String s = text(v);
      return s == null ? null : spaces(s, true);
    }

    /** Prepares a substring piece: like a value, but leading and trailing spaces count. */
    String piece(ByteString v) {
      String s = text(v);
      return s == null ? null : spaces(s, false);
    }

    private String text(ByteString v) {
      String s = v.utf8();
      if (s.indexOf('\uFFFD') >= 0) {
        return null; // not UTF-8
      }
      if (ia5) {
        for (int i = 0; i < s.length(); i++) {
          if (s.charAt(i) >= 0x80) {
            return null;
          }
        }
      } else if (!isAscii(s)) {
        s = Normalizer.normalize(s, Normalizer.Form.NFKC);
      }
      if (fold) {
        s = s.toLowerCase(Locale.ROOT);
      }
      return s;
    }

    private String spaces(String s, boolean trim) {
      if (isPrepared(s, trim)) {
        return s; // most values: no builder, no copy
      }
      StringBuilder b = new StringBuilder(s.length() + 1);
      boolean space = false;
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (ignored.indexOf(c) >= 0) {
          continue;
        }
        if (c == ' ' || c == '\t') {
          space = true;
          continue;
        }
        if (space && (b.length() > 0 || !trim)) {
          b.append(' ');
        }
        space = false;
        b.append(c);
      }
      if (space && !trim) {
        b.append(' ');
      }
      return b.toString();
    }

    /** Whether {@link #spaces} would return {@code s} unchanged. */
    private boolean isPrepared(String s, boolean trim) {
      int n = s.length();
      if (trim && n > 0 && (isSpace(s.charAt(0)) || isSpace(s.charAt(n - 1)))) {
        return false;
      }
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        if (c == '\t' || ignored.indexOf(c) >= 0
            || (c == ' ' && i + 1 < n && s.charAt(i + 1) == ' ')) {
          return false;
        }
      }
      return true;
    }

    private static boolean isSpace(char c) {
      return c == ' ' || c == '\t';
    }
  }

  private static boolean isAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  // --- the rules -------------------------------------------------------------------------------

  private static final class StringRule extends MatchingRule {
    private final Prep prep;

    StringRule(String oid, String name, Prep prep) {
      super(oid, name);
      this.prep = prep;
    }

    @Override
    Object key(ByteString value, Schema schema) {
      return prep.value(value);
    }

    @Override
    boolean isSubstringRule() {
      return true;
    }

    @Override
    String piece(ByteString value) {
      return prep.piece(value);
    }
  }

  private static final class OctetRule extends MatchingRule {
    OctetRule(String oid, String name) {
      super(oid, name);
    }

    @Override
    Object key(ByteString value, Schema schema) {
      return value;
    }
  }

  private static final class BooleanRule extends MatchingRule {
    BooleanRule(String oid, String name) {
      super(oid, name);
    }

    @Override
    Object key(ByteString value, Schema schema) {
      String s = value.utf8().strip();
      return s.equalsIgnoreCase("TRUE") ? "TRUE" : s.equalsIgnoreCase("FALSE") ? "FALSE" : null;
    }
  }

  private static final class IntegerRule extends MatchingRule {
    IntegerRule(String oid, String name) {
      super(oid, name);
    }

    @Override
    Object key(ByteString value, Schema schema) {
      return integer(value.string(StandardCharsets.ISO_8859_1).strip());
    }
  }

  /** Returns the integer {@code s} spells (RFC 4517 INTEGER, leading zeros allowed), or null. */
  static BigInteger integer(String s) {
    int start = s.startsWith("-") ? 1 : 0;
    if (s.length() == start || s.length() > 4096) {
      return null;
    }
    for (int i = start; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return null;
      }
    }
    return new BigInteger(s);
  }

  private static final class TimeRule extends MatchingRule {
    TimeRule(String oid, String name) {
      super(oid, name);
    }

    @Override
    Object key(ByteString value, Schema schema) {
      return generalizedTime(value.string(StandardCharsets.ISO_8859_1));
    }
  }

  /**
   * Returns the instant a GeneralizedTime (RFC 4517 section 3.3.13) names, or null:
   * {@code YYYYMMDDHH[MM[SS]][(.|,)fraction](Z|(+|-)HH[MM])}.
   */
  static Instant generalizedTime(String s) {
    try {
      int n = s.length();
      int zone = Math.max(s.indexOf('Z'), Math.max(s.indexOf('+'), s.indexOf('-')));
      if (zone < 10) {
        return null;
      }
      int frac = Math.max(s.indexOf('.'), s.indexOf(','));
      int digitsEnd = frac > 0 ? frac : zone;
      if (digitsEnd != 10 && digitsEnd != 12 && digitsEnd != 14) {
        return null;
      }
      for (int i = 0; i < digitsEnd; i++) {
        if (!Character.isDigit(s.charAt(i))) {
          return null;
        }
      }
      LocalDateTime t = LocalDateTime.of(Integer.parseInt(s.substring(0, 4)),
          Integer.parseInt(s.substring(4, 6)), Integer.parseInt(s.substring(6, 8)),
          Integer.parseInt(s.substring(8, 10)),
          digitsEnd >= 12 ? Integer.parseInt(s.substring(10, 12)) : 0,
          digitsEnd >= 14 ? Integer.parseInt(s.substring(12, 14)) : 0);
      long unitNanos = digitsEnd == 10 ? 3_600_000_000_000L
          : digitsEnd == 12 ? 60_000_000_000L : 1_000_000_000L;
      if (frac > 0) {
        String f = s.substring(frac + 1, zone);
        if (f.isEmpty() || !f.chars().allMatch(Character::isDigit)) {
          return null;
        }
        double fraction = Double.parseDouble("0." + f);
        t = t.plusNanos(Math.round(fraction * unitNanos));
      }
      ZoneOffset offset = ZoneOffset.UTC;
      if (s.charAt(zone) == 'Z') {
        if (zone != n - 1) {
          return null;
        }
      } else {
        String z = s.substring(zone + 1);
        if (z.length() != 2 && z.length() != 4 || !z.chars().allMatch(Character::isDigit)) {
          return null;
        }
        int sign = s.charAt(zone) == '-' ? -1 : 1;
        offset = ZoneOffset.ofHoursMinutes(sign * Integer.parseInt(z.substring(0, 2)),
            sign * (z.length() == 4 ? Integer.parseInt(z.substring(2)) : 0));
      }
      return t.toInstant(offset);
    } catch (RuntimeException e) {
      return null; // an out-of-range field: not a time
    }
  }

  private static final class DnRule extends MatchingRule {
    DnRule(String oid, String name) {
      super(oid, name);
    }

    @Override
    Object key(ByteString value, Schema schema) {
      try {
        return schema.normalize(Dn.parse(value.utf8()));
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
  }

  /** uniqueMemberMatch: a DN and an optional {@code #'bits'B} unique identifier. */
  private static final class UniqueMemberRule extends MatchingRule {
    UniqueMemberRule(String oid, String name) {
      super(oid, name);
    }

    @Override
    Object key(ByteString value, Schema schema) {
      String s = value.utf8();
      int hash = s.lastIndexOf('#');
      String uid = "";
      if (hash > 0 && s.endsWith("'B") && s.charAt(hash + 1) == '\'') {
        uid = s.substring(hash);
        s = s.substring(0, hash);
      }
      try {
        return schema.normalize(Dn.parse(s)) + uid;
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
  }

  private static final class OidRule extends MatchingRule {
    OidRule(String oid, String name) {
      super(oid, name);
    }

    @Override
    Object key(ByteString value, Schema schema) {
      return schema.oidOf(value.utf8().strip());
    }
  }

  /** Matches the first component (the OID or number) of a definition with an assertion. */
  private static final class FirstComponentRule extends MatchingRule {
    FirstComponentRule(String oid, String name) {
      super(oid, name);
    }

    @Override
    Object key(ByteString value, Schema schema) {
      String s = value.utf8().strip();
      if (s.startsWith("(")) {
        String[] words = s.substring(1).strip().split("\\s+", 2);
        s = words[0];
      }
      return schema.oidOf(s);
    }
  }
}
