package dev.ferry.ldap.server;

import dev.ferry.ldap.LdifRecord;

/**
 * Applies LDIF records to a directory as its own content (operational attributes kept, nothing
 * checked against access rules), many records to a change: an LDIF loaded at start, or an
 * import into a durable store, which commits every {@value #RECORDS_PER_CHANGE} records.
 */
final class Loader {
  static final int RECORDS_PER_CHANGE = 10_000;

  private final Dsa dsa;
  private final String creator;
  private Directory.Change change;
  private int pending;
  private long applied;

  Loader(Dsa dsa, String creator) {
    this.dsa = dsa;
    this.creator = creator;
  }

  /**
   * @throws IllegalArgumentException if the record cannot be applied, naming it and why; the
   *     change under way is dropped
   */
  void load(LdifRecord r) {
    if (change == null) {
      change = dsa.directory.change();
    }
    try {
      apply(change, r);
    } catch (OperationException e) {
      change.close();
      change = null;
      throw new IllegalArgumentException("LDIF record " + r.dn() + ": "
          + e.result.resultCode().name() + ": " + e.result.diagnosticMessage(), e);
    } catch (RuntimeException e) {
      change.close();
      change = null;
      throw e;
    }
    applied++;
    if (++pending == RECORDS_PER_CHANGE) {
      commit();
    }
  }

  /** Commits what is pending; returns the number of records applied in all. */
  long finish() {
    if (change != null) {
      commit();
    }
    return applied;
  }

  private void commit() {
    try {
      change.commit();
    } finally {
      change.close();
      change = null;
      pending = 0;
    }
  }

  private void apply(Directory.Change c, LdifRecord r) throws OperationException {
    Updates u = dsa.updates;
    switch (r) {
      case LdifRecord.Entry e -> u.add(c, e.dn(), e.attributes(), creator,
          true, Updates.EVERYTHING);
      case LdifRecord.Add a -> u.add(c, a.dn(), a.attributes(), creator, true,
          Updates.EVERYTHING);
      case LdifRecord.Delete d -> u.delete(c, d.dn(), Updates.EVERYTHING);
      case LdifRecord.Modify m -> u.modify(c, m.dn(), m.modifications(), creator,
          Updates.EVERYTHING);
      case LdifRecord.ModifyDn m -> u.modifyDn(c, m.dn(), m.newRdn(), m.deleteOldRdn(),
          m.newSuperior(), creator, Updates.EVERYTHING);
    }
  }
}
