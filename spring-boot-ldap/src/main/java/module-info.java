/**
 * A Spring Boot starter for LDAP on Ferry: an embedded directory and a pool of connections
 * from properties, with metrics, health and Spring LDAP over the directory.
 */
module dev.ferry.spring.boot.ldap {
  requires dev.ferry.ldap;
  requires dev.ferry.spring.boot;
  requires micrometer.core;
  requires spring.beans;
  requires spring.boot.autoconfigure;
  requires spring.context;
  requires spring.core;
  requires static dev.ferry.ldap.server;
  requires static spring.boot.health;
  requires static spring.boot.ldap;

  exports dev.ferry.spring.boot.ldap;
  opens dev.ferry.spring.boot.ldap to spring.core, spring.beans, spring.context;
}
