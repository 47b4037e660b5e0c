/**
 * A Spring Boot starter that makes SOAP clients beans from properties; start at
 * {@link dev.ferry.spring.boot.client.FerryClientsAutoConfiguration} and
 * {@link dev.ferry.spring.boot.client.ClientProperties}.
 */
package dev.ferry.spring.boot.client;
