/** An LDAP directory server, in memory or durable, on Ferry's codec, with a JUnit 5 extension. */
module dev.ferry.ldap.server {
  requires transitive dev.ferry.ldap;
  requires static org.junit.jupiter.api;
  requires lmdbjava;

  exports dev.ferry.ldap.server;
}
