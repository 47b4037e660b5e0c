/** LDAPv3 (RFC 4511): messages, filters (RFC 4515), DNs (RFC 4514), codec and connection. */
package dev.ferry.ldap;
