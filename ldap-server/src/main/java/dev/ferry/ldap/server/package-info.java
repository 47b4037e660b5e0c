/**
 * An LDAPv3 directory server on Ferry's codec, in memory or kept on disk in LMDB: start with
 * {@link dev.ferry.ldap.server.LdapServer#builder()} (and {@code storage(dir)} to keep the
 * directory); in JUnit 5 tests, {@link dev.ferry.ldap.server.LdapServerExtension} and {@link
 * dev.ferry.ldap.server.DirectoryAssertions}. See docs/ldap.md.
 */
package dev.ferry.ldap.server;
