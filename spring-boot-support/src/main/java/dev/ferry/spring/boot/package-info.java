/**
 * What Ferry's Spring Boot starters share; start at {@link dev.ferry.spring.boot.SslBundleTls},
 * which turns an SSL bundle ({@code spring.ssl.bundle.*}) into Ferry's TLS settings.
 */
package dev.ferry.spring.boot;
