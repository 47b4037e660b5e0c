/**
 * A Spring Boot starter that serves an application's JAX-WS endpoints on Ferry; start at
 * {@link dev.ferry.spring.boot.jaxws.FerryJaxwsAutoConfiguration} and the properties it reads,
 * {@link dev.ferry.spring.boot.jaxws.JaxwsProperties}.
 */
package dev.ferry.spring.boot.jaxws;
