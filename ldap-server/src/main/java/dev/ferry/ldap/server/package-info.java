/**
 * An in-memory LDAPv3 directory server on Ferry's codec: start with {@link
 * dev.ferry.ldap.server.LdapServer#builder()}; in JUnit 5 tests, {@link
 * dev.ferry.ldap.server.LdapServerExtension} and {@link
 * dev.ferry.ldap.server.DirectoryAssertions}. See docs/ldap.md.
 */
package dev.ferry.ldap.server;
