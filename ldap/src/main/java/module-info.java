/** LDAPv3 protocol messages, filters, DNs, codec and client connection. */
module dev.ferry.ldap {
  requires transitive dev.ferry.asn1;
  requires transitive java.security.sasl;

  exports dev.ferry.ldap;
}
