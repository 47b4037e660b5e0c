/** A Spring Boot starter for Ferry's SOAP broker: routes and listener from properties. */
package dev.ferry.spring.boot.broker;
