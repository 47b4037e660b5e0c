package dev.ferry.ldap;

/** When a search dereferences aliases (RFC 4511 section 4.5.1.3). */
public enum DerefAliases {
  NEVER, IN_SEARCHING, FINDING_BASE_OBJECT, ALWAYS;

  /** Returns the protocol value. */
  public int value() {
    return ordinal();
  }
}
