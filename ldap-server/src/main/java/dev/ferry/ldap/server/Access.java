package dev.ferry.ldap.server;

import dev.ferry.ldap.Dn;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link AccessRules} with their DNs turned into keys of the server's schema, asked on every
 * entry a search returns and on every change. A bound key of "" is anonymous.
 */
final class Access {
  private record Compiled(AccessRules.Binders binders, String binder, String subtree,
      AccessRules.Level level) {}

  private final boolean anonymousRead;
  private final List<Compiled> rules;
  private final String rootKey;

  Access(AccessRules rules, Schema schema, String rootKey) {
    this.anonymousRead = rules.anonymousRead;
    this.rootKey = rootKey;
    List<Compiled> compiled = new ArrayList<>();
    for (AccessRules.Rule r : rules.rules) {
      compiled.add(new Compiled(r.binders(), r.binder() == null ? null : schema.normalize(
          Dn.parse(r.binder())), schema.normalize(Dn.parse(r.subtree())), r.level()));
    }
    this.rules = List.copyOf(compiled);
  }

  boolean isRoot(String boundKey) {
    return rootKey != null && rootKey.equals(boundKey);
  }

  boolean canRead(String boundKey, StoredEntry e) {
    return allows(boundKey, e.key, AccessRules.Level.READ);
  }

  boolean canWrite(String boundKey, String entryKey) {
    return allows(boundKey, entryKey, AccessRules.Level.WRITE);
  }

  /** True if the client may see the entry's passwords (in results, filters and compares). */
  boolean canSeeSecrets(String boundKey, StoredEntry e) {
    return allows(boundKey, e.key, AccessRules.Level.MANAGE);
  }

  private boolean allows(String boundKey, String entryKey, AccessRules.Level level) {
    if (isRoot(boundKey)) {
      return true;
    }
    boolean anonymous = boundKey.isEmpty();
    if (anonymous && level == AccessRules.Level.READ && anonymousRead) {
      return true;
    }
    if (!anonymous && rules.isEmpty()) {
      return level != AccessRules.Level.MANAGE; // passwords stay secret without rules too
    }
    for (Compiled r : rules) {
      if (r.level.compareTo(level) >= 0 && within(entryKey, r.subtree)
          && covers(r, boundKey)) {
        return true;
      }
    }
    return false;
  }

  private static boolean covers(Compiled r, String boundKey) {
    return switch (r.binders) {
      case ANONYMOUS -> boundKey.isEmpty();
      case BOUND -> !boundKey.isEmpty();
      case DN -> boundKey.equals(r.binder);
      case SUBTREE -> !boundKey.isEmpty() && within(boundKey, r.binder);
    };
  }

  private static boolean within(String key, String subtree) {
    return subtree.isEmpty() || key.equals(subtree)
        || key.startsWith(subtree + Schema.RDN_SEPARATOR);
  }
}
