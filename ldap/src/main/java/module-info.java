/** LDAPv3 protocol messages, filters, DNs, codec, client connection and pool, and LDIF. */
module dev.ferry.ldap {
  requires transitive dev.ferry.asn1;
  requires transitive java.security.sasl;
  // LdapPool's metrics; loaded only when an application gives the pool a MeterRegistry
  requires static micrometer.core;
  // spans of operations, through the OpenTelemetry API only
  requires transitive io.opentelemetry.api;
  requires io.opentelemetry.context;

  exports dev.ferry.ldap;
  exports dev.ferry.ldap.internal to dev.ferry.ldap.server;
}
