/**
 * A Spring Boot starter for LDAP on Ferry: an embedded directory from
 * {@code ferry.ldap.embedded.*} and an {@code LdapPool} bean from {@code ferry.ldap.pool.*}.
 */
package dev.ferry.spring.boot.ldap;
