package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.Filter;
import java.util.List;

/**
 * Evaluates a search filter against a stored entry with three-valued logic (RFC 4511 section
 * 4.5.1.7): an item is TRUE, FALSE or UNDEFINED (an unknown attribute type, no matching rule,
 * an assertion value the rule cannot read), NOT of UNDEFINED is UNDEFINED, and only entries for
 * which the whole filter is TRUE are returned.
 *
 * <p>An item on a type also matches its subtypes ({@code (name=x)} matches {@code cn: x}) and,
 * when it names no options, every option of the type. {@code objectClass} equality also
 * matches subclasses, as slapd does: {@code (objectClass=person)} finds an inetOrgPerson.
 */
final class FilterMatcher {
  static final int FALSE = 0;
  static final int TRUE = 1;
  static final int UNDEFINED = 2;

  private final Schema schema;
  private final Directory.View directory;
  private final boolean checking;
  private boolean secrets; // whether the client may see the passwords of the entry at hand

  /**
   * @param checking true when the schema is enforced: an item on a type the schema does not
   *     define is then UNDEFINED, as in slapd; without the check such types match as strings
   */
  FilterMatcher(Schema schema, Directory.View directory, boolean checking) {
    this.schema = schema;
    this.directory = directory;
    this.checking = checking;
  }

  /** Returns the type a filter item names, or null if it is UNDEFINED under the schema check. */
  private AttributeType type(String description) {
    String name = StoredAttribute.typeName(description);
    AttributeType t = schema.definedType(name);
    t = t != null ? t : checking ? null : schema.type(name);
    return t != null && t.secret && !secrets ? null : t; // a hidden password is Undefined
  }

  /**
   * Returns attribute {@code i} of {@code e} if a filter item on {@code t} with {@code options}
   * looks at it, or null: another type, other options, or a password the client may not see.
   * An attribute of another type is not read.
   */
  private StoredAttribute candidate(StoredEntry e, int i, AttributeType t, String options) {
    AttributeType type = e.type(i);
    if (!type.isA(t) || (type.secret && !secrets)) {
      return null;
    }
    StoredAttribute a = e.attribute(i);
    return a.hasOptions(options) ? a : null;
  }

  /**
   * True if the filter is TRUE for {@code e}; items on passwords are Undefined unless
   * {@code secrets} (the client may see the entry's passwords).
   */
  boolean matches(Filter f, StoredEntry e, boolean secrets) {
    this.secrets = secrets;
    return eval(f, e) == TRUE;
  }

  int eval(Filter f, StoredEntry e) {
    return switch (f) {
      case Filter.And and -> and(and.filters(), e);
      case Filter.Or or -> or(or.filters(), e);
      case Filter.Not not -> {
        int r = eval(not.filter(), e);
        yield r == UNDEFINED ? UNDEFINED : 1 - r;
      }
      case Filter.Equality eq -> equality(eq.attribute(), eq.value(), e);
      case Filter.Approx ap -> approx(ap.attribute(), ap.value(), e);
      case Filter.Present p -> present(p.attribute(), e);
      case Filter.Substrings s -> substrings(s, e);
      case Filter.GreaterOrEqual ge -> ordering(ge.attribute(), ge.value(), e, true);
      case Filter.LessOrEqual le -> ordering(le.attribute(), le.value(), e, false);
      case Filter.Extensible x -> extensible(x, e);
    };
  }

  private int and(List<Filter> filters, StoredEntry e) {
    int result = TRUE;
    for (Filter f : filters) {
      int r = eval(f, e);
      if (r == FALSE) {
        return FALSE;
      }
      if (r == UNDEFINED) {
        result = UNDEFINED;
      }
    }
    return result;
  }

  private int or(List<Filter> filters, StoredEntry e) {
    int result = FALSE;
    for (Filter f : filters) {
      int r = eval(f, e);
      if (r == TRUE) {
        return TRUE;
      }
      if (r == UNDEFINED) {
        result = UNDEFINED;
      }
    }
    return result;
  }

  private int present(String description, StoredEntry e) {
    AttributeType t = type(description);
    if (t == null) {
      return UNDEFINED;
    }
    if (t.hasName(Selection.HAS_SUBORDINATES)) {
      return TRUE;
    }
    String options = StoredAttribute.options(description);
    for (int i = 0; i < e.attributeCount(); i++) {
      StoredAttribute a = candidate(e, i, t, options);
      if (a != null) {
        return TRUE;
      }
    }
    return FALSE;
  }

  private int equality(String description, ByteString value, StoredEntry e) {
    AttributeType t = type(description);
    if (t == null) {
      return UNDEFINED;
    }
    if (t.hasName(Selection.HAS_SUBORDINATES)) {
      return hasSubordinates(value, e);
    }
    MatchingRule rule = t.equality;
    if (rule == null) {
      return UNDEFINED;
    }
    Object key = rule.key(value, schema);
    if (key == null) {
      return UNDEFINED;
    }
    boolean objectClass = t.hasName("objectClass");
    String options = StoredAttribute.options(description);
    for (int j = 0; j < e.attributeCount(); j++) {
      StoredAttribute a = candidate(e, j, t, options);
      if (a == null) {
        continue;
      }
      // Keys are computed with the stored type's rule; a subtype may have another one.
      boolean sameRule = a.type.equality == rule;
      ByteString[] values = a.values();
      for (int i = 0; i < values.length; i++) {
        Object k = sameRule ? a.key(i) : rule.key(values[i], schema);
        if (key.equals(k) || (objectClass && isSubclass(k, key))) {
          return TRUE;
        }
      }
    }
    return FALSE;
  }

  /**
   * An approximate item: by sound on the values of types that have slapd's approximate rule
   * ({@link Approximate}), as equality on the others.
   */
  private int approx(String description, ByteString value, StoredEntry e) {
    AttributeType t = type(description);
    if (t == null || !Approximate.isPhonetic(t.equality)) {
      return equality(description, value, e);
    }
    if (value.isEmpty()) {
      return UNDEFINED; // not a directory string, as slapd's approximate rule reads it
    }
    String[] codes = Approximate.assertionCodes(value.utf8());
    String options = StoredAttribute.options(description);
    for (int j = 0; j < e.attributeCount(); j++) {
      StoredAttribute a = candidate(e, j, t, options);
      if (a == null) {
        continue;
      }
      for (ByteString v : a.values()) {
        if (Approximate.matches(v.utf8(), codes)) {
          return TRUE;
        }
      }
    }
    return FALSE;
  }

  private boolean isSubclass(Object storedOid, Object wantedOid) {
    if (!(storedOid instanceof String s) || !(wantedOid instanceof String w)) {
      return false;
    }
    ObjectClass stored = schema.objectClass(s);
    ObjectClass wanted = schema.objectClass(w);
    return stored != null && wanted != null && stored.isA(wanted);
  }

  private int hasSubordinates(ByteString value, StoredEntry e) {
    Object key = MatchingRules.get("booleanMatch").key(value, schema);
    if (key == null) {
      return UNDEFINED;
    }
    return key.equals(directory.hasChildren(e) ? "TRUE" : "FALSE") ? TRUE : FALSE;
  }

  private int ordering(String description, ByteString value, StoredEntry e, boolean greater) {
    AttributeType t = type(description);
    MatchingRule rule = t == null ? null : t.ordering;
    if (rule == null) {
      return UNDEFINED;
    }
    Object key = rule.key(value, schema);
    if (key == null) {
      return UNDEFINED;
    }
    String options = StoredAttribute.options(description);
    int result = FALSE;
    for (int j = 0; j < e.attributeCount(); j++) {
      StoredAttribute a = candidate(e, j, t, options);
      if (a == null) {
        continue;
      }
      for (ByteString v : a.values()) {
        Object k = rule.key(v, schema);
        if (k == null) {
          result = UNDEFINED;
          continue;
        }
        int c = rule.compare(k, key);
        if (greater ? c >= 0 : c <= 0) {
          return TRUE;
        }
      }
    }
    return result;
  }

  private int substrings(Filter.Substrings s, StoredEntry e) {
    AttributeType t = type(s.attribute());
    MatchingRule rule = t == null ? null : t.substr;
    if (rule == null || !rule.isSubstringRule()) {
      return UNDEFINED;
    }
    String initial = s.initial() == null ? null : rule.piece(s.initial());
    String fin = s.finalValue() == null ? null : rule.piece(s.finalValue());
    String[] any = new String[s.any().size()];
    for (int i = 0; i < any.length; i++) {
      any[i] = rule.piece(s.any().get(i));
      if (any[i] == null) {
        return UNDEFINED;
      }
    }
    if ((s.initial() != null && initial == null) || (s.finalValue() != null && fin == null)) {
      return UNDEFINED;
    }
    String options = StoredAttribute.options(s.attribute());
    for (int j = 0; j < e.attributeCount(); j++) {
      StoredAttribute a = candidate(e, j, t, options);
      if (a == null) {
        continue;
      }
      for (ByteString v : a.values()) {
        Object k = rule.key(v, schema);
        if (k instanceof String text && substringsMatch(text, initial, any, fin)) {
          return TRUE;
        }
      }
    }
    return FALSE;
  }

  static boolean substringsMatch(String text, String initial, String[] any, String fin) {
    int from = 0;
    int end = text.length();
    if (initial != null) {
      if (!text.startsWith(initial)) {
        return false;
      }
      from = initial.length();
    }
    if (fin != null) {
      if (!text.endsWith(fin) || text.length() - fin.length() < from) {
        return false;
      }
      end = text.length() - fin.length();
    }
    for (String piece : any) {
      int at = text.indexOf(piece, from);
      if (at < 0 || at + piece.length() > end) {
        return false;
      }
      from = at + piece.length();
    }
    return true;
  }

  private int extensible(Filter.Extensible x, StoredEntry e) {
    AttributeType t = x.attribute() == null ? null : type(x.attribute());
    if (x.attribute() != null && t == null) {
      return UNDEFINED;
    }
    MatchingRule rule = x.matchingRule() != null ? MatchingRules.get(x.matchingRule())
        : t == null || !MatchingRuleUse.isExtensible(t.equality) ? null : t.equality;
    if (rule == null || (t != null && !MatchingRuleUse.appliesTo(rule, t))) {
      return UNDEFINED;
    }
    Object key = rule.key(x.value(), schema);
    if (key == null) {
      return UNDEFINED;
    }
    for (int j = 0; j < e.attributeCount(); j++) {
      AttributeType type = e.type(j);
      if ((t != null ? !type.isA(t) : !MatchingRuleUse.appliesTo(rule, type))
          || (type.secret && !secrets)) {
        continue;
      }
      for (ByteString v : e.attribute(j).values()) {
        if (extensibleMatch(rule, rule.key(v, schema), key)) {
          return TRUE;
        }
      }
    }
    if (x.dnAttributes() && dnMatches(e.dn(), t, rule, key)) {
      return TRUE;
    }
    return FALSE;
  }

  /**
   * True if a value (its key under the rule) matches an extensible item's assertion: equal
   * under an equality rule; less than it under an ordering rule (X.501, as slapd does it).
   */
  private static boolean extensibleMatch(MatchingRule rule, Object valueKey, Object key) {
    if (valueKey == null) {
      return false;
    }
    return rule.isOrdering() ? rule.compare(valueKey, key) < 0 : key.equals(valueKey);
  }

  private boolean dnMatches(Dn dn, AttributeType t, MatchingRule rule, Object key) {
    for (Dn.Rdn rdn : dn.rdns()) {
      for (Dn.Ava ava : rdn.avas()) {
        AttributeType type = schema.type(ava.type());
        if ((t == null ? MatchingRuleUse.appliesTo(rule, type) : type.isA(t))
            && extensibleMatch(rule, rule.key(ava.value(), schema), key)) {
          return true;
        }
      }
    }
    return false;
  }
}
