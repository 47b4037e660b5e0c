/** An in-memory LDAP directory server on Ferry's codec, with a JUnit 5 extension. */
module dev.ferry.ldap.server {
  requires transitive dev.ferry.ldap;
  requires static org.junit.jupiter.api;

  exports dev.ferry.ldap.server;
}
