package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.SortControl;
import dev.ferry.ldap.VirtualListView;
import java.util.ArrayList;
import java.util.List;

/**
 * A search's server-side sort (RFC 2891) and virtual list view (draft-ietf-ldapext-ldapv3-vlv-09),
 * as slapd's sssvlv overlay gives them: the matching entries' keys are gathered with their sort
 * values, sorted, and then written in order, a page or a window at a time. A sort value is a
 * value as the attribute's equality rule prepares it (as slapd stores it), ordered by the key's
 * ordering rule: sorting {@code cn} by caseExactOrderingMatch orders case-ignored values, as in
 * slapd. Each sort key takes an entry's least value of the attribute (also when reversed); an
 * entry without one sorts after those with one, or before them when reversed; entries that tie
 * keep the order the search found them in (the order of their DNs' keys).
 */
final class Sorting {
  /** Sort keys a request may have (slapd's default). */
  static final int MAX_KEYS = 5;

  private final AttributeType[] types;
  private final MatchingRule[] rules;
  private final int[] directions;
  private final Schema schema;
  private final List<Sorted> found = new ArrayList<>();

  /** An entry's key and its sort values (null where it has none). */
  private record Sorted(String key, Object[] values) {}

  private Sorting(AttributeType[] types, MatchingRule[] rules, int[] directions,
      Schema schema) {
    this.types = types;
    this.rules = rules;
    this.directions = directions;
    this.schema = schema;
  }

  /**
   * Resolves a sort control's keys as slapd does.
   *
   * @throws OperationException unwillingToPerform past {@value #MAX_KEYS} keys, noSuchAttribute
   *     for a type the schema does not define, inappropriateMatching for a key without an
   *     ordering rule (none named and the type has none, or the named one is unknown)
   */
  static Sorting of(SortControl control, Schema schema) throws OperationException {
    List<SortControl.Key> keys = control.keys();
    int n = keys.size();
    AttributeType[] types = new AttributeType[n];
    MatchingRule[] rules = new MatchingRule[n];
    int[] directions = new int[n];
    for (int i = 0; i < n; i++) {
      SortControl.Key k = keys.get(i);
      types[i] = schema.definedType(k.attribute());
      if (types[i] == null) {
        throw new OperationException(ResultCode.NO_SUCH_ATTRIBUTE, "serverSort control:"
            + " Unrecognized attribute type in sort key");
      }
      rules[i] = k.orderingRule() != null ? MatchingRules.get(k.orderingRule())
          : types[i].ordering;
      if (rules[i] == null) {
        throw new OperationException(ResultCode.INAPPROPRIATE_MATCHING, "serverSort control:"
            + " No ordering rule");
      }
      directions[i] = k.reverse() ? -1 : 1;
    }
    if (n > MAX_KEYS) { // checked after the keys, as slapd checks it
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "Too many sort keys");
    }
    return new Sorting(types, rules, directions, schema);
  }

  /** Gathers an entry that matched. */
  void add(StoredEntry e) {
    Object[] values = new Object[types.length];
    for (int i = 0; i < types.length; i++) {
      values[i] = least(e, i);
    }
    found.add(new Sorted(e.key, values));
  }

  /** The least value of key {@code i}'s attribute (its own type, no options), or null. */
  private Object least(StoredEntry e, int i) {
    Object least = null;
    for (int j = 0; j < e.attributeCount(); j++) {
      if (e.type(j) != types[i] || e.type(j).secret) {
        continue;
      }
      StoredAttribute a = e.attribute(j);
      if (!a.hasOptions("")) {
        continue;
      }
      MatchingRule normalizer = types[i].equality != null ? types[i].equality : rules[i];
      for (ByteString v : a.values()) {
        Object k = normalizer.key(v, schema);
        if (k != null && (least == null || rules[i].compare(k, least) < 0)) {
          least = k;
        }
      }
    }
    return least;
  }

  /** The entries gathered, sorted: their keys. */
  List<String> sorted() {
    found.sort(this::compare); // stable: ties keep the order they were found in
    List<String> keys = new ArrayList<>(found.size());
    for (Sorted s : found) {
      keys.add(s.key);
    }
    return keys;
  }

  private int compare(Sorted a, Sorted b) {
    for (int i = 0; i < types.length; i++) {
      int c = compareKey(i, a.values[i], b.values[i]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Compares two values of key {@code i}, null (no value) after any other, as slapd. */
  private int compareKey(int i, Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : directions[i]) : -directions[i];
    }
    return Integer.signum(rules[i].compare(a, b)) * directions[i];
  }

  /** A window of the sorted list and the response control's value. */
  record Window(int from, int to, VirtualListView.Result result) {}

  /**
   * The window a virtual list view asks for, over {@link #sorted} (which it follows), as
   * slapd's sssvlv computes it; {@code from} to {@code to} (exclusive) are list indexes.
   */
  Window window(VirtualListView v) {
    int n = found.size();
    if (n == 0) {
      return new Window(0, 0, new VirtualListView.Result(0, 0, 0, null));
    }
    int target;
    int current; // index of the target entry, or -1 past the list's end
    if (v.assertion() == null) {
      if (v.offset() == v.contentCount()) {
        target = n; // the last entry
      } else if (v.offset() == 1) {
        target = 1;
      } else if (v.contentCount() != 0 && v.contentCount() != n) {
        if (v.offset() > v.contentCount()) {
          return rangeError(n);
        }
        target = (int) ((long) n * v.offset() / v.contentCount());
      } else {
        if (v.offset() > n) {
          return rangeError(n);
        }
        target = v.offset();
      }
      current = target < n / 2 ? Math.max(target - 1, 0) : target - 1;
    } else {
      Object asserted = rules[0].key(v.assertion(), schema);
      if (asserted == null) {
        return new Window(0, 0, new VirtualListView.Result(0, n,
            ResultCode.INAPPROPRIATE_MATCHING.value(), null));
      }
      current = -1;
      for (int i = 0; i < n && current < 0; i++) {
        if (compareKey(0, found.get(i).values[0], asserted) >= 0) {
          current = i;
        }
      }
      target = current < 0 ? n + 1 : current + 1;
    }
    int moved = 0;
    if (current < 0) {
      current = n - 1; // past the end: the window ends with the last entry
      moved = 1;
    }
    for (; moved < v.beforeCount() && current > 0; moved++) {
      current--;
    }
    int to = (int) Math.min(n, (long) current + moved + v.afterCount() + 1);
    return new Window(current, to, new VirtualListView.Result(target, n, 0, null));
  }

  private static Window rangeError(int n) {
    return new Window(0, 0, new VirtualListView.Result(0, n,
        VirtualListView.OFFSET_RANGE_ERROR, null));
  }
}
