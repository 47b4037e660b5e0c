/** A Spring Boot starter: typed JAX-WS ports and SOAP clients as beans from properties. */
module dev.ferry.spring.boot.client {
  requires dev.ferry.jaxws;
  requires dev.ferry.spring.boot;
  requires static dev.ferry.wssecurity;
  requires io.opentelemetry.api;
  requires spring.beans;
  requires spring.boot.autoconfigure;
  requires spring.context;
  requires spring.core;

  exports dev.ferry.spring.boot.client;
  opens dev.ferry.spring.boot.client to spring.core, spring.beans, spring.context;
}
