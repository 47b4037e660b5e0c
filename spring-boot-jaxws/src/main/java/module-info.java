/**
 * A Spring Boot starter that serves an application's JAX-WS endpoints on Ferry's runtime, in
 * Boot's embedded servlet container or on Ferry's own server.
 */
module dev.ferry.spring.boot.jaxws {
  requires dev.ferry.jaxws;
  requires dev.ferry.spring.boot;
  requires io.opentelemetry.api;
  requires spring.beans;
  requires spring.boot.autoconfigure;
  requires spring.context;
  requires spring.core;
  requires static spring.boot.health;

  exports dev.ferry.spring.boot.jaxws;
  opens dev.ferry.spring.boot.jaxws to spring.core, spring.beans, spring.context;
}
