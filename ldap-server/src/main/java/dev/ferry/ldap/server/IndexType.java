package dev.ferry.ldap.server;

/**
 * What an attribute is indexed for ({@link LdapServer.Builder#index}), as slapd's
 * {@code olcDbIndex} names them: {@code eq}, {@code pres}, {@code sub} and ordering.
 */
public enum IndexType {
  /**
   * Equality items ({@code (uid=bjensen)}), and approximate ones on types that have no
   * approximate rule of their own (those that match by sound are not narrowed).
   */
  EQUALITY,
  /** Presence items ({@code (mail=*)}). */
  PRESENCE,
  /** Substrings items ({@code (cn=*jens*)}), by three-character pieces of prepared text. */
  SUBSTRING,
  /** Greater-or-equal and less-or-equal items, by the ordering rule. */
  ORDERING
}
