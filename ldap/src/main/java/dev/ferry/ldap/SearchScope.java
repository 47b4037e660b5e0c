package dev.ferry.ldap;

/** The scope of a search (RFC 4511 section 4.5.1.2, and subordinates from the draft). */
public enum SearchScope {
  BASE_OBJECT, SINGLE_LEVEL, WHOLE_SUBTREE, SUBORDINATE_SUBTREE;

  /** Returns the protocol value. */
  public int value() {
    return ordinal();
  }
}
