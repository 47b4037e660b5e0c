/** What Ferry's Spring Boot starters share: TLS settings from Spring Boot's SSL bundles. */
module dev.ferry.spring.boot {
  requires transitive dev.ferry.security;
  requires transitive spring.boot;

  exports dev.ferry.spring.boot;
}
