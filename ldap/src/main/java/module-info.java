/** LDAPv3 protocol messages, filters, DNs, codec, client connection and pool, and LDIF. */
module dev.ferry.ldap {
  requires transitive dev.ferry.asn1;
  requires transitive java.security.sasl;
  // LdapPool's metrics; loaded only when an application gives the pool a MeterRegistry
  requires static micrometer.core;

  exports dev.ferry.ldap;
}
