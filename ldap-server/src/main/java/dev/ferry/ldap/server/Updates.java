package dev.ferry.ldap.server;

import dev.ferry.bytes.ByteString;
import dev.ferry.ldap.Attribute;
import dev.ferry.ldap.Dn;
import dev.ferry.ldap.Modification;
import dev.ferry.ldap.ResultCode;
import dev.ferry.ldap.server.EntryFactory.Draft;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The update operations (RFC 4511 sections 4.6 to 4.10) and compare, with the result codes
 * RFC 4511 and slapd give. Each update checks everything before it changes anything, under the
 * directory's write lock, so that it applies whole or not at all; a client's update is committed
 * before its method returns ({@link Directory#update}).
 *
 * <p>Each takes what the caller may see: an entry it may not see is missing to it, so the
 * answers (result code, matched DN, message) for a hidden and for a missing entry are alike.
 */
final class Updates {
  private final Directory directory;
  private final EntryFactory factory;
  private final int maxEntries;

  Updates(Directory directory, EntryFactory factory, int maxEntries) {
    this.directory = directory;
    this.factory = factory;
    this.maxEntries = maxEntries;
  }

  static Dn parseDn(String text) throws OperationException {
    try {
      return Dn.parse(text);
    } catch (IllegalArgumentException e) {
      throw new OperationException(ResultCode.INVALID_DN_SYNTAX, "invalid DN: "
          + e.getMessage());
    }
  }

  /** What a caller that may see everything sees (an LDIF loaded at start). */
  static final Predicate<StoredEntry> EVERYTHING = e -> true;

  /** Adds an entry; {@code imported} entries (loaded at start) keep operational attributes. */
  void add(String dnText, List<Attribute> attributes, String by, boolean imported,
      Predicate<StoredEntry> visible) throws OperationException {
    directory.update(c -> add(c, dnText, attributes, by, imported, visible));
  }

  /** Adds an entry as part of a change (an import adds many in one). */
  void add(Directory.Change c, String dnText, List<Attribute> attributes, String by,
      boolean imported, Predicate<StoredEntry> visible) throws OperationException {
    Dn dn = parseDn(dnText);
    if (dn.isRoot()) {
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "the root DSE cannot be"
          + " added");
    }
    String key = directory.schema.normalize(dn);
    if (c.get(key) != null) {
      throw new OperationException(ResultCode.ENTRY_ALREADY_EXISTS, "entry " + dn
          + " already exists");
    }
    checkParent(c, dn, key, visible);
    if (c.size() >= maxEntries) {
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM,
          "LdapServerLimits.maxEntries reached: " + maxEntries + " entries");
    }
    c.put(factory.create(dn, attributes, by, imported));
  }

  private void checkParent(Directory.View v, Dn dn, String key, Predicate<StoredEntry> visible)
      throws OperationException {
    StoredEntry parent = dn.rdns().size() > 1 ? v.get(dn.parent()) : null;
    if (parent != null && visible.test(parent)) {
      return;
    }
    if (!directory.mayBeRoot(key)) {
      throw new OperationException(ResultCode.NO_SUCH_OBJECT, "parent of " + dn
          + " does not exist", v.matchedDn(dn, visible));
    }
  }

  void delete(String dnText, Predicate<StoredEntry> visible) throws OperationException {
    directory.update(c -> delete(c, dnText, visible));
  }

  void delete(Directory.Change c, String dnText, Predicate<StoredEntry> visible)
      throws OperationException {
    StoredEntry e = c.visible(parseDn(dnText), visible);
    if (c.hasChildren(e)) {
      throw new OperationException(ResultCode.NOT_ALLOWED_ON_NON_LEAF, "subordinate objects"
          + " must be deleted first");
    }
    c.remove(e.key);
  }

  void modify(String dnText, List<Modification> changes, String by,
      Predicate<StoredEntry> visible) throws OperationException {
    directory.update(c -> modify(c, dnText, changes, by, visible));
  }

  void modify(Directory.Change c, String dnText, List<Modification> changes, String by,
      Predicate<StoredEntry> visible) throws OperationException {
    StoredEntry e = c.visible(parseDn(dnText), visible);
    Map<String, Draft> drafts = factory.drafts(e);
    for (Modification m : changes) {
      apply(m, drafts, e.dn());
    }
    c.put(factory.change(e, e.dn(), drafts, by));
  }

  private void apply(Modification m, Map<String, Draft> drafts, Dn dn)
      throws OperationException {
    Attribute a = m.attribute();
    AttributeType t = factory.type(a.description());
    if (t.noUserModification) {
      throw new OperationException(ResultCode.CONSTRAINT_VIOLATION, a.description()
          + ": no user modification allowed");
    }
    Draft probe = new Draft(t, EntryFactory.canonical(t, a.description()));
    Draft d = drafts.get(probe.id());
    switch (m.type()) {
      case ADD -> add(a, t, d == null ? put(drafts, probe) : d);
      case DELETE -> delete(a, t, drafts, d, dn);
      case REPLACE -> replace(a, t, drafts, probe, dn);
      case INCREMENT -> increment(a, d);
    }
  }

  private static Draft put(Map<String, Draft> drafts, Draft d) {
    drafts.put(d.id(), d);
    return d;
  }

  private void add(Attribute a, AttributeType t, Draft d)
      throws OperationException {
    if (a.size() == 0) {
      throw new OperationException(ResultCode.PROTOCOL_ERROR, "modify/add: " + a.description()
          + ": no values given");
    }
    addValues(a, t, d, "modify/add", "already exists");
  }

  /** Adds the values of {@code a} to {@code d}, refusing one that {@code d} has already. */
  private void addValues(Attribute a, AttributeType t, Draft d, String operation,
      String duplicate) throws OperationException {
    for (int i = 0; i < a.size(); i++) {
      ByteString v = factory.pretty(t, a.value(i));
      Object key = factory.key(t, v);
      if (d.indexOf(v, key) >= 0) {
        throw new OperationException(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, operation + ": "
            + a.description() + ": value #" + i + " " + duplicate);
      }
      d.add(v, key);
    }
  }

  private void delete(Attribute a, AttributeType t, Map<String, Draft> drafts, Draft d, Dn dn)
      throws OperationException {
    if (d == null || d.values.isEmpty()) {
      throw new OperationException(ResultCode.NO_SUCH_ATTRIBUTE, "modify/delete: "
          + a.description() + ": no such attribute");
    }
    if (a.size() == 0) {
      checkNotRdn(t, d.values, dn);
      drafts.remove(d.id());
      return;
    }
    for (int i = 0; i < a.size(); i++) {
      ByteString v = a.value(i);
      int at = d.indexOf(v, factory.key(t, v));
      if (at < 0) {
        throw new OperationException(ResultCode.NO_SUCH_ATTRIBUTE, "modify/delete: "
            + a.description() + ": no such value");
      }
      checkNotRdn(t, List.of(v), dn);
      d.remove(at);
    }
    if (d.values.isEmpty()) {
      drafts.remove(d.id());
    }
  }

  private void replace(Attribute a, AttributeType t, Map<String, Draft> drafts, Draft fresh,
      Dn dn) throws OperationException {
    Draft old = drafts.remove(fresh.id());
    if (a.size() == 0) {
      if (old != null) {
        checkNotRdn(t, old.values, dn);
      }
      return;
    }
    addValues(a, t, fresh, "modify/replace", "provided more than once");
    if (old != null) {
      for (ByteString v : old.values) {
        if (fresh.indexOf(v, factory.key(t, v)) < 0) {
          checkNotRdn(t, List.of(v), dn);
        }
      }
    }
    put(drafts, fresh);
  }

  private void increment(Attribute a, Draft d) throws OperationException {
    if (d == null || d.values.isEmpty()) {
      throw new OperationException(ResultCode.NO_SUCH_ATTRIBUTE, "modify/increment: "
          + a.description() + ": no such attribute");
    }
    BigInteger by = a.size() == 1 ? MatchingRules.integer(a.value(0).utf8().strip()) : null;
    if (by == null) {
      throw new OperationException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, "modify/increment: "
          + a.description() + ": invalid syntax of value");
    }
    List<ByteString> values = new ArrayList<>(d.values);
    for (int i = 0; i < values.size(); i++) {
      BigInteger v = MatchingRules.integer(values.get(i).utf8().strip());
      if (v == null) {
        throw new OperationException(ResultCode.CONSTRAINT_VIOLATION, "modify/increment: "
            + a.description() + ": value #" + i + " is not an integer");
      }
      ByteString next = ByteString.encodeUtf8(v.add(by).toString());
      d.values.set(i, next);
      d.keys.set(i, factory.key(d.type, next));
    }
  }

  /** RDN values may not be removed by a modify (RFC 4511 section 4.6). */
  private void checkNotRdn(AttributeType t, List<ByteString> values, Dn dn)
      throws OperationException {
    if (dn.isRoot()) {
      return;
    }
    for (Dn.Ava ava : dn.rdns().get(0).avas()) {
      if (!factory.type(ava.type()).isA(t) || !t.isA(factory.type(ava.type()))) {
        continue;
      }
      Object rdnKey = factory.key(t, ava.value());
      for (ByteString v : values) {
        Object k = factory.key(t, v);
        if (rdnKey != null ? rdnKey.equals(k) : v.equals(ava.value())) {
          throw new OperationException(ResultCode.NOT_ALLOWED_ON_RDN, "cannot remove the"
              + " naming value of '" + ava.type() + "'");
        }
      }
    }
  }

  void modifyDn(String dnText, String newRdnText, boolean deleteOldRdn, String newSuperior,
      String by, Predicate<StoredEntry> visible) throws OperationException {
    directory.update(c -> modifyDn(c, dnText, newRdnText, deleteOldRdn, newSuperior, by,
        visible));
  }

  void modifyDn(Directory.Change c, String dnText, String newRdnText, boolean deleteOldRdn,
      String newSuperior, String by, Predicate<StoredEntry> visible)
      throws OperationException {
    Dn dn = parseDn(dnText);
    Dn.Rdn newRdn = rdn(newRdnText);
    StoredEntry e = c.visible(dn, visible);
    Dn parent = newSuperior != null ? parseDn(newSuperior) : dn.rdns().size() > 1
        ? dn.parent() : Dn.ROOT;
    StoredEntry superior = parent.isRoot() ? null : c.get(parent);
    if (newSuperior != null && !parent.isRoot()
        && (superior == null || !visible.test(superior))) {
      throw new OperationException(ResultCode.NO_SUCH_OBJECT, "new superior " + parent
          + " does not exist", c.matchedDn(parent, visible));
    }
    Dn target = parent.child(newRdn);
    String targetKey = directory.schema.normalize(target);
    if (targetKey.startsWith(e.key + Schema.RDN_SEPARATOR)) {
      throw new OperationException(ResultCode.UNWILLING_TO_PERFORM, "new superior is"
          + " subordinate to the entry");
    }
    StoredEntry there = c.get(targetKey);
    if (there != null && !there.key.equals(e.key)) {
      throw new OperationException(ResultCode.ENTRY_ALREADY_EXISTS, "entry " + target
          + " already exists");
    }
    if (parent.isRoot() && !directory.mayBeRoot(targetKey)) {
      throw new OperationException(ResultCode.NO_SUCH_OBJECT, "no parent for " + target);
    }
    Map<String, Draft> drafts = factory.drafts(e);
    rename(drafts, dn, newRdn, deleteOldRdn);
    StoredEntry renamed = factory.change(e, target, drafts, by);
    move(c, e, renamed);
  }

  private static Dn.Rdn rdn(String text) throws OperationException {
    Dn parsed = parseDn(text);
    if (parsed.rdns().size() != 1) {
      throw new OperationException(ResultCode.INVALID_DN_SYNTAX, "new RDN " + text
          + " is not one RDN");
    }
    return parsed.rdns().get(0);
  }

  /** Adds the new RDN's values, and removes the old RDN's if asked (RFC 4511 4.9). */
  private void rename(Map<String, Draft> drafts, Dn dn, Dn.Rdn newRdn, boolean deleteOld)
      throws OperationException {
    if (deleteOld && !dn.isRoot()) {
      for (Dn.Ava old : dn.rdns().get(0).avas()) {
        AttributeType t = factory.type(old.type());
        Draft d = drafts.get(t.key);
        int at = d == null ? -1 : d.indexOf(old.value(), factory.key(t, old.value()));
        if (at >= 0 && !inRdn(newRdn, t, old.value())) {
          d.remove(at);
          if (d.values.isEmpty()) {
            drafts.remove(d.id());
          }
        }
      }
    }
    for (Dn.Ava ava : newRdn.avas()) {
      AttributeType t = factory.type(ava.type());
      Draft d = drafts.get(t.key);
      if (d == null) {
        d = put(drafts, new Draft(t, EntryFactory.canonical(t, ava.type())));
      }
      Object key = factory.key(t, ava.value());
      if (d.indexOf(ava.value(), key) < 0) {
        d.add(ava.value(), key);
      }
    }
  }

  private boolean inRdn(Dn.Rdn rdn, AttributeType t, ByteString value) throws OperationException {
    for (Dn.Ava ava : rdn.avas()) {
      if (factory.type(ava.type()).isA(t) && t.isA(factory.type(ava.type()))
          && factory.key(t, ava.value()) != null
          && factory.key(t, ava.value()).equals(factory.key(t, value))) {
        return true;
      }
    }
    return false;
  }

  /** Replaces {@code old} by {@code renamed}, moving its subtree under the new DN. */
  private void move(Directory.Change c, StoredEntry old, StoredEntry renamed) {
    List<StoredEntry> subtree = c.subtree(old.key);
    for (StoredEntry s : subtree) {
      c.remove(s.key);
    }
    c.put(renamed);
    int depth = old.dn().rdns().size();
    for (StoredEntry s : subtree) {
      if (s.key.equals(old.key)) {
        continue;
      }
      List<Dn.Rdn> rdns = new ArrayList<>(s.dn().rdns().subList(0,
          s.dn().rdns().size() - depth));
      rdns.addAll(renamed.dn().rdns());
      c.put(factory.moved(s, new Dn(rdns)));
    }
  }

  /** Returns true for compareTrue (RFC 4511 section 4.10). */
  boolean compare(String dnText, String description, ByteString value,
      Predicate<StoredEntry> visible, Predicate<StoredEntry> secrets) throws OperationException {
    try (Directory.View v = directory.read()) {
      return compare(v.visible(parseDn(dnText), visible), description, value, secrets);
    }
  }

  private boolean compare(StoredEntry e, String description, ByteString value,
      Predicate<StoredEntry> secrets) throws OperationException {
    AttributeType t = factory.type(description);
    if (t.secret && !secrets.test(e)) {
      throw new OperationException(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, "no compare access"
          + " to " + description);
    }
    if (t.equality == null) {
      throw new OperationException(ResultCode.INAPPROPRIATE_MATCHING, description
          + " has no equality matching rule");
    }
    Object key = t.equality.key(value, directory.schema);
    if (key == null) {
      throw new OperationException(ResultCode.INVALID_ATTRIBUTE_SYNTAX, description
          + ": assertion value invalid per syntax");
    }
    String options = StoredAttribute.options(description);
    boolean seen = false;
    for (int i = 0; i < e.attributeCount(); i++) {
      StoredAttribute a = e.type(i).isA(t) ? e.attribute(i) : null;
      if (a == null || !a.hasOptions(options)) {
        continue;
      }
      seen = true;
      for (ByteString v : a.values()) {
        if (key.equals(t.equality.key(v, directory.schema))) {
          return true;
        }
      }
    }
    if (!seen) {
      throw new OperationException(ResultCode.NO_SUCH_ATTRIBUTE, description
          + ": no such attribute");
    }
    return false;
  }
}
