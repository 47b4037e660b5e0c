/**
 * LDAPv3 (RFC 4511): messages, filters (RFC 4515), DNs (RFC 4514), codec and connection; LDIF
 * (RFC 2849: {@link dev.ferry.ldap.LdifReader}, {@link dev.ferry.ldap.LdifWriter}) and a
 * connection pool ({@link dev.ferry.ldap.LdapPool}). Start with {@link
 * dev.ferry.ldap.LdapConnection#connect(String, int)}.
 */
package dev.ferry.ldap;
